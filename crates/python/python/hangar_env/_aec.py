"""What both PettingZoo environments share: agent bookkeeping over a Rust core."""

import numpy as np
from pettingzoo import AECEnv

from ._options import seed_value


class CoreEnv(AECEnv):
    """An AEC env whose game lives in `self._core` (a `FlightCore` or `JungleCore`).

    Subclasses set `possible_agents`, the spaces and `_core`, and may override
    `_make_core(pairs)` to rebuild the core when `reset(options=...)` changes rule options.
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
        index = self._index[agent]
        done = self.terminations.get(agent, True) or self.truncations.get(agent, True)
        if index == self._core.to_move() and not done:
            mask = self._core.mask()
        else:
            mask = np.zeros(self._actions, dtype=np.int8)
        return {"observation": self._core.observe(index), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0.0
        self._core.step(int(action))
        self._after_step()

    def _after_step(self):
        """Marks the end of the game and selects the agent to move."""
        core = self._core
        if core.terminated() or self._truncated():
            rewards = core.rewards()
            ended = self.truncations if self._truncated() else self.terminations
            for agent in self.agents:
                self.rewards[agent] = float(rewards[self._index[agent]])
                ended[agent] = True
        self.agent_selection = self.possible_agents[core.to_move()]
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
