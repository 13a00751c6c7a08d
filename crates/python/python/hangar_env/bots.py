"""The hall's own bots as agents: `hangar_env.bot(game, level)`.

    from hangar_env import bot, jungle_v0

    env = jungle_v0.env()
    env.reset(seed=7)
    opponent = bot("jungle", "hard")
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        elif agent == "player_1":
            action = opponent(env)
        else:
            action = my_policy(observation)
        env.step(action)
"""

from ._core import BotCore

GAMES = ("flight", "jungle")


class Bot:
    """A built-in bot of one game, acting in an environment of that game.

    `level` is a level of the hall (flight: `random`, `heuristic`, `hard`; Jungle: `random`,
    `greedy`, `easy`, `normal`, `hard`, `alphabeta`) or a bot spec of `hangar sim` (e.g.
    `search:depth=2`, `ab:depth=6`). The bot's own randomness comes from `seed`, so games
    between bots replay exactly.
    """

    def __init__(self, game, level, seed=0):
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; one of {GAMES}")
        self.game = game
        self.level = level
        self._core = BotCore(game, level, int(seed))

    def __call__(self, env):
        """The action the bot plays for the agent to move in `env` (an AEC env of its game,
        wrapped or not), or None when no agent acts there (a chance node, the game over)."""
        return self._core.act(env.unwrapped._core)

    def __repr__(self):
        return f"bot({self.game!r}, {self.level!r})"


def bot(game, level, seed=0):
    """The built-in bot `level` of `game` (`"flight"` or `"jungle"`): see `Bot`."""
    return Bot(game, level, seed)
