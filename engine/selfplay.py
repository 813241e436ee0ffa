"""Bot-versus-bot matches in process: the engine alone, no store, no clock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from engine.bots import Bot
from engine.contract import CONCEDE, SYSTEM, Outcome, Ruleset
from engine.match import Match, create, decide_command, fold, type_tag


class Played(msgspec.Struct, frozen=True):
    """One finished (or abandoned) self-play match."""

    match: Match
    events: list[Any]
    commands: int
    outcome: Outcome | None


def next_move(ruleset: Ruleset, state: Any, bots: Sequence[Bot]) -> tuple[Any, Any]:
    """(actor, command) for the next step: a bot of a seat the game waits on, else the clock's timeout."""
    seats = ruleset.to_act(state)
    if not seats:
        deadline = ruleset.deadline(state)
        if deadline is None:
            raise RuntimeError(f"{ruleset.id}: nobody to act and no deadline in a running match")
        return SYSTEM, deadline.timeout
    seat = seats[0]
    # Bots never concede: a uniform random bot would otherwise end most games early.
    legal = [c for c in ruleset.legal_commands(state, seat) if type_tag(c) != CONCEDE]
    return seat, bots[seat].choose(ruleset.view(state, seat), legal)


def play(
    ruleset: Ruleset,
    config_data: Any,
    seat_names: Sequence[str],
    seed: bytes,
    bots: Sequence[Bot],
    max_commands: int = 20_000,
) -> Played:
    """Plays one match to its outcome (or ``max_commands``), deciding each command on its own RNG stream."""
    events = create(ruleset, config_data, seat_names, seed)
    match = fold(ruleset, events)
    commands = 0
    while ruleset.outcome(match.state) is None and commands < max_commands:
        actor, command = next_move(ruleset, match.state, bots)
        decided = decide_command(ruleset, match, actor, command, seed)
        match = decided.match
        events.extend(decided.events)
        commands += 1
    return Played(match=match, events=events, commands=commands, outcome=ruleset.outcome(match.state))
