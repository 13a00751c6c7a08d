#!/usr/bin/env bash
# Compares builds of the hall under `hangar load --clients 100 --think 0 --seconds 10`, side by
# side on one machine (docs/benchmarks.md, "The hall on one node — side by side").
#
#   scripts/side-by-side.sh ROUNDS LABEL=BINARY LABEL=BINARY...
#
# Each round runs every build once, each run in a high-priority autogroup after a few seconds
# of idle; the builds' order rotates from round to round, since in a fixed order a build's
# place in the round moves its figure. Prints one line per run, then per build the mean
# actions/s and server CPU µs per action and the mean over rounds of its CPU ratio to the
# first build.
set -euo pipefail

if (($# < 3)); then
    sed -n '5p' "$0" >&2
    exit 2
fi
rounds=$1
shift
specs=("$@")
count=${#specs[@]}
pause=${PAUSE_SECONDS:-5}
runs=$(mktemp)
trap 'rm -f "$runs"' EXIT

for round in $(seq 1 "$rounds"); do
    for i in $(seq 0 $((count - 1))); do
        spec=${specs[$(((i + round) % count))]}
        label=${spec%%=*}
        binary=${spec#*=}
        sleep "$pause"
        report=$(setsid bash -c 'echo -20 > /proc/self/autogroup; exec "$0" load --clients 100 --think 0 --seconds 10' "$binary" 2>/dev/null)
        actions=$(sed -n 's/^actions.*(\([0-9]*\)\/s).*/\1/p' <<<"$report")
        cpu=$(sed -n 's/.*server [0-9.]* s (\([0-9]*\) µs.*/\1/p' <<<"$report")
        echo "round $round $label actions/s $actions server-µs/action $cpu"
        echo "$round $label $actions $cpu" >>"$runs"
    done
done

first=${specs[0]%%=*}
awk -v first="$first" '
    { aps[$2] += $3; cpu[$2] += $4; n[$2]++; at[$1, $2] = $4; labels[$2] = 1; rounds[$1] = 1 }
    END {
        for (l in labels) {
            ratio = 0; k = 0
            for (r in rounds) if ((r, l) in at && (r, first) in at) { ratio += at[r, l] / at[r, first]; k++ }
            printf "%s: %.0f actions/s, %.1f µs/action, CPU ratio to %s %.3f (%d rounds)\n", l, aps[l] / n[l], cpu[l] / n[l], first, ratio / k, k
        }
    }' "$runs"
