"""Tournaments on duelhall (docs/tournaments.md): Swiss with a top cut, single elimination, round robin.

Pure modules (no I/O): ``events`` (the stream's event types), ``state`` (the fold), ``decide`` (commands to
events), ``pairing`` (Swiss pairing by maximum-weight matching), ``brackets`` (cut seeding, elimination and
round robin schedules), ``standings`` (official tiebreakers in exact fractions), ``series`` (best-of games,
side decks). With I/O: ``manager`` (the stream in the event store, matches), ``results`` (results from the
match lifecycle), ``servicer`` (``TournamentService``).
"""
