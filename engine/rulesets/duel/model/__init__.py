"""Duel data, no functions: configuration and state (``state``), commands, events and views (duel.md §3, §4,
§7, §11)."""
