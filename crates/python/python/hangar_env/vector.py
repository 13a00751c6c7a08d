"""Vector environments: N games stepped per call in Rust, across cores, with the GIL released.

    venv = FlightVectorEnv(256, players=4, seed=0)
    obs, masks, to_move = venv.reset()
    obs, masks, rewards, terminated, truncated, to_move = venv.step(actions)

Every array is written in place: `step` returns the env's own buffers (copy what you keep),
`step_into` fills buffers the caller owns. Observations and masks are those of each game's
agent to move; `rewards[i, a]` is agent `a`'s reward in game `i` from this step. A game that
ends is started again at once (its `terminated`/`truncated` flag is set for that step and
the observation is already the new game's): episode k of game i is the single env's game
from seed `seeds[i] + k * num_envs`.
"""

import numpy as np

from ._core import FlightCore, FlightVector, JungleCore, JungleVector
from ._options import option_pairs, seed_value
from .flight_v0 import OPTIONS as FLIGHT_OPTIONS
from .flight_v0 import position_text
from .jungle_v0 import OPTIONS as JUNGLE_OPTIONS


class _VectorEnv:
    """Buffers and the calls shared by both games."""

    def _allocate(self, obs_shape, agents, actions):
        n = self.num_envs
        self.obs = np.zeros((n, *obs_shape), dtype=self.obs_dtype)
        self.masks = np.zeros((n, actions), dtype=np.uint8)
        self.rewards = np.zeros((n, agents), dtype=np.float32)
        self.terminated = np.zeros(n, dtype=bool)
        self.truncated = np.zeros(n, dtype=bool)
        self.to_move = np.zeros(n, dtype=np.int32)

    def _buffers(self):
        return self.obs, self.masks, self.rewards, self.terminated, self.truncated, self.to_move

    def reset(self, seed=None):
        """Starts game i from seed `seed + i`; returns (obs, masks, to_move)."""
        base = seed_value(seed)
        seeds = (np.arange(self.num_envs, dtype=np.uint64) + np.uint64(base)).astype(np.uint64)
        self._core.reset(seeds, *self._buffers())
        return self.obs, self.masks, self.to_move

    def step(self, actions):
        """Plays one action per game; returns (obs, masks, rewards, terminated, truncated,
        to_move), the env's own buffers. Raises ValueError (stepping nothing) if an action is
        masked out."""
        self._core.step(np.ascontiguousarray(actions, dtype=np.int64), *self._buffers())
        return self._buffers()

    def step_into(self, actions, obs, masks, rewards, terminated, truncated, to_move):
        """`step` writing into caller-owned C-contiguous buffers of the same shapes and dtypes
        as the env's (float32/uint8 obs, uint8 masks, float32 rewards, bool flags, int32)."""
        self._core.step(np.ascontiguousarray(actions, dtype=np.int64), obs, masks, rewards, terminated, truncated, to_move)


class FlightVectorEnv(_VectorEnv):
    """N flight games: observations float32 (N, 50), masks (N, 7), rewards (N, players).
    `position` (the JSON position of `hangar rules flight`, as `flight_v0.env` takes it)
    starts every game from there."""

    obs_dtype = np.float32

    def __init__(self, num_envs, players=None, preset=None, seed=0, num_threads=0, position=None, **options):
        unknown = set(options) - set(FLIGHT_OPTIONS)
        if unknown:
            raise TypeError(f"unknown flight options {sorted(unknown)}")
        self.num_envs = int(num_envs)
        seeds = [(seed_value(seed) + i) % 2**64 for i in range(self.num_envs)]
        players = None if players is None else int(players)
        self._core = FlightVector(
            seeds, players, preset, option_pairs(options), int(num_threads), position_text(position)
        )
        self.players = self._core.agents()
        self._allocate((FlightCore.OBS_LEN,), self.players, FlightCore.ACTIONS)
        self.reset(seed_value(seed))


class JungleVectorEnv(_VectorEnv):
    """N Jungle games: observations uint8 (N, 9, 7, 16), masks (N, 252), rewards (N, 2).
    `position` (position text, as `jungle_v0.env` takes it) starts every game from there."""

    obs_dtype = np.uint8

    def __init__(self, num_envs, seed=0, num_threads=0, position=None, **options):
        unknown = set(options) - set(JUNGLE_OPTIONS)
        if unknown:
            raise TypeError(f"unknown jungle options {sorted(unknown)}")
        self.num_envs = int(num_envs)
        seeds = [(seed_value(seed) + i) % 2**64 for i in range(self.num_envs)]
        self._core = JungleVector(seeds, option_pairs(options), int(num_threads), position)
        self._allocate((9, 7, 16), 2, JungleCore.ACTIONS)
        self.reset(seed_value(seed))
