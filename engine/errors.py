"""Engine errors.

    Rejected        a rule refused a command (code = the spec's UPPER_SNAKE reason)
    ConfigError     a match configuration is invalid (code = the spec's deck/option code)
"""

from __future__ import annotations

# Engine-wide rejection codes (STYLE.md §5); rulesets add their own.
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
    """A command refused by the rules, with a stable reason code and a short message for the sender."""

    def __init__(self, code: str, message: str = "", **details: str) -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message or code
        self.details = details


class ConfigError(Exception):
    """An invalid match configuration: the spec's code, the seat it concerns (or None) and a detail."""

    def __init__(self, code: str, seat: int | None = None, detail: str = "") -> None:
        where = f" (seat {seat})" if seat is not None else ""
        super().__init__(f"{code}{where}: {detail}" if detail else f"{code}{where}")
        self.code = code
        self.seat = seat
        self.detail = detail
