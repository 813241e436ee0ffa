"""Duel data, no functions: configuration and state (``state``), commands, events and views (duel.md §3, §4,
§7, §11)."""

from engine.rulesets.duel.model.commands import Command
from engine.rulesets.duel.model.events import Event
from engine.rulesets.duel.model.state import Config, Options, State
from engine.rulesets.duel.model.views import View

__all__ = ["Command", "Config", "Event", "Options", "State", "View"]
