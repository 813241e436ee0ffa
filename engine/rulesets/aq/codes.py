"""Every aq configuration and rejection code, in the order of docs/rulesets/aq.md (§4, §7, §10)."""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    # §4 configuration, in check order
    PLAYER_COUNT_OUT_OF_RANGE = "PLAYER_COUNT_OUT_OF_RANGE"
    DECK_NOT_APPLICABLE = "DECK_NOT_APPLICABLE"
    UNKNOWN_OPTION = "UNKNOWN_OPTION"
    UNKNOWN_BOX = "UNKNOWN_BOX"
    OPTION_OUT_OF_RANGE = "OPTION_OUT_OF_RANGE"
    # §7 common preconditions, in check order
    UNKNOWN_COMMAND = "UNKNOWN_COMMAND"
    MATCH_OVER = "MATCH_OVER"
    SEAT_CONCEDED = "SEAT_CONCEDED"
    NOT_YOUR_PHASE = "NOT_YOUR_PHASE"
    WRONG_STEP = "WRONG_STEP"
    BAD_FIELDS = "BAD_FIELDS"
    # §7 command checks
    SKILL_ACTION_USED = "SKILL_ACTION_USED"
    CARD_NOT_IN_HAND = "CARD_NOT_IN_HAND"
    LEARN_NO_SHARED_ATTRIBUTE = "LEARN_NO_SHARED_ATTRIBUTE"
    SKILL_DECK_EMPTY = "SKILL_DECK_EMPTY"
    SKILL_NOT_HELD = "SKILL_NOT_HELD"
    BAD_TARGET = "BAD_TARGET"
    CARD_NOT_PLAYABLE = "CARD_NOT_PLAYABLE"
    MUST_PLAY = "MUST_PLAY"
    NOT_SYSTEM = "NOT_SYSTEM"
    TIMEOUT_STALE = "TIMEOUT_STALE"
