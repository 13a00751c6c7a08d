#!/usr/bin/env bash
# Runs every test of Hangar: format, lints, unit, property and integration tests, and the
# browser suite. Installs what the tests need that is missing. CI (.ci/run) calls this script.
set -euo pipefail
cd "$(dirname "$0")"

# Each step's name and start (seconds since the script began), for the times printed at the end.
STEP_NAMES=()
STEP_STARTS=()
step() {
  printf '\n=== %s ===\n' "$*"
  STEP_NAMES+=("$*")
  STEP_STARTS+=("$SECONDS")
}
step_times() {
  local i end
  printf '\n=== time per step ===\n'
  for i in "${!STEP_NAMES[@]}"; do
    end=${STEP_STARTS[$((i + 1))]:-$SECONDS}
    printf '%6d s  %s\n' "$((end - STEP_STARTS[i]))" "${STEP_NAMES[$i]}"
  done
  printf '%6d s  in all\n' "$SECONDS"
}

# A test run builds each test binary once: incremental state and full debug info would only
# fill the disk (a clean run wrote 16 GB with them, 3.3 GB of it incremental state). Line
# tables keep the file and line of every frame in a panic's backtrace.
export CARGO_INCREMENTAL=0
export CARGO_PROFILE_DEV_DEBUG=line-tables-only

step "format"
cargo fmt --all --check

step "lints"
cargo clippy --workspace --all-targets --locked -- -D warnings

# --- PostgreSQL for the hall's storage tests (crates/hall) ------------------------------
# The hall's database tests also run against a real PostgreSQL server: install Debian's
# `postgresql` if missing, start a throwaway cluster (user postgres, a temp dir, a free port),
# create a database and export HANGAR_TEST_POSTGRES_URL. Idempotent; the cluster is stopped
# and removed when this script exits. Without root and without PostgreSQL the tests say they
# ran on SQLite only.
start_test_postgres() {
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    if [[ $(id -u) -ne 0 ]]; then
      echo "PostgreSQL is not installed and this is not root: storage tests run on SQLite only"
      return 0
    fi
    step "installing postgresql"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq postgresql >/dev/null
  fi
  local bin dir port
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  dir=$(mktemp -d /tmp/hangar-pg.XXXXXX)
  for port in $(seq 25432 25532); do
    (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null || break
  done
  as_postgres() { if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi; }
  [[ $(id -u) -eq 0 ]] && chown postgres "$dir"
  as_postgres "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >/dev/null
  as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
  as_postgres "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres hangar_test
  export HANGAR_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/hangar_test"
  HANGAR_PG_STOP=("$bin/pg_ctl" -D "$dir/data" -m immediate stop)
  HANGAR_PG_DIR=$dir
  trap 'as_postgres "${HANGAR_PG_STOP[@]}" >/dev/null 2>&1 || true; rm -rf "$HANGAR_PG_DIR"' EXIT
  echo "PostgreSQL for tests at $HANGAR_TEST_POSTGRES_URL"
}
step "PostgreSQL for the hall's storage tests"
start_test_postgres
# --- end of the PostgreSQL block -----------------------------------------------------------

# --- NATS for the cluster tests (crates/hangar/tests/hall_cluster.rs) ------------------------
# Each cluster test starts its own `nats-server` on a free port; here Debian's package is
# installed if missing. Without root and without nats-server the tests say they did not run
# (under CI they fail instead).
if ! command -v nats-server >/dev/null 2>&1 && [[ ! -x /usr/sbin/nats-server ]]; then
  if [[ $(id -u) -eq 0 ]]; then
    step "installing nats-server"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq nats-server >/dev/null
  else
    echo "nats-server is not installed and this is not root: the cluster tests will not run"
  fi
fi

step "unit, property and integration tests"
cargo test --workspace --locked

# --- Python package (crates/python) ---------------------------------------------------------
# The Python environments (hangar_env): a venv under the target dir gets maturin, PettingZoo,
# Gymnasium, numpy and pytest from PyPI if missing; the PyO3 bindings (feature `python`, off in
# the workspace build) are linted, the wheel is built and installed into the venv, and pytest
# runs the package's tests. The wheel is a dev build: the tests need no speed.
python_package() {
  local target venv wheels
  target="${CARGO_TARGET_DIR:-target}"
  [[ $target == /* ]] || target="$PWD/$target"
  venv="$target/python-venv"
  wheels="$target/python-wheels"
  if [[ ! -x "$venv/bin/python" ]]; then
    python3 -m venv "$venv"
  fi
  "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    "maturin>=1.7,<2" pettingzoo gymnasium numpy pytest
  cargo clippy -p hangar-python --all-targets --features python --locked -- -D warnings
  rm -rf "$wheels"
  "$venv/bin/maturin" build --locked --profile dev -m crates/python/Cargo.toml -o "$wheels" -q
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheels"/*.whl
  (cd crates/python && "$venv/bin/python" -m pytest -q -p no:cacheprovider tests)
}
step "Python package"
python_package

# --- Fuzz smoke run (fuzz/) ----------------------------------------------------------------
# `cargo test` above already ran every fuzz target's body over a fixed corpus; here each target
# also runs under libFuzzer for a few seconds, so the libFuzzer build cannot break unnoticed.
# cargo-fuzz is installed from crates.io if missing. `--dev -s none`: debug assertions, no
# sanitizer (the workspace forbids unsafe code; a sanitizer would need RUSTC_BOOTSTRAP=1 on a
# stable toolchain), and a shorter build. HANGAR_FUZZ_SECONDS sets the time per target.
fuzz_smoke() {
  if ! cargo fuzz --version >/dev/null 2>&1; then
    step "installing cargo-fuzz"
    cargo install cargo-fuzz --locked
  fi
  local target corpus log
  corpus=$(mktemp -d /tmp/hangar-fuzz.XXXXXX)
  for target in $(cargo fuzz list); do
    mkdir -p "$corpus/$target"
    log="$corpus/$target.log"
    if cargo fuzz run --dev -s none --features libfuzzer "$target" "$corpus/$target" \
      -- -max_total_time="${HANGAR_FUZZ_SECONDS:-3}" -print_final_stats=1 >"$log" 2>&1; then
      echo "$target: $(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$log")"
    else
      # A linker's command line is one line of many kilobytes: cut lines so its message shows.
      tail -n 60 "$log" | cut -c1-300
      df -h . | tail -n 1
      echo "fuzz target $target failed; the input is in fuzz/artifacts/$target/"
      rm -rf "$corpus"
      return 1
    fi
  done
  rm -rf "$corpus"
}
step "fuzz smoke run"
fuzz_smoke

if [[ -x tests/e2e/run.sh ]]; then
  step "browser suite"
  tests/e2e/run.sh
fi

step "done"
step_times
