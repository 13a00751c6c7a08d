"""An agent against every built-in level of the hall's bots (`hangar_env.bot`), with a result
table. The agent here is the simplest one that knows nothing: uniform over the action mask.
Replace `agent` with yours. Run: python versus_bots.py [--game jungle|flight] [--games N]"""

import argparse
import math

import numpy as np

from hangar_env import bot, flight_v0, jungle_v0

LEVELS = {"jungle": ["random", "greedy", "easy", "normal"], "flight": ["random", "heuristic"]}


def agent(observation, rng):
    """Your policy: an action allowed by the mask."""
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def score(game, level, games, rng):
    """The agent's score against `level` over `games` two-player games, seats alternating:
    1 a win, ½ a draw (Jungle), 0 a loss."""
    env = jungle_v0.env() if game == "jungle" else flight_v0.env(players=2)
    points = 0.0
    for n in range(games):
        opponent = bot(game, level, seed=n)
        mine = env.possible_agents[n % 2]
        env.reset(seed=n)
        final = {}
        for seat in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            final[seat] = reward
            if terminated or truncated:
                env.step(None)
            elif seat == mine:
                env.step(agent(observation, rng))
            else:
                env.step(opponent(env))
        points += (final[mine] + 1) / 2
    return points / games


def elo(fraction):
    """The Elo difference a score fraction means (±inf at 0 and 1)."""
    if fraction <= 0:
        return -math.inf
    if fraction >= 1:
        return math.inf
    return -400 * math.log10(1 / fraction - 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=sorted(LEVELS), default="jungle")
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"{'level':<10} {'score':>6} {'elo':>7}")
    for level in LEVELS[args.game]:
        fraction = score(args.game, level, args.games, rng)
        print(f"{level:<10} {fraction:>6.0%} {elo(fraction):>7.0f}")


if __name__ == "__main__":
    main()
