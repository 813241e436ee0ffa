"""Engine errors.

Rejected        a rule refused a command (code = the spec's UPPER_SNAKE reason)
ConfigError     a match configuration is invalid (code = the spec's deck/option code)
ConfigProblem   one failed configuration check, for rules that report every problem before raising
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

# Engine-wide rejection codes ; rulesets add their own.
MATCH_OVER = "MATCH_OVER"
NOT_YOUR_TURN = "NOT_YOUR_TURN"
BAD_FIELDS = "BAD_FIELDS"
UNKNOWN_COMMAND = "UNKNOWN_COMMAND"
NOT_SYSTEM = "NOT_SYSTEM"
NOT_ADMIN = "NOT_ADMIN"
BAD_CONFIG = "BAD_CONFIG"

# Codes that mean the command itself is malformed rather than refused by the rules.
MALFORMED_CODES = frozenset({BAD_FIELDS, UNKNOWN_COMMAND})


class Rejected(Exception):
    """A command refused by the rules, with a stable reason code and a short message for the sender.

    ``legal_commands`` raises and catches one for every refused candidate, so it has no Python-level
    ``__init__`` (that alone would triple the cost): the arguments stay in ``args`` until read.
    """

    if TYPE_CHECKING:

        def __init__(self, code: str, message: str = "") -> None: ...

    @property
    def code(self) -> str:
        code: str = self.args[0]
        return code

    @property
    def message(self) -> str:
        """The sentence for the sender; the code itself when the rule gave none."""
        message: str = self.args[1] if len(self.args) > 1 and self.args[1] else self.args[0]
        return message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}" if self.message != self.code else self.code


class ConfigError(Exception):
    """An invalid match configuration: the spec's code, the seat it concerns (or None) and a detail."""

    def __init__(self, code: str, seat: int | None = None, detail: str = "") -> None:
        where = f" (seat {seat})" if seat is not None else ""
        super().__init__(f"{code}{where}: {detail}" if detail else f"{code}{where}")
        self.code = code
        self.seat = seat
        self.detail = detail


class ConfigProblem(msgspec.Struct, frozen=True):
    """One failed configuration check: the rules' code, the seat it concerns (None for the match's own
    settings) and the details the rules name; a detail a game does not report stays None."""

    code: str
    seat: int | None = None
    detail: str | None = None
    """A sentence or value for the sender."""
    section: str | None = None
    card_id: str | None = None
    count: int | None = None
    limit: int | None = None
    key: str | None = None
    """An option's name."""
