"""Self-play training for a Jungle endgame in well under a minute on one core, numpy only.

    python train_jungle.py [--plies 600000] [--eval-games 500] [--position TEXT]

The agent is a linear value function over the observation (one weight per animal, side and
square: the 9 × 7 × 16 planes seen by the player), playing the move whose resulting position it
values most. The value of the position after a move differs from the value before only where
the moving animal left, where it arrived and what it took, so every move's value is read from
the observation and the action without stepping the engine. It learns from self-play on
`JungleVectorEnv` (both sides share the weights: the observation is always the mover's view):
when a game ends, every position a player moved to is pulled towards that player's result,
discounted per ply (Monte Carlo). Then it plays the random agent with either colour. The
untrained agent (all weights zero, ties broken at random) is the random agent, so the first
line printed is the baseline and the second what training added.
"""

import argparse
import math
import time

import numpy as np

from hangar_env import JungleVectorEnv

# Each side keeps its rat, tiger, lion and elephant on their starting squares; the board and
# material are symmetric, so the random agent scores half against itself.
ENDGAME = "l5t/7/r5e/7/7/7/E5R/7/T5L r"

RANKS, FILES, SQUARES, PLANES = 9, 7, 63, 16
TIGER, LION = 5, 6
PIECES = 16  # at most 8 animals a side
HISTORY = 1024
DIRECTIONS = [(1, 0), (0, 1), (-1, 0), (0, -1)]  # up, right, down, left in the mover's view


def in_river(rank, file):
    return 3 <= rank <= 5 and file in (1, 2, 4, 5)


def move_tables():
    """For each action (4 × square + direction): its from-square, where a step lands, and
    where a leap over the river lands (the from-square where there is nothing to land on;
    the mask rules those actions out)."""
    start = np.arange(4 * SQUARES) // 4
    step, leap = start.copy(), start.copy()
    for action in range(4 * SQUARES):
        rank, file = divmod(action // 4, FILES)
        dr, df = DIRECTIONS[action % 4]
        r, f = rank + dr, file + df
        if not (0 <= r < RANKS and 0 <= f < FILES):
            continue
        step[action] = r * FILES + f
        while in_river(r, f):
            r, f = r + dr, f + df
        leap[action] = r * FILES + f
    return start, step, leap


FROM, STEP, LEAP = move_tables()


class Agent:
    """A linear afterstate value `w · planes`, greedy (or ε-greedy while training)."""

    def __init__(self):
        # One weight per square and plane, and a last one that stays 0: the index that pads
        # a position's list of occupied planes.
        self.w = np.zeros(SQUARES * PLANES + 1)

    def move_values(self, obs):
        """For each game and action: (value change of the move, destination, animal, animal
        taken or -1). obs: (n, 9, 7, 16) uint8 from the mover's view."""
        planes = obs.reshape(len(obs), SQUARES, PLANES).astype(np.int64)
        roles = np.arange(1, 9)
        own = planes[:, :, :8] @ roles - 1  # the mover's animal on each square, -1 none
        theirs = planes[:, :, 8:] @ roles - 1
        role = own[:, FROM]
        leaps = (role == TIGER) | (role == LION)
        dest = np.where(leaps, LEAP, STEP)
        taken = np.take_along_axis(theirs, dest, axis=1)
        mover = np.maximum(role, 0)
        w = self.w[:-1].reshape(SQUARES, PLANES)
        change = w[dest, mover] - w[FROM, mover]
        change -= np.where(taken >= 0, w[dest, 8 + np.maximum(taken, 0)], 0.0)
        return change, dest, mover, taken

    def choose(self, obs, masks, rng, epsilon=0.0):
        """An allowed action per game, the best afterstate (ties and a share ε at random), and
        what the move does (destination, animal, animal taken)."""
        change, dest, mover, taken = self.move_values(obs)
        noise = rng.random(masks.shape)
        explore = rng.random(len(masks)) < epsilon
        score = np.where(explore[:, None], noise, change + 1e-9 * noise)
        actions = np.argmax(np.where(masks > 0, score, -np.inf), axis=1)
        rows = np.arange(len(masks))
        return actions, (dest[rows, actions], mover[rows, actions], taken[rows, actions])

    @staticmethod
    def afterstates(obs, actions, move):
        """The occupied planes after each chosen move: (n, 16) flat indexes into the weights,
        padded with the zero weight's index."""
        dest, mover, taken = move
        n = len(obs)
        after = obs.reshape(n, SQUARES * PLANES).copy()
        rows = np.arange(n)
        after[rows, FROM[actions] * PLANES + mover] = 0
        after[rows, dest * PLANES + mover] = 1
        took = taken >= 0
        after[rows[took], dest[took] * PLANES + 8 + taken[took]] = 0
        row, plane = np.nonzero(after)
        counts = np.bincount(row, minlength=n)
        slot = np.arange(len(row)) - np.repeat(np.cumsum(counts) - counts, counts)
        occupied = np.full((n, PIECES), SQUARES * PLANES, dtype=np.int16)
        occupied[row, slot] = plane
        return occupied

    def learn(self, occupied, targets, rate):
        """One gradient step of the squared error of the values of `occupied` (k, 16)
        towards `targets` (k,), averaged over the k positions."""
        errors = targets - self.w[occupied].sum(axis=1)
        grad = np.bincount(occupied.ravel(), np.repeat(errors, PIECES), minlength=len(self.w))
        grad[-1] = 0.0
        self.w += rate * grad / len(occupied)


def train(agent, plies, envs, seed, position, rate=0.1, epsilon=0.1, discount=0.98, draw=-0.5):
    """Monte Carlo self-play for `plies` moves in total over `envs` games stepped together:
    when a game ends, each position a player moved to learns the player's result, discounted
    by `discount` per ply still to come (so a quicker win is worth more). A draw by the
    200-ply rule counts `draw` for both: worse than nothing, so that the agent plays to win
    rather than shuffle (without it, long self-play drifts towards guarding the den, which
    only draws against a random opponent)."""
    venv = JungleVectorEnv(envs, seed=seed, num_threads=1, position=position)
    obs, masks, to_move = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    # The last HISTORY plies of every game: enough for nearly every whole game; of a longer
    # one only its last HISTORY plies learn.
    occupied = np.zeros((HISTORY, envs, PIECES), dtype=np.int16)
    movers = np.zeros((HISTORY, envs), dtype=np.int64)
    started = np.zeros(envs, dtype=np.int64)
    steps = plies // envs
    for t in range(steps):
        actions, move = agent.choose(obs, masks, rng, epsilon)
        occupied[t % HISTORY] = agent.afterstates(obs, actions, move)
        movers[t % HISTORY] = to_move
        obs, masks, rewards, terminated, truncated, to_move = venv.step(actions)
        for game in np.flatnonzero(terminated | truncated):
            plies_of_game = np.arange(max(started[game], t + 1 - HISTORY), t + 1)
            slots = plies_of_game % HISTORY
            final = rewards[game] if terminated[game] else np.full(2, draw)
            returns = discount ** (t - plies_of_game) * final[movers[slots, game]]
            # The step size falls linearly to 0: the last games refine rather than swing.
            agent.learn(occupied[slots, game], returns, rate * (1 - t / steps))
            started[game] = t + 1


def score_against_random(agent, games, seed, position):
    """The agent's score against the random agent over `games` games, one per game slot of a
    vector env (so long games count as much as short ones), colours alternating: 1 a win, ½ a
    draw (200 plies without a capture), 0 a loss."""
    venv = JungleVectorEnv(games, seed=seed, num_threads=1, position=position)
    obs, masks, to_move = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seat = np.arange(games) % 2
    result = np.full(games, np.nan)
    while np.isnan(result).any():
        mine, _ = agent.choose(obs, masks, rng)
        random = np.argmax(masks * rng.random(masks.shape), axis=1)
        actions = np.where(to_move == seat, mine, random)
        obs, masks, rewards, terminated, truncated, to_move = venv.step(actions)
        first = (terminated | truncated) & np.isnan(result)
        result[first] = (rewards[first, seat[first]] + 1) / 2
    return result.mean()


def report(name, fraction, games):
    """A result line with the z-score of the score against even play."""
    z = (fraction - 0.5) / math.sqrt(0.25 / games)
    print(f"{name:<10} {fraction:6.1%} over {games} games against random (z = {z:+.1f})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=600_000, help="self-play moves in all")
    parser.add_argument("--envs", type=int, default=256, help="games stepped together")
    parser.add_argument("--eval-games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--position", default=ENDGAME, help="position text every game starts from")
    args = parser.parse_args()
    agent = Agent()
    evaluation = (args.eval_games, 1_000_000 + args.seed, args.position)
    report("untrained", score_against_random(agent, *evaluation), args.eval_games)
    start = time.perf_counter()
    train(agent, args.plies, args.envs, args.seed, args.position)
    seconds = time.perf_counter() - start
    report("trained", score_against_random(agent, *evaluation), args.eval_games)
    print(f"training: {args.plies:,} self-play moves in {seconds:.1f} s")

if __name__ == "__main__":
    main()
