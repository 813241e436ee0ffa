"""The match domain: hot matches and their command path, loading, ends, turn timers, the watch feed, seat
tokens. Other packages of the service with a domain of their own (tournaments) use it through this face only.
"""

from services.matches.create_requests import create_once
from services.matches.manager import Created, MatchManager, SeatEntry, new_match_id, ruleset_for
from services.matches.tokens import check_admin, new_token, token_hash

__all__ = [
    "Created",
    "MatchManager",
    "SeatEntry",
    "check_admin",
    "create_once",
    "new_match_id",
    "new_token",
    "ruleset_for",
    "token_hash",
]
