"""The `hangar` command line as the tests' independent reference: `hangar rules flight` and
`hangar rules jungle` answer from the engines' own code, outside the Python package.

The binary is `$HANGAR_BIN` if set, else `target/debug/hangar` (or `target/release/hangar`)
of the workspace, which `./test.sh` builds before the Python step; if none is there it is
built with `cargo build -p hangar --bin hangar`.
"""

import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


@lru_cache(maxsize=None)
def hangar_binary():
    given = os.environ.get("HANGAR_BIN")
    if given:
        return given
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    if not target.is_absolute():
        target = ROOT / target
    for profile in ("debug", "release"):
        candidate = target / profile / "hangar"
        if candidate.is_file():
            return str(candidate)
    subprocess.run(
        ["cargo", "build", "--locked", "-q", "-p", "hangar", "--bin", "hangar"], cwd=ROOT, check=True
    )
    return str(target / "debug" / "hangar")


def rules(game, request):
    """One request to `hangar rules GAME`; the answer as a dict (refusals included)."""
    done = subprocess.run(
        [hangar_binary(), "rules", game],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        timeout=60,
    )
    if not done.stdout.strip():
        raise AssertionError(f"hangar rules {game} answered nothing: {done.stderr}")
    return json.loads(done.stdout)


def rules_many(game, requests):
    """`rules` for each request, a few processes at a time; answers in the requests' order."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(lambda r: rules(game, r), requests))


# Jungle actions from the documented formula (docs/python.md, "Actions"), written here from
# the document and not taken from the package: `4 × square + direction`, both seen by the
# mover (yellow's board turned half a turn), square a1 = 0 rank by rank, direction 0 up,
# 1 right, 2 down, 3 left; a leap is the direction of the river it crosses.
def jungle_action(move, mover):
    """The env's action for a move in notation (`"e3e4"`) by `mover` ("red" or "yellow")."""
    files = "abcdefg"
    f0, r0 = files.index(move[0]), int(move[1]) - 1
    f1, r1 = files.index(move[2]), int(move[3]) - 1
    if mover == "yellow":
        f0, r0, f1, r1 = 6 - f0, 8 - r0, 6 - f1, 8 - r1
    df, dr = f1 - f0, r1 - r0
    direction = {(0, 1): 0, (1, 0): 1, (0, -1): 2, (-1, 0): 3}[((df > 0) - (df < 0), (dr > 0) - (dr < 0))]
    return 4 * (7 * r0 + f0) + direction
