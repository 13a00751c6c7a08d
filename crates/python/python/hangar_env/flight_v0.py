"""`flight_v0`: Aeroplane Chess (飞行棋) for 2–4 players as a PettingZoo AEC environment.

    from hangar_env import flight_v0
    env = flight_v0.env(players=4, preset="improved", items=True)

Rule options are keyword arguments: `preset` ("traditional", the default, or "improved")
and every option of flight.md §9 (`takeoff`, `three_sixes`, `stacks`, `finish`, `play_on`,
`planes`, `teams`, `items`, `weather`), applied over the preset. The dice (and the item and
weather draws) come from the seed given to `reset`, in the order the engine's `Table` draws
them; with `explicit_chance=True` the env stops at each instead (`is_chance_node()`,
`chance_outcomes()`, `apply_chance(outcome)`), OpenSpiel-style.

`position=` (the JSON position of `hangar rules flight`, docs/flight-json.md, as text or a
dict) starts every game from that position under the options it carries; the agents are its
seated colours in seat order (red, yellow, blue, green).
"""

import json

import numpy as np
from gymnasium import spaces

from . import render as _render
from ._aec import CoreEnv, OrderEnforced
from ._core import FlightCore
from ._options import option_pairs

OPTIONS = ("takeoff", "three_sixes", "stacks", "finish", "play_on", "planes", "teams", "items", "weather")


def env(**kwargs):
    """The environment with the order checks of PettingZoo's `OrderEnforcingWrapper` (the
    recommended entry point); `raw_env` takes the same arguments."""
    return ordered_env(**kwargs)


def position_text(position):
    """A position given as JSON text or as a dict (None stays None)."""
    if position is None or isinstance(position, str):
        return position
    return json.dumps(position)


class raw_env(CoreEnv):
    """Aeroplane Chess over the Rust engine; see the module and docs/python.md."""

    metadata = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "flight_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self, players=None, preset=None, explicit_chance=False, render_mode=None, position=None, **options
    ):
        super().__init__(render_mode)
        unknown = set(options) - set(OPTIONS)
        if unknown:
            raise TypeError(f"unknown flight options {sorted(unknown)}; known: {OPTIONS}")
        self._preset = preset
        self._explicit = bool(explicit_chance)
        self._pairs = option_pairs(options)
        self._position = position_text(position)
        players = None if players is None else int(players)
        self._core = FlightCore(players, preset, self._pairs, self._explicit, 0, self._position)
        self._players = self._core.agents()
        self._actions = FlightCore.ACTIONS
        self.possible_agents = [f"player_{i}" for i in range(self._players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        observation = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 255.0, (FlightCore.OBS_LEN,), np.float32),
                "action_mask": spaces.Box(0, 1, (self._actions,), np.int8),
            }
        )
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self._actions) for a in self.possible_agents}

    def _reconfigure(self, options):
        """`reset(options={...})` changes rule options (not the player count) for this and later
        games; other keys are ignored, as PettingZoo's API test requires."""
        preset = options.get("preset", self._preset)
        options = {k: v for k, v in options.items() if k in OPTIONS}
        if preset == self._preset and not options:
            return
        if self._position is not None:
            raise ValueError("an env started from a position plays under the position's options")
        self._preset = preset
        self._pairs = self._pairs + option_pairs(options)
        self._core = FlightCore(self._players, preset, self._pairs, self._explicit, 0)

    def colours(self):
        """The colour of each agent in this game (drawn from the seed, F-D-SEATS)."""
        return dict(zip(self.possible_agents, self._core.colours()))

    def is_chance_node(self):
        """Whether a die roll or a draw is awaited from the caller (explicit chance only)."""
        return self._core.is_chance_node()

    def chance_outcomes(self):
        """[(outcome, probability)] of the awaited chance event: die values 1–6 or draw indexes."""
        return self._core.chance_outcomes()

    def apply_chance(self, outcome):
        """Settles the awaited chance event; play goes on to the next decision or chance node."""
        self._core.apply_chance(int(outcome))
        self._after_step()

    def record(self):
        """The game so far as the engine's `Record` JSON (replayable from the seed); a game
        started from a position has none (ValueError)."""
        return self._core.record_json()

    def position(self):
        """The current position as the JSON of `hangar rules flight` (text)."""
        return self._core.game_json()

    def _rgb(self):
        return _render.flight_rgb(self._core)


class ordered_env(OrderEnforced, raw_env):
    """`raw_env` with PettingZoo's order checks built in: what `env()` returns."""
