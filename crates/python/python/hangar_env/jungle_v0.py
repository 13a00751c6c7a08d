"""`jungle_v0`: Jungle (斗兽棋) as a PettingZoo AEC environment.

    from hangar_env import jungle_v0
    env = jungle_v0.env(order="wolf-over-dog", leopard_leaps=True)

`player_0` is red and moves first, `player_1` yellow. Rule options are keyword arguments:
`order` ("dog-over-wolf" or "wolf-over-dog"), `elephant_takes_rat`, `leopard_leaps`. A win is
+1 / −1; 200 plies without a capture (J-DRAW) truncate the game with 0 each.
"""

import numpy as np
from gymnasium import spaces

from . import render as _render
from ._aec import CoreEnv, OrderEnforced
from ._core import JungleCore
from ._options import option_pairs

OPTIONS = ("order", "elephant_takes_rat", "leopard_leaps")


def env(**kwargs):
    """The environment with the order checks of PettingZoo's `OrderEnforcingWrapper` (the
    recommended entry point); `raw_env` takes the same arguments."""
    return ordered_env(**kwargs)


class raw_env(CoreEnv):
    """Jungle over the Rust engine; see the module and docs/python.md."""

    metadata = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "jungle_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, render_mode=None, position=None, **options):
        super().__init__(render_mode)
        unknown = set(options) - set(OPTIONS)
        if unknown:
            raise TypeError(f"unknown jungle options {sorted(unknown)}; known: {OPTIONS}")
        self._pairs = option_pairs(options)
        self._position = position
        self._core = JungleCore(self._pairs, position)
        self._actions = JungleCore.ACTIONS
        self.possible_agents = ["player_0", "player_1"]
        self._index = {"player_0": 0, "player_1": 1}
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (9, 7, 16), np.uint8),
                "action_mask": spaces.Box(0, 1, (self._actions,), np.int8),
            }
        )
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self._actions) for a in self.possible_agents}

    def _reconfigure(self, options):
        """`reset(options={...})` changes rule options for this and later games; other keys
        are ignored, as PettingZoo's API test requires."""
        options = {k: v for k, v in options.items() if k in OPTIONS}
        if not options:
            return
        self._pairs = self._pairs + option_pairs(options)
        self._core = JungleCore(self._pairs, self._position)

    def _truncated(self):
        return self._core.truncated()

    def legal_moves(self):
        """The allowed moves in notation with their actions: [("e3e4", action), ...]."""
        return self._core.legal_moves()

    def _rgb(self):
        return _render.jungle_rgb(self._core)


class ordered_env(OrderEnforced, raw_env):
    """`raw_env` with PettingZoo's order checks built in: what `env()` returns."""
