"""voidlink data, no functions: configuration and state (``state``), commands, events and views
(docs/rulesets/voidlink.md §3-§5, §7, §11). The functions live in rules.py, resolve.py, evolve.py and view.py."""

from engine.rulesets.voidlink.model.commands import Command
from engine.rulesets.voidlink.model.events import Event
from engine.rulesets.voidlink.model.state import Config, Options, State
from engine.rulesets.voidlink.model.views import View

__all__ = ["Command", "Config", "Event", "Options", "State", "View"]
