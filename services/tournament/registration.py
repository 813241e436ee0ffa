"""A tournament's creation and its players (pure commands): create, register, check in, drop and reinstate,
with the limits they hold a tournament to (docs/tournaments.md); and the publication of its replays."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.contract import Ruleset
from engine.errors import ConfigError
from services.core import limits
from services.core.errors import InvalidArgument, Refused
from services.matches import checked_delay, split_grace
from services.tournament import checks
from services.tournament.events import (
    FORMATS,
    PRESETS,
    SINGLE_ELIMINATION,
    SWISS,
    Event,
    PlayerCheckedIn,
    PlayerDropped,
    PlayerRegistered,
    PlayerReinstated,
    PlayerTokenReissued,
    ReplaysPublished,
    TournamentCreated,
)
from services.tournament.state import Tournament
from services.tournament.timing import MAX_CHOOSER_SECONDS

BEST_OF = (1, 3, 5)
MAX_ROUNDS = 64
"""Swiss or round robin rounds a tournament may ask for: more than any Swiss needs (1,024 players: 10); 0 leaves
them to the player count, a whole round robin included. The start caps them at a whole round robin."""
MAX_CUT = 256
"""Players in a top cut: at most eight elimination rounds."""
MAX_PLAYERS = 1024
"""Players registered, dropped ones included: every Tournament reply and standings call lists them all, and a
pairing decision takes 0.35 s at 1,024 (bench/pairing.py) but some 7 s at 4,096, on the event loop."""
MAX_ROUND_MINUTES = 24 * 60
"""A round's clock for the organiser: a day is longer than any round, and the value is shown in every reply."""
SEED_BYTES = 32
"""The seed of the pairings' draws, which every draw hashes."""
DECKLISTS = ("private", "open")
DECK_RULES = ("any", "required", "fixed")


MAX_SEED = MAX_PLAYERS
MAX_RATING = 100_000
"""Ratings the organiser gives: more than any rating scale in use (Elo tops out near 3,000)."""


class Timing(msgspec.Struct, frozen=True):
    """A tournament's chooser deadline (services/tournament/timing.py) and its labels for ``ListTournaments``."""

    chooser_seconds: int = 0
    labels: dict[str, str] = {}


class Audience(msgspec.Struct, frozen=True):
    """Who sees a tournament's games and decks while it runs: its games' spectator policy (checked by the
    caller, which reads it off the wire) and caster delay, and whether a table's players see each other's deck."""

    spectators: str = "public"
    caster_delay_seconds: int = 0
    decklists: str = "private"


class DeckRule(msgspec.Struct, frozen=True):
    """What a registration must bring: ``any`` deck (none: the ruleset's first preset), a ``required`` one, or
    nothing but the ``fixed`` deck every player plays."""

    rule: str = "any"
    fixed: dict[str, Any] = {}


def create(
    tournament_id: str,
    name: str,
    ruleset: Ruleset,
    format: str,
    rounds: int,
    cut: int,
    best_of: int,
    tiebreak: str,
    round_minutes: int,
    seed: bytes,
    options: dict[str, Any],
    audience: Audience = Audience(),
    timing: Timing = Timing(),
    decks: DeckRule = DeckRule(),
) -> list[Event]:
    if not name.strip():
        raise InvalidArgument("the tournament needs a name", reason="NAME_MISSING")
    limits.name(name, "the tournament's name", "NAME_INVALID")
    if format not in FORMATS:
        raise InvalidArgument(f"format is one of {', '.join(FORMATS)}, not {format!r}", reason="FORMAT_INVALID")
    if tiebreak not in PRESETS:
        raise InvalidArgument(f"tiebreak is one of {', '.join(PRESETS)}, not {tiebreak!r}", reason="TIEBREAK_INVALID")
    if best_of not in BEST_OF:
        raise InvalidArgument(f"best_of is 1, 3 or 5, not {best_of}", reason="BEST_OF_INVALID")
    if (
        not 0 <= rounds <= MAX_ROUNDS
        or not 0 <= round_minutes <= MAX_ROUND_MINUTES
        or (format == SINGLE_ELIMINATION and rounds)
    ):
        raise InvalidArgument(
            f"rounds are 0 (automatic) to {MAX_ROUNDS} and round_minutes 0 to {MAX_ROUND_MINUTES}; "
            "single elimination sets its own rounds",
            reason="ROUNDS_INVALID",
        )
    if cut and (format != SWISS or not 2 <= cut <= MAX_CUT or cut & (cut - 1)):
        raise InvalidArgument(
            f"a top cut follows Swiss and has 2, 4, 8, ... up to {MAX_CUT} players", reason="CUT_INVALID"
        )
    if len(seed) != SEED_BYTES:
        raise InvalidArgument(f"the seed is {SEED_BYTES} bytes, not {len(seed)}", reason="SEED_INVALID")
    if audience.decklists not in DECKLISTS:
        raise InvalidArgument(f"decklists are private or open, not {audience.decklists!r}", reason="DECKLISTS_INVALID")
    checked_delay(audience.caster_delay_seconds)
    split_grace(options)  # every game's disconnect grace, checked before any game is created
    if not 0 <= timing.chooser_seconds <= MAX_CHOOSER_SECONDS:
        raise InvalidArgument(
            f"chooser_seconds is 0 (no deadline) to {MAX_CHOOSER_SECONDS}", reason="CHOOSER_SECONDS_INVALID"
        )
    labels = limits.labels(dict(timing.labels))
    if ruleset.min_seats > 2:
        raise InvalidArgument(f"{ruleset.id} is not played by two players", reason="RULESET_NOT_TWO_PLAYER")
    if decks.rule not in DECK_RULES or (decks.rule == "fixed") != bool(decks.fixed):
        raise InvalidArgument(
            f"deck_rule is one of {', '.join(DECK_RULES)}, not {decks.rule!r}; a fixed deck needs fixed_deck_json, "
            "and only it",
            reason="DECK_RULE_INVALID",
        )
    if decks.fixed:
        checks.validate_deck(ruleset, decks.fixed, options)
    return [
        TournamentCreated(
            tournament_id=tournament_id,
            name=name,
            ruleset=ruleset.id,
            format=format,
            rounds=rounds,
            cut=cut,
            best_of=best_of,
            tiebreak=tiebreak,
            round_minutes=round_minutes,
            seed=seed.hex(),
            options=options,
            ruleset_version=ruleset.version,
            spectators=audience.spectators,
            caster_delay_seconds=audience.caster_delay_seconds,
            decklists=audience.decklists,
            chooser_seconds=timing.chooser_seconds,
            labels=labels,
            deck_rule=decks.rule,
            fixed_deck=decks.fixed,
        )
    ]


def register(
    state: Tournament, ruleset: Ruleset, player: str, deck: dict[str, Any], seed: int = 0, rating: int = 0
) -> list[Event]:
    """A player with a deck, and optionally the organiser's seed (1 first) or rating (higher first), which order
    round 1 and an elimination bracket (services/tournament/seeding.py)."""
    checks.not_ended(state)
    if not player.strip():
        raise InvalidArgument("the player needs a name", reason="PLAYER_NAME_MISSING")
    limits.name(player, "a player's name", "PLAYER_NAME_INVALID")  # it becomes the name of a seat
    if player in state.players:
        raise Refused(f"{player!r} is already registered", reason="PLAYER_EXISTS", player=player)
    if state.started and (state.created.format != SWISS or state.cut_seeds or checks.swiss_over(state)):
        raise Refused("registration is closed", reason="REGISTRATION_CLOSED")
    if len(state.players) >= MAX_PLAYERS:
        raise Refused(
            f"the tournament is full: {MAX_PLAYERS} players", reason="TOURNAMENT_FULL", limit=str(MAX_PLAYERS)
        )
    if not 0 <= seed <= MAX_SEED or not 0 <= rating <= MAX_RATING:
        raise InvalidArgument(
            f"a seed is 0 (none) to {MAX_SEED} and a rating 0 (none) to {MAX_RATING}", reason="SEED_OR_RATING_INVALID"
        )
    if seed and any(p.seed == seed for p in state.players.values()):
        taken = next(p.name for p in state.players.values() if p.seed == seed)
        raise Refused(f"seed {seed} is {taken}'s", reason="SEED_TAKEN", player=taken)
    deck = _registered_deck(state, ruleset, deck)
    checks.validate_deck(ruleset, deck, state.created.options)
    return [PlayerRegistered(player=player, deck=deck, late=state.started, seed=seed, rating=rating)]


def _registered_deck(state: Tournament, ruleset: Ruleset, deck: dict[str, Any]) -> dict[str, Any]:
    """The deck the tournament's rule gives a registration. Without one, the ruleset's first preset: left to the
    ruleset, a seat without a deck plays that seat's default, so the player's deck would change with the seat."""
    created = state.created
    if created.deck_rule == "fixed":
        if deck and deck != created.fixed_deck:
            raise InvalidArgument("every player plays the tournament's fixed deck", reason="DECK_FIXED")
        return created.fixed_deck
    if "deck" in deck:
        return deck
    if created.deck_rule == "required":
        raise InvalidArgument("this tournament needs a deck at registration", reason="DECK_REQUIRED")
    first = next(iter(ruleset.presets), None)
    if first is None:
        return deck
    chosen = {**deck, "deck": first}
    try:
        checks.validate_deck(ruleset, chosen, created.options)
    except ConfigError:
        return deck  # seats bring no deck (aq plays from the box): nothing changes with the seat
    return chosen


def check_in(state: Tournament, player: str) -> list[Event]:
    checks.player(state, player)
    if state.started:
        raise Refused("the tournament has started", reason="TOURNAMENT_STARTED")
    return [] if state.players[player].checked_in else [PlayerCheckedIn(player=player)]


def drop(state: Tournament, player: str, by: str, why: str) -> list[Event]:
    checks.bounded(by, why)
    checks.not_ended(state)
    if checks.player(state, player).dropped:
        raise Refused(f"{player!r} has already dropped", reason="PLAYER_DROPPED", player=player)
    return [PlayerDropped(player=player, after_round=len(state.rounds), by=by, why=why)]


def reinstate(state: Tournament, player: str, by: str, why: str) -> list[Event]:
    checks.bounded(by, why)
    checks.not_ended(state)
    if not checks.player(state, player).dropped:
        raise Refused(f"{player!r} has not dropped", reason="PLAYER_NOT_DROPPED", player=player)
    if state.cut_seeds or (state.started and state.created.format != SWISS):
        raise Refused("players come back only during Swiss rounds", reason="REGISTRATION_CLOSED")
    return [PlayerReinstated(player=player, by=by, why=why)]


def reissue(state: Tournament, player: str, by: str, why: str) -> list[Event]:
    """A new token for a player (the caller keeps its hash); the old one stops working."""
    checks.audited(by, why)
    checks.player(state, player)
    return [PlayerTokenReissued(player=player, by=by, why=why)]


def publish(state: Tournament, by: str, why: str) -> list[Event]:
    """The replays of the tournament's matches opened to everyone before it ends (audited)."""
    checks.audited(by, why)
    checks.not_ended(state)
    if state.published:
        raise Refused("the replays are already published", reason="REPLAYS_PUBLISHED")
    return [ReplaysPublished(by=by, why=why)]
