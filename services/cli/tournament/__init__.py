"""``duelhall tournament VERB``: a verb for every ``TournamentService`` call, against a server.

Organiser commands send the admin token (``--admin-token``, default ``$DUELHALL_ADMIN_TOKEN``); a player's
commands send the player's token (``--token``, default ``$DUELHALL_PLAYER_TOKEN``), or the admin token when
only that is given. ``--json`` prints the server's reply as proto3 JSON (``watch``: one line per entry). A
refusal prints the server's one-sentence message and its reason, and exits 1.
"""

from services.cli.tournament.verbs import arguments

__all__ = ["arguments"]
