"""`vs_bot`: one seat of either game as a Gymnasium single-agent env, the other seats played by
a built-in bot of the hall.

    import hangar_env
    env = hangar_env.vs_bot("jungle", level="normal", seat=0)
    obs, info = env.reset(seed=1)
    while True:
        action = my_policy(obs, info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
"""

import gymnasium

from . import flight_v0, jungle_v0
from .bots import bot

GAMES = {"flight": flight_v0, "jungle": jungle_v0}
ILLEGAL = ("lose", "raise")


class VsBot(gymnasium.Env):
    """One agent of a `flight_v0` or `jungle_v0` game; the bot `level` plays every other seat.

    - `observation_space` is the game's observation (flight `Box(-1, 255, (50,), float32)`,
      Jungle `Box(0, 1, (9, 7, 16), uint8)`), `action_space` its `Discrete(7)` or
      `Discrete(252)`; `info["action_mask"]` (and `action_masks()`) lists the legal actions.
    - `reset(seed=s)` starts a game whose dice, seats and bots' draws all come from `s`; the
      same seed gives the same game for the same actions. `reset()` without a seed goes on
      from the env's random generator, as Gymnasium envs do.
    - `step(action)` plays the action, then the bots until the agent is to move again or the
      game ends. The reward is the agent's result when the game ends (flight by rank, +1 first
      … −1 last; Jungle ±1), else 0. Jungle's 200-ply draw is `truncated` with 0.
    - An action the mask forbids: with `illegal="lose"` (the default, as PettingZoo's
      `TerminateIllegalWrapper`) the game ends there, the agent gets −1 and
      `info["illegal_action"]` is True; with `illegal="raise"` a ValueError, nothing played.

    Other keyword arguments are the game env's (`players`, `preset`, rule options,
    `position`, ...); flight's explicit chance is not offered (the env draws every die).
    """

    def __init__(self, game, level="random", seat=0, illegal="lose", render_mode=None, **kwargs):
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; one of {tuple(GAMES)}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {ILLEGAL}")
        if kwargs.get("explicit_chance"):
            raise ValueError("vs_bot draws every die: explicit_chance is not offered")
        self.game = game
        self.level = level
        self.illegal = illegal
        self._env = GAMES[game].raw_env(render_mode=render_mode, **kwargs)
        self.metadata = {"render_modes": self._env.metadata["render_modes"], "render_fps": 2}
        self.render_mode = render_mode
        agents = self._env.possible_agents
        if not 0 <= int(seat) < len(agents):
            raise ValueError(f"seat {seat} is not one of 0–{len(agents) - 1}")
        self.seat = int(seat)
        self.agent = agents[self.seat]
        self.observation_space = self._env.observation_space(self.agent)["observation"]
        self.action_space = self._env.action_space(self.agent)
        # Refuse an unknown level at once; each game gets fresh bots seeded from its seed.
        bot(game, level)
        self._bots = {}
        self._over = True

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        draws = self.np_random.integers(0, 2**63, size=len(self._env.possible_agents) + 1)
        self._bots = {
            agent: bot(self.game, self.level, seed=int(draws[k + 1]))
            for k, agent in enumerate(self._env.possible_agents)
            if agent != self.agent
        }
        self._env.reset(seed=int(draws[0]), options=options)
        self._over = False
        self._play_bots()
        return self._observed()

    def step(self, action):
        if self._over:
            raise RuntimeError("the game is over: call reset()")
        env = self._env
        action = int(action)
        mask = env.observe(self.agent)["action_mask"]
        if not (0 <= action < len(mask) and mask[action]):
            if self.illegal == "raise":
                raise ValueError(f"action {action} is not legal here (see info['action_mask'])")
            self._over = True
            observation, info = self._observed()
            info["illegal_action"] = True
            return observation, -1.0, True, False, info
        env.step(action)
        self._play_bots()
        terminated = env.terminations.get(self.agent, False)
        truncated = env.truncations.get(self.agent, False)
        self._over = terminated or truncated
        reward = float(env.rewards[self.agent]) if self._over else 0.0
        observation, info = self._observed()
        return observation, reward, terminated, truncated, info

    def _play_bots(self):
        """Plays the bots' seats until the agent is to move or the game is over."""
        env = self._env
        while not (env.terminations[self.agent] or env.truncations[self.agent]):
            agent = env.agent_selection
            if agent == self.agent:
                return
            env.step(self._bots[agent](env))

    def _observed(self):
        """The agent's observation and the info with its action mask."""
        seen = self._env.observe(self.agent)
        return seen["observation"], {"action_mask": seen["action_mask"]}

    def action_masks(self):
        """The legal actions of the agent (int8, 1 = legal), all zeros once the game is over
        (the method sb3-contrib's MaskablePPO reads)."""
        return self._env.observe(self.agent)["action_mask"]

    @property
    def unwrapped_game(self):
        """The PettingZoo env the game runs in (its `record()`, `colours()`, ...)."""
        return self._env

    def render(self):
        return self._env.render()

    def close(self):
        self._env.close()


def vs_bot(game, level="random", seat=0, illegal="lose", render_mode=None, **kwargs):
    """A Gymnasium env: seat `seat` of `game` (`"flight"` or `"jungle"`) against the built-in
    bot `level` on every other seat (see `VsBot`)."""
    return VsBot(game, level, seat=seat, illegal=illegal, render_mode=render_mode, **kwargs)
