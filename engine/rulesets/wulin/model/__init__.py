"""Wulin data, no functions: configuration and state (``state``), commands, events and views
(docs/rulesets/wulin.md §3, §7, §11). The functions live in rules/, resolve.py, evolve.py and view.py."""

from engine.rulesets.wulin.model.commands import Command
from engine.rulesets.wulin.model.events import Event
from engine.rulesets.wulin.model.state import Config, Options, State
from engine.rulesets.wulin.model.views import View

__all__ = ["Command", "Config", "Event", "Options", "State", "View"]
