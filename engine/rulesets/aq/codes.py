"""Every aq configuration and rejection code, in the spec's order (§4, §7, §10)."""

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


MESSAGES: dict[Code, str] = {
    Code.MATCH_OVER: "the match is over",
    Code.SEAT_CONCEDED: "this seat has conceded",
    Code.NOT_YOUR_PHASE: "it is not your phase",
    Code.WRONG_STEP: "that command is not allowed in the current step",
    Code.BAD_FIELDS: "the command's fields do not fit",
    Code.SKILL_ACTION_USED: "a skill action was already taken this phase",
    Code.CARD_NOT_IN_HAND: "that card is not in your hand",
    Code.LEARN_NO_SHARED_ATTRIBUTE: "the two cards share no attribute",
    Code.SKILL_DECK_EMPTY: "the skill deck is empty",
    Code.SKILL_NOT_HELD: "you do not hold that skill",
    Code.BAD_TARGET: "the target must be another seat",
    Code.CARD_NOT_PLAYABLE: "that card cannot be played now",
    Code.MUST_PLAY: "you hold a playable card and must play",
    Code.NOT_SYSTEM: "only the system sends timeouts",
    Code.TIMEOUT_STALE: "that phase is already over",
}
