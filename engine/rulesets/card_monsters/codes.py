"""Every rejection and configuration code of card_monsters, in the order of card_monsters.md (§4, §7)."""

from __future__ import annotations

from enum import StrEnum

from engine import errors


class Code(StrEnum):
    """Stable UPPER_SNAKE reasons; the engine-wide ones share the values in ``engine.errors``."""

    # §4 deck and option checks, in check order
    PLAYER_COUNT_INVALID = "PLAYER_COUNT_INVALID"
    UNKNOWN_OPTION = "UNKNOWN_OPTION"
    OPTION_OUT_OF_RANGE = "OPTION_OUT_OF_RANGE"
    DECK_UNKNOWN_PRESET = "DECK_UNKNOWN_PRESET"
    DECK_UNKNOWN_CARD = "DECK_UNKNOWN_CARD"
    DECK_TOO_MANY_MONSTERS = "DECK_TOO_MANY_MONSTERS"
    DECK_TOO_MANY_ITEMS = "DECK_TOO_MANY_ITEMS"
    DECK_NO_MONSTERS = "DECK_NO_MONSTERS"
    DECK_TOO_MANY_COPIES = "DECK_TOO_MANY_COPIES"
    # configuration data that is not even shaped like §4 (not a list of seats, a deck of non-strings)
    BAD_CONFIG = errors.BAD_CONFIG
    # §7 common checks
    UNKNOWN_COMMAND = errors.UNKNOWN_COMMAND
    MATCH_OVER = errors.MATCH_OVER
    NOT_YOUR_TURN = errors.NOT_YOUR_TURN
    BAD_FIELDS = errors.BAD_FIELDS
    # §7 command preconditions, in table order
    CARD_NOT_IN_HAND = "CARD_NOT_IN_HAND"
    NOT_A_MONSTER = "NOT_A_MONSTER"
    FIELD_FULL = "FIELD_FULL"
    NOT_ENOUGH_CRYSTALS = "NOT_ENOUGH_CRYSTALS"
    NOT_EQUIPMENT = "NOT_EQUIPMENT"
    POSITION_EMPTY = "POSITION_EMPTY"
    COLOUR_MISMATCH = "COLOUR_MISMATCH"
    NOT_CONSUMABLE = "NOT_CONSUMABLE"
    INVALID_TARGET = "INVALID_TARGET"
    SACRIFICE_ALREADY_USED = "SACRIFICE_ALREADY_USED"
    NOT_SYSTEM = errors.NOT_SYSTEM
    TIMEOUT_STALE = "TIMEOUT_STALE"
