#!/usr/bin/env bash
# The browser suite: installs Chromium and the npm packages if missing, builds `hangar`, starts
# `hangar serve` on a port of the system's choosing (it binds port 0 and logs the address) with a throw-away SQLite database and short timers, runs the
# Playwright tests with node's test runner, and stops the server. Called by ./test.sh.
set -euo pipefail
cd "$(dirname "$0")"
ROOT="$(cd ../.. && pwd)"

if [[ ! -x /usr/bin/chromium ]]; then
  echo "installing chromium…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
# Fonts for Chinese text and emoji in screenshots (optional: the tests pass without them).
if ! fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk fonts-noto-color-emoji >/dev/null 2>&1 || true
fi

npm ci --no-audit --no-fund --loglevel=error

(cd "$ROOT" && cargo build --quiet -p hangar)
HANGAR="${CARGO_TARGET_DIR:-$ROOT/target}/debug/hangar"

WORK="$(mktemp -d)"
# A log of this run's own: runs side by side each read their own server's address from it.
LOG="$ROOT/target/e2e-server.$$.log"
mkdir -p "$ROOT/target/e2e-screenshots"

# The suite's settings. Every flag is passed as it is: a flag this build of `hangar serve` does
# not know stops the server at once (and the suite with it), instead of being left out while the
# suite runs under other rules.
EXTRA=(
  --database "sqlite:$WORK/hangar.db"
  --bot-delay-ms "${HANGAR_BOT_DELAY_MS:-40}"
  --web-dir "$ROOT/web"
  --reconnect-seconds 30
  --quick-bots-after-seconds 6
  # Every page is a guest on loopback: no cap of new guests per network. The pages play short
  # games on purpose (a resignation at once): no minimum of own decisions (P-ABORT, tested in
  # crates/hall/tests/it/fair_play.rs).
  --guests-per-address-per-hour 0
  # The challenge pages register accounts, all from loopback (P-NEW-IDENTITY).
  --accounts-per-network-per-hour 0
  --abort-decisions 0
  # The pages' boards list a player after one opponent (P-RATING's 5, tested in fair_play.rs).
  --listed-after-opponents 1
  # Pages of a slow machine may sit longer than a minute before readying.
  --ready-timeout-seconds 600
)

# Port 0: the server binds a free port itself and logs it ("the hall is open on http://ADDR"), so
# no other process can take the port between choosing it and binding it. No colours in the log.
(cd "$WORK" && NO_COLOR=1 exec "$HANGAR" serve --addr "127.0.0.1:0" "${EXTRA[@]}") >"$LOG" 2>&1 &
SERVER=$!
cleanup() {
  kill "$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# Wait for the line that names the bound address (a cold debug build on a loaded machine can
# take a while to open the database), then for /health to answer on it.
ADDR=""
for _ in $(seq 1 600); do
  ADDR="$(sed 's/\x1b\[[0-9;]*m//g' "$LOG" | grep -o 'the hall is open on http://[0-9.]*:[0-9]*' | head -n1 | sed 's|.*http://||' || true)"
  if [[ -n "$ADDR" ]] && curl -fsS "http://$ADDR/health" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$SERVER" 2>/dev/null; then
    echo "hangar serve exited early:"; cat "$LOG"; exit 1
  fi
  sleep 0.2
done
if [[ -z "$ADDR" ]] || ! curl -fsS "http://$ADDR/health" >/dev/null 2>&1; then
  echo "hangar serve did not report an address that answers:"; cat "$LOG"; exit 1
fi

export HANGAR_URL="http://$ADDR"
# For tests that act as the operator (`hangar admin`, e.g. making an arena) on this hall.
export HANGAR_BIN="$HANGAR" HANGAR_DATABASE="sqlite:$WORK/hangar.db"
echo "browser suite against $HANGAR_URL (server log: $LOG)"
node --test --test-concurrency=1 ${E2E_TESTS:-./*.test.mjs}
