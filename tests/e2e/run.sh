#!/usr/bin/env bash
# The browser suite: installs Chromium and the npm packages if missing, builds `hangar`, starts
# halls (`hangar serve`, each with a throw-away SQLite database and short timers), runs the
# Playwright tests with node's test runner in shards side by side, one hall each, and stops the
# halls. Called by ./test.sh. E2E_TESTS="./a.test.mjs ./b.test.mjs" runs some files;
# E2E_SHARDS=1 runs them all against one hall.
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

# E2E_HANGAR: a `hangar` built already (e.g. a release build) instead of this tree's debug build.
if [[ -n "${E2E_HANGAR:-}" ]]; then
  HANGAR="$E2E_HANGAR"
else
  (cd "$ROOT" && cargo build --quiet -p hangar)
  HANGAR="${CARGO_TARGET_DIR:-$ROOT/target}/debug/hangar"
fi

mkdir -p "$ROOT/target/e2e-screenshots"

# The suite's settings, the same for every hall. Every flag is passed as it is: a flag this
# build of `hangar serve` does not know stops the server at once (and the suite with it),
# instead of being left out while the suite runs under other rules.
EXTRA=(
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

# The test files run in shards side by side, each shard's files one after another against a
# hall of its own (its own database and log): tests of one hall share its quick match, its
# players online and its boards, so only files of different halls run at once. Most of a
# browser test is waiting (timers, animations, bots), so two shards on two cores take little
# more than half the time of one.
SHARDS="${E2E_SHARDS:-2}"
read -r -a FILES <<<"${E2E_TESTS:-$(ls ./*.test.mjs | tr '\n' ' ')}"
if ((SHARDS > ${#FILES[@]})); then SHARDS=${#FILES[@]}; fi

WORKS=() SERVERS=() LOGS=()
cleanup() {
  local pid
  for pid in "${SERVERS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${SERVERS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "${WORKS[@]}"
}
trap cleanup EXIT

# Starts hall number $1 on a port of its own choosing: it binds port 0 and logs the address
# ("the hall is open on http://ADDR"), so no other process can take the port between choosing
# it and binding it. No colours in the log; a log of each run's own, so that runs side by side
# each read their own server's address.
start_hall() {
  local work log
  work="$(mktemp -d)"
  log="$ROOT/target/e2e-server.$$.$1.log"
  (cd "$work" && NO_COLOR=1 exec "$HANGAR" serve --addr "127.0.0.1:0" \
    --database "sqlite:$work/hangar.db" "${EXTRA[@]}") >"$log" 2>&1 &
  SERVERS+=("$!") WORKS+=("$work") LOGS+=("$log")
}

# The address hall number $1 reports, once /health answers on it (a cold debug build on a
# loaded machine can take a while to open the database).
hall_address() {
  local log=${LOGS[$1]} server=${SERVERS[$1]} addr=""
  for _ in $(seq 1 600); do
    addr="$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -o 'the hall is open on http://[0-9.]*:[0-9]*' | head -n1 | sed 's|.*http://||' || true)"
    if [[ -n "$addr" ]] && curl -fsS "http://$addr/health" >/dev/null 2>&1; then
      echo "$addr"
      return 0
    fi
    if ! kill -0 "$server" 2>/dev/null; then
      echo "hangar serve exited early:" >&2; cat "$log" >&2; return 1
    fi
    sleep 0.2
  done
  echo "hangar serve did not report an address that answers:" >&2; cat "$log" >&2
  return 1
}

for shard in $(seq 0 $((SHARDS - 1))); do start_hall "$shard"; done

# Shard k takes every SHARDS-th file from the k-th: neighbours in the listing (often tests of
# one feature, of similar length) go to different shards.
RUNS=()
for shard in $(seq 0 $((SHARDS - 1))); do
  addr=$(hall_address "$shard")
  mine=()
  for i in "${!FILES[@]}"; do
    if ((i % SHARDS == shard)); then mine+=("${FILES[$i]}"); fi
  done
  echo "shard $shard: ${#mine[@]} files against http://$addr (server log: ${LOGS[$shard]})"
  # For tests that act as the operator (`hangar admin`, e.g. making an arena) on this hall.
  HANGAR_URL="http://$addr" HANGAR_BIN="$HANGAR" HANGAR_DATABASE="sqlite:${WORKS[$shard]}/hangar.db" \
    node --test --test-concurrency=1 "${mine[@]}" > >(sed -u "s/^/[$shard] /") 2>&1 &
  RUNS+=("$!")
done

# Each shard's lines come as they are written, marked with the shard's number.
failed=0
for run in "${RUNS[@]}"; do
  wait "$run" || failed=1
done
exit "$failed"
