"""Tournaments on duelhall (docs/tournaments.md): Swiss with a top cut, single elimination, round robin.

Pure modules (no I/O): ``events`` (the stream's event types), ``state`` (the fold), ``decide`` (commands to
events, best-of series and side decks included), ``pairing`` (Swiss pairing by maximum-weight matching),
``brackets`` (cut seeding, elimination and round robin schedules), ``standings`` (official tiebreakers in
exact fractions). With I/O: ``manager`` (the stream in the event store, the games' matches), ``results``
(results from the match lifecycle), ``servicer`` and ``convert`` (``TournamentService``), ``wiring`` (onto a
server).
"""
