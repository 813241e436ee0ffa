"""Commands and their checks (duel.md §7, §9, §10): ``decide``, ``legal_commands`` and the clock.

One module per command family; ``decide.check`` is the single source of legality.
"""
