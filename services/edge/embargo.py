"""Replays withheld from all but the admin token while a tournament runs: a player must not scout an opponent's
registered deck in the replay of an earlier game. The tournament package says which matches are under embargo
(``services/tournament/embargo.py``); the edge knows no tournament, only this face."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


class Embargo(Protocol):
    async def holds(self, labels: Mapping[str, str]) -> bool:
        """Whether the replay of a stored match with these labels is withheld from all but the admin token."""
        ...
