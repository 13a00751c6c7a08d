"""Aeroplane Chess (飞行棋) and Jungle (斗兽棋) as PettingZoo environments over Hangar's Rust
engines, and vector environments that step many games per call.

    from hangar_env import flight_v0, jungle_v0, FlightVectorEnv, JungleVectorEnv, bot, vs_bot

See docs/python.md for the observations, actions and rewards.
"""

from . import flight_v0, jungle_v0
from ._core import flight_replay, jungle_perft
from .bots import Bot, bot
from .single import VsBot, vs_bot
from .vector import FlightVectorEnv, JungleVectorEnv

__all__ = [
    "Bot",
    "bot",
    "VsBot",
    "vs_bot",
    "flight_v0",
    "jungle_v0",
    "FlightVectorEnv",
    "JungleVectorEnv",
    "flight_replay",
    "jungle_perft",
]
