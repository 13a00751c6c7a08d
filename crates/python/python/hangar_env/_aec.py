"""What both PettingZoo environments share: agent bookkeeping over a Rust core, and the order
check that `env()` adds."""

from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable
from pettingzoo.utils.env_logger import EnvLogger

from ._options import seed_value


class CoreEnv(AECEnv):
    """An AEC env whose game lives in `self._core` (a `FlightCore` or `JungleCore`).

    Subclasses set `possible_agents`, the spaces and `_core`, and may override
    `_reconfigure(options)` to rebuild the core when `reset(options=...)` changes rule options.

    Rewards come only when a game ends, so a step that does not end the game leaves the
    reward dicts as they are (all zeros) instead of adding zeros to every agent.
    """

    def __init__(self, render_mode=None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if options:
            self._reconfigure(options)
        self._seed = seed_value(seed)
        self._core.reset(self._seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._core.to_move()]

    def _reconfigure(self, options):
        """Applies `reset(options=...)`; subclasses know their rule options."""

    def observe(self, agent):
        # One call for both: the core zeroes the mask unless `agent` moves in a game that
        # goes on (an agent is terminated or truncated exactly when the game is over).
        observation, mask = self._core.observation(self._index[agent])
        return {"observation": observation, "action_mask": mask}

    def last(self, observe=True):
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0.0
        if self._core.step(int(action)):
            self._game_over()
        self.agent_selection = self.possible_agents[self._core.to_move()]

    def _after_step(self):
        """Marks the end of the game if it came and selects the agent to move (after a
        chance outcome)."""
        core = self._core
        if core.terminated() or self._truncated():
            self._game_over()
        self.agent_selection = self.possible_agents[core.to_move()]

    def _game_over(self):
        """Gives every agent its reward and ends the game for all (terminated, or truncated
        by a draw rule)."""
        rewards = self._core.rewards()
        ended = self.truncations if self._truncated() else self.terminations
        for agent in self.agents:
            self.rewards[agent] = float(rewards[self._index[agent]])
            ended[agent] = True
        self._accumulate_rewards()

    def _truncated(self):
        return False

    def render(self):
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return self._rgb()
        return self._core.text()

    def close(self):
        pass


class OrderEnforced:
    """PettingZoo's order checks (`OrderEnforcingWrapper`) built into the env instead of a
    wrapper around it; mixed in before a `CoreEnv` subclass by `env()`.

    The same guarantees: before the first `reset()`, `agents`, `rewards`, `terminations`,
    `truncations`, `infos`, `agent_selection` and `num_agents` raise AttributeError (they are
    set by `reset`), and `step()`, `observe()`, `render()`, `state()` and `agent_iter()` raise
    AssertionError with PettingZoo's messages; `step()` once every agent is done warns and does
    nothing; a loop over `agent_iter()` that does not call `step()` (or `reset()`) between two
    agents fails its assertion.

    Why not a wrapper, nor `__getattr__` for the wrapper's wording of the AttributeErrors: both
    make every attribute look-up of every step slower (CPython's attribute caches skip classes
    with `__getattr__`, and a wrapper adds a look-up chain); changing `__class__` after the
    first reset would defeat the same caches. A flag test costs a few nanoseconds.
    """

    _has_reset = False
    _has_updated = False

    def reset(self, seed=None, options=None):
        super().reset(seed=seed, options=options)
        self._has_reset = True
        self._has_updated = True

    # `step` and `observe` repeat `CoreEnv`'s few lines instead of calling them through
    # `super()`: the call would cost more than the checks. The tests play the same games
    # through this class and through PettingZoo's wrapper around `raw_env`.
    def step(self, action):
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.agents:
            return EnvLogger.warn_step_after_terminated_truncated()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0.0
        if self._core.step(int(action)):
            self._game_over()
        self.agent_selection = self.possible_agents[self._core.to_move()]

    def observe(self, agent):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        observation, mask = self._core.observation(self._index[agent])
        return {"observation": observation, "action_mask": mask}

    def render(self):
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return super().render()

    def state(self):
        if not self._has_reset:
            EnvLogger.error_state_before_reset()
        return super().state()

    def agent_iter(self, max_iter=2**63):
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderedIterable(self, max_iter)


class _OrderedIterable(AECIterable):
    def __iter__(self):
        return _OrderedIterator(self.env, self.max_iter)


class _OrderedIterator:
    """`agent_iter()`'s iterator with the check that each agent was stepped."""

    __slots__ = ("env", "left")

    def __init__(self, env, max_iter):
        self.env = env
        self.left = max_iter

    def __iter__(self):
        return self

    def __next__(self):
        env = self.env
        if not env.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return env.agent_selection
