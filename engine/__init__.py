"""The pure rules engine: the ruleset contract, the match RNG, rejections, bots and self-play.

No I/O, no asyncio, no clock, no database (ARCHITECTURE.md). Rulesets live in ``engine.rulesets.<id>``.
"""

from engine.contract import ADMIN, CONCEDE, SYSTEM, Actor, Deadline, Outcome, Ruleset, Viewer
from engine.errors import ConfigError, Rejected
from engine.rng import Rng, ScriptedRng

__all__ = [
    "ADMIN",
    "CONCEDE",
    "SYSTEM",
    "Actor",
    "ConfigError",
    "Deadline",
    "Outcome",
    "Rejected",
    "Rng",
    "Ruleset",
    "ScriptedRng",
    "Viewer",
]
