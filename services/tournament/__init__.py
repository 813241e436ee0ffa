"""Tournaments on duelhall (docs/tournaments.md): Swiss with a top cut, single elimination, round robin.

Pure modules (no I/O): ``events`` (the stream's event types), ``state`` (the fold); the commands to events,
``registration`` (creation, registration, check-in, drops), ``rounds`` (start, pairing, repairing, the cut:
every draw from the seed) and ``series`` (best-of series, side decks, results recorded, entered and
corrected), ``edits`` (the organiser's pairing edits) and ``timing`` (the chooser's and the round's deadlines
and what their expiry decides), with ``checks`` (the lookups and checks they share); ``seeding`` (round 1 and
brackets from seeds and ratings), ``placings`` (final places after the cut); ``ranking`` (records, standings and Swiss
entrants of a folded tournament), ``pairing`` (Swiss pairing by maximum-weight matching), ``brackets`` (cut
seeding, elimination and round robin schedules), ``standings`` (official tiebreakers in exact fractions).
With I/O: ``manager`` (the stream in the event store, the games' matches), ``results`` (results from the
match lifecycle), ``listing`` (the tournament list for ``ListTournaments``), ``clocks`` (the deadlines'
alarms), ``feed`` (``WatchTournament``: the stream with typed notices, woken by any instance's appends),
``servicer`` and ``convert`` (``TournamentService``), ``wiring`` (onto a server).

Each command takes the folded tournament and returns the events to append, or raises ``InvalidArgument`` (a
malformed request) or ``Refused`` (not allowed in the tournament's current state) with a reason code listed
in docs/tournaments.md.
"""
