"""Random-play throughput of hangar_env, side by side in one run (docs/python.md).

    python crates/python/bench.py [--seconds 2] [--envs 256]

Measures steps per second (one agent decision = one step) for each game: the vector env on one
thread and on every core (writing into the loop's own numpy buffers with `step_into`), the
PettingZoo AEC env one step per Python call (through `agent_iter()`, `last()` and a masked
random choice), as `env()` gives it (with the order checks, the documented entry), as
`raw_env()` (without) and wrapped in PettingZoo's `OrderEnforcingWrapper` (what `env()` was
before), and the plain-Python reference loop: the same Rust game core
stepped one call at a time from Python, without PettingZoo's bookkeeping. Beside them, in the
same run, two outside references when installed: LUDOpy (`pip install ludopy`, the one Ludo
package on PyPI; a step is one turn, one die roll) and PettingZoo's own chess env
(`pip install chess pygame`; the same AEC loop as ours).
"""

import argparse
import os
import random
import time

import numpy as np
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from hangar_env import FlightVectorEnv, JungleVectorEnv, flight_v0, jungle_v0
from hangar_env._core import FlightCore, JungleCore


# What `timed` measures: the wall clock, or with `--cpu-time` this process's CPU time, which
# a shared machine's other jobs do not stretch (for the one-thread rows; a row on several
# threads would add up their times).
CLOCK = [time.perf_counter]


def timed(seconds, body):
    """Runs `body()` (which returns steps done) until `seconds` pass; steps per second."""
    clock = CLOCK[0]
    steps, start = 0, clock()
    while (elapsed := clock() - start) < seconds:
        steps += body()
    return steps / elapsed


def vector_rate(make, seconds):
    venv = make()
    rng = np.random.default_rng(0)
    noise = rng.random((venv.num_envs, venv.masks.shape[1]), dtype=np.float32)
    # The loop's own buffers (`step_into`), as a training loop that keeps its arrays would.
    own = (venv.obs, venv.masks, venv.rewards, venv.terminated, venv.truncated, venv.to_move)
    buffers = [np.array(b) for b in own]
    masks = buffers[1]

    def batch():
        # A masked random action per game: the largest noise among legal actions.
        for _ in range(20):
            venv.step_into(np.argmax(masks * noise, axis=1), *buffers)
            rng.random(out=noise, dtype=np.float32)
        return 20 * venv.num_envs

    return timed(seconds, batch)


def aec_rate(env, seconds):
    rng = random.Random(0)
    env.reset(seed=0)

    def game():
        env.reset(seed=rng.getrandbits(32))
        steps = 0
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
            steps += 1
        return steps

    return timed(seconds, game)


def plain_rate(core, seconds):
    rng = random.Random(0)

    def game():
        core.reset(rng.getrandbits(32))
        steps = 0
        while not (core.terminated() or getattr(core, "truncated", lambda: False)()):
            core.observe(core.to_move())
            legal = [i for i, m in enumerate(core.mask()) if m]
            core.step(rng.choice(legal))
            steps += 1
        return steps

    return timed(seconds, game)


def ludopy_rate(seconds):
    """LUDOpy with random players, turns per second (None when it is not installed)."""
    try:
        import ludopy
    except ImportError:
        return None
    rng = np.random.default_rng(1)

    def game():
        board, turns, over = ludopy.Game(), 0, False
        while not over:
            (_, pieces, _, _, _, over), _ = board.get_observation()
            board.answer_observation(pieces[rng.integers(0, len(pieces))] if len(pieces) else -1)
            turns += 1
        return turns

    return timed(seconds, game)


def chess_rate(seconds):
    """PettingZoo's chess env through the AEC loop (None when python-chess or pygame, which
    PettingZoo's chess module imports, is not installed)."""
    try:
        from pettingzoo.classic import chess_v6
    except ImportError:
        return None
    return aec_rate(chess_v6.raw_env(), seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--aec-only", action="store_true", help="time the AEC envs alone")
    parser.add_argument(
        "--cpu-time", action="store_true", help="measure this process's CPU time, not the wall clock"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="time each row this many times and keep the best (a shared machine)"
    )
    args = parser.parse_args()
    if args.cpu_time:
        CLOCK[0] = time.process_time
    repeat = max(1, args.repeat)

    def best(rate, *a):
        rates = [rate(*a) for _ in range(repeat)]
        return None if None in rates else max(rates)

    n, s = args.envs, args.seconds
    cores = os.cpu_count() or 1
    rows = []
    for game, vec, ordered, raw, core in [
        (
            "flight (4 players)",
            lambda t: FlightVectorEnv(n, players=4, num_threads=t),
            lambda: flight_v0.env(players=4),
            lambda: flight_v0.raw_env(players=4),
            FlightCore(4, None, [], False, 0),
        ),
        (
            "jungle",
            lambda t: JungleVectorEnv(n, num_threads=t),
            lambda: jungle_v0.env(),
            lambda: jungle_v0.raw_env(),
            JungleCore([], None),
        ),
    ]:
        if not args.aec_only:
            rows.append((game, f"vector env, N = {n}, 1 thread", best(vector_rate, lambda: vec(1), s)))
            if not args.cpu_time:
                rows.append((game, f"vector env, N = {n}, {cores} threads", best(vector_rate, lambda: vec(cores), s)))
        # `env()`, `raw_env()` and PettingZoo's wrapper around `raw_env()` (what `env()` was
        # before 2026-12-07) by turns, so that all see the same moments of a shared machine.
        trio = [ordered(), raw(), OrderEnforcingWrapper(raw())]
        timings = [[aec_rate(env, s) for env in trio] for _ in range(repeat)]
        rows.append((game, "AEC env, `env()` (order checks), 1 step per call", max(t[0] for t in timings)))
        rows.append((game, "AEC env, `raw_env()`, 1 step per call", max(t[1] for t in timings)))
        rows.append((game, "AEC env, `OrderEnforcingWrapper(raw_env())`, 1 step per call", max(t[2] for t in timings)))
        if not args.aec_only:
            rows.append((game, "plain Python loop over the core", best(plain_rate, core, s)))
    if args.aec_only:
        print_rows(rows)
        return
    for game, how, rate in [
        ("Ludo (LUDOpy)", "LUDOpy's own loop, random players", best(ludopy_rate, s)),
        ("chess (PettingZoo)", "AEC env (PettingZoo API), 1 step per call", best(chess_rate, s)),
    ]:
        if rate is not None:
            rows.append((game, how, rate))
    print_rows(rows)


def print_rows(rows):
    print("| game | how | steps/s |")
    print("|---|---|---:|")
    for game, how, rate in rows:
        print(f"| {game} | {how} | {rate:,.0f} |")


if __name__ == "__main__":
    main()
