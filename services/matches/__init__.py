"""The match domain: hot matches and their command path, loading, ends, turn timers, the watch feed, seat
tokens. Other packages of the service with a domain of their own (tournaments) use it through this face only.
"""

from services.matches.caster import checked_delay
from services.matches.create_requests import claimed_match, create_once
from services.matches.creation import SeatEntry
from services.matches.grace import split as split_grace
from services.matches.loader import ruleset_for
from services.matches.manager import MatchManager
from services.matches.replies import Created
from services.matches.tokens import admin_asked, check_admin, is_admin, new_token, token_hash

__all__ = [
    "Created",
    "MatchManager",
    "SeatEntry",
    "admin_asked",
    "check_admin",
    "checked_delay",
    "claimed_match",
    "create_once",
    "is_admin",
    "new_token",
    "ruleset_for",
    "split_grace",
    "token_hash",
]
