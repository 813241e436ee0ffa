"""Deck construction checks (duel.md §4 checks 1-10, D20, D26): every problem, in check order."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.errors import ConfigProblem
from engine.rulesets.duel.codes import Code
from engine.rulesets.duel.data import CATALOG

SECTIONS = ("main", "extra", "side")
MAIN_MIN, MAIN_MAX, EXTRA_MAX, SIDE_MAX = 40, 60, 15, 15


def deck_problems(seat: int, deck: Any) -> list[ConfigProblem]:
    """Checks 1-2 are fatal for the seat; checks 3-10 are all reported, in check-number order."""
    if not isinstance(deck, dict):
        return [ConfigProblem(Code.DECK_MALFORMED, seat, section="deck")]
    malformed = [key for key in SECTIONS if not _is_list_of_str(deck.get(key, [] if key != "main" else None))]
    malformed += sorted(key for key in deck if key not in SECTIONS)
    if malformed:
        return [ConfigProblem(Code.DECK_MALFORMED, seat, section=key) for key in malformed]
    lists = {key: list(deck.get(key, [])) for key in SECTIONS}
    ordered = [(key, card_id) for key in SECTIONS for card_id in lists[key]]
    unknown = _distinct(card_id for _, card_id in ordered if card_id not in CATALOG)
    if unknown:
        return [ConfigProblem(Code.UNKNOWN_CARD, seat, card_id=card_id) for card_id in unknown]
    return _content_problems(seat, lists, ordered)


def _content_problems(seat: int, lists: dict[str, list[str]], ordered: list[tuple[str, str]]) -> list[ConfigProblem]:
    problems: list[ConfigProblem] = []
    unsupported: dict[str, str] = {}
    for section, card_id in ordered:
        if CATALOG[card_id].monster_kind in ("synchro", "xyz"):
            unsupported.setdefault(card_id, section)  # D20: never playable, reported once
    problems += [
        ConfigProblem(Code.EXTRA_DECK_TYPE_UNSUPPORTED, seat, card_id=c, section=s) for c, s in unsupported.items()
    ]
    sizes = (
        (Code.MAIN_DECK_TOO_SMALL, len(lists["main"]) < MAIN_MIN, "main"),
        (Code.MAIN_DECK_TOO_LARGE, len(lists["main"]) > MAIN_MAX, "main"),
        (Code.EXTRA_DECK_TOO_LARGE, len(lists["extra"]) > EXTRA_MAX, "extra"),
        (Code.SIDE_DECK_TOO_LARGE, len(lists["side"]) > SIDE_MAX, "side"),
    )
    problems += [ConfigProblem(code, seat, count=len(lists[key])) for code, failed, key in sizes if failed]
    fusion_in_main = _distinct(c for c in lists["main"] if CATALOG[c].monster_kind == "fusion")
    problems += [ConfigProblem(Code.EXTRA_CARD_IN_MAIN_DECK, seat, card_id=c) for c in fusion_in_main]
    non_fusion = _distinct(c for c in lists["extra"] if CATALOG[c].monster_kind != "fusion" and c not in unsupported)
    problems += [ConfigProblem(Code.MAIN_CARD_IN_EXTRA_DECK, seat, card_id=c) for c in non_fusion]
    copies = Counter(card_id for _, card_id in ordered)
    for card_id in _distinct(card_id for _, card_id in ordered):
        if copies[card_id] > CATALOG[card_id].limit:
            limit = CATALOG[card_id].limit
            problems.append(
                ConfigProblem(Code.TOO_MANY_COPIES, seat, card_id=card_id, count=copies[card_id], limit=limit)
            )
    return problems


def _is_list_of_str(value: Any) -> bool:
    return isinstance(value, list | tuple) and all(isinstance(x, str) for x in value)


def _distinct(card_ids: Any) -> list[str]:
    """Each id once, in first-appearance order."""
    return list(dict.fromkeys(card_ids))
