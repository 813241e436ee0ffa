"""The ruleset contract (ARCHITECTURE.md, The engine contract): what every ruleset package provides.

A ruleset is one ``Ruleset`` value holding its types and pure functions; the engine, the store and the
service only ever talk to a game through it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

import msgspec

from engine.options import defaults
from engine.rng import Rng

SYSTEM: Literal["system"] = "system"
ADMIN: Literal["admin"] = "admin"
Actor = int | Literal["system", "admin"]
"""A seat (0 .. n-1), the system (timeouts) or an admin (referee rulings)."""


def seat_of(actor: Actor) -> int:
    """The seat behind a seat-only command: the ruleset's ``precheck`` has already refused any other actor."""
    assert isinstance(actor, int)
    return actor


CONCEDE = "concede"
"""The tag every ruleset gives its concession command (bots never play it)."""

FORFEIT = "forfeit"
"""The tag every ruleset gives its system concession (``Ruleset.forfeit``)."""
ForfeitReason = Literal["disconnected"]
"""Why the system forfeits a seat: ``disconnected``, its player away past the match's disconnect grace."""
DISCONNECTED: ForfeitReason = "disconnected"

Viewer = int | None
"""A seat, or None for a spectator."""


class Outcome(msgspec.Struct, frozen=True):
    """How a match ended: winners and losers by seat, whether it was a draw, and the spec's reason."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    draw: bool
    reason: str

    @classmethod
    def two_seat(cls, winner: int | None, reason: str) -> Outcome:
        """A two-seat match's end: ``winner`` beat the other seat, or a draw when there is none."""
        if winner is None:
            return cls(winners=(), losers=(), draw=True, reason=reason)
        return cls(winners=(winner,), losers=(1 - winner,), draw=False, reason=reason)


class Deadline(msgspec.Struct, frozen=True):
    """Who is on the clock, for how long, and the system command to submit when it runs out.

    A deadline is identified by its seat and timeout command. ``pauses``: while another deadline runs, this
    one's budget stands still and later resumes with what was left (a turn clock paused by a decision),
    instead of starting afresh from the last event.
    """

    seat: int | None
    seconds: float
    timeout: Any
    pauses: bool = False


Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
"""Takes one event's JSON object from schema n of its type to schema n + 1 (docs/adding-a-ruleset.md,
Changing a ruleset): a pure reshaping, never a change of rules."""

SCHEMA_MARK = "@"
"""Separates an event type from its schema in the type as stored: ``CardPlayed@2``; schema 1 has no mark."""


def schema_type(tag: str, schema: int) -> str:
    """The type an event of this tag and schema is stored under: the bare tag at schema 1."""
    return tag if schema == 1 else f"{tag}{SCHEMA_MARK}{schema}"


class SpeedTarget(NamedTuple):
    """What ``bench/engine_speed.py`` should measure for a game on one core (None: no target set)."""

    commands_per_s: int | None = None
    """Self-play commands per second: decide, evolve, legal_commands and a random bot's choice."""
    fold_events_per_s: int | None = None
    """Events folded per second by ``evolve`` alone."""


class SearchTuning(NamedTuple):
    """The search bot's figures for one game (``engine/search``)."""

    rate: int = 400
    """Iterations per second of budget it makes without a clock (self-play, ``bench/bots.py``): what one idle core
    of the reference machine makes in this game, so that a reproducible iteration budget costs about the time it
    stands for (``bench/bots.py`` prints the iterations per processor second it is calibrated from)."""
    horizon: int | None = None
    """Commands a playout plays before the ruleset's ``evaluate`` scores the position (it needs one); None plays
    every playout to the end."""


def _neutral(view: Any, command: Any) -> float:
    """The greedy bot's preference where a ruleset states none: every legal command alike."""
    return 0.0


def _public(config: Any) -> Any:
    return config


@dataclass(frozen=True, kw_only=True)
class Ruleset:
    """One game: its identity, its msgspec types and the pure functions of the contract.

    Built with keywords; what most games do not customise has a default (``public_config``,
    ``greedy_score``) or is derived (``options`` from ``Options``, ``command_types`` from ``Command``).
    """

    id: str
    version: int
    title: str
    card_data_hash: str
    min_seats: int
    max_seats: int
    Config: type
    Options: type
    """The match options as a msgspec Struct whose field defaults are the spec's (``engine/options.py``)."""
    State: type
    Command: Any
    Event: Any
    View: type
    configure: Callable[[Any], Any]
    """Validate a JSON-like ``{"seats": [...], "options": {...}}``; returns Config or raises ConfigError."""
    initial: Callable[[Any], Any]
    """The state before the first setup event, from the configuration alone."""
    setup: Callable[[Any, Rng], Sequence[Any]]
    precheck: Callable[[Any, Actor, str], None]
    """The common checks that precede field decoding (MATCH_OVER, NOT_YOUR_TURN, ...) for a command type."""
    decide_folded: Callable[[Any, Actor, Any, Rng], tuple[Sequence[Any], Any]]
    """Events for a typed command and the state they lead to, or ``Rejected``; runs ``precheck`` itself.
    The state is the one its tape folded to while deciding (it must equal folding the events), so callers
    need not fold them a second time."""
    evolve: Callable[[Any, Any], Any]
    legal_commands: Callable[[Any, int], Sequence[Any]]
    """Exactly the commands ``decide`` accepts from the seat now, in the spec's canonical order."""
    to_act: Callable[[Any], tuple[int, ...]]
    """Seats the game is waiting on now (empty when only the clock or nobody can move)."""
    view: Callable[[Any, Viewer], Any]
    redact: Callable[[Any, Viewer], Any]
    deadline: Callable[[Any], Deadline | None]
    outcome: Callable[[Any], Outcome | None]
    hidden_cards: Callable[[Any, Viewer], Sequence[str]]
    """Instance ids whose identity the viewer may not learn; the leak tests look for them."""
    forfeit: Callable[[int, ForfeitReason], Any]
    """The system command that concedes for ``seat``, the end reason being ``reason``: ``decide`` accepts it from
    the system alone (so it is never among a seat's legal commands), whatever the concession options."""
    presets: dict[str, Any]
    """Starter decks (or boxes) by name, served by the API."""
    greedy_score: Callable[[Any, Any], float] = _neutral
    """One-ply preference of the greedy bot for a command, from the bot's view only."""
    determinize: Callable[[Any, int, random.Random], Any] | None = None
    """``determinize(view, seat, rng)``: a full state whose view for ``seat`` is ``view``, the cards it hides
    dealt at random from those the seat cannot account for (``engine/search/determinize.py``); the search bot
    plays on such samples. None for a game the search bot cannot play."""
    admin_commands: frozenset[str] = frozenset()
    """Command tags an admin (a referee) may submit, e.g. a ruling; empty for a game without admin commands."""
    concede_options: dict[str, Any] = field(default_factory=dict)
    """Options that make the concession command available, for a game whose spec makes conceding a match
    option that is off by default; empty when conceding is always allowed."""
    public_config: Callable[[Any], Any] = _public
    """The configuration as every viewer may see it (a Config with private parts, such as deck lists the spec
    hides, left empty). It goes into the public ``MatchCreated``; ``initial`` gets it, so a ruleset whose
    configuration has private parts carries them in its own setup events, redacted per viewer."""
    speed_target: SpeedTarget = SpeedTarget()
    """The benchmark figure the game is held to (``bench/engine_speed.py`` prints it beside the measured one)."""
    search: SearchTuning = SearchTuning()
    """How the search bot plays this game: its iteration rate and how far its playouts go."""
    evaluate: Callable[[Any, int], float] | None = None
    """``evaluate(view, seat)``: the seat's chance to win in [0, 1] judged from a spectator's view, where the
    search bot stops a playout (``SearchTuning.horizon``); None for a game whose playouts run to the end."""
    showcase_seats: int | None = None
    """The seat count the golden playthrough (``scripts/playthroughs.py``) plays, for a game whose rules show
    only above ``min_seats`` (aq's turn direction and skipped seats need three); None plays ``min_seats``."""
    upcasters: dict[str, tuple[Upcaster, ...]] = field(default_factory=dict)
    """Per event type (its tag), the upcasters from schema 1 on: the k-th takes schema k to k + 1, so a type's
    current schema is one more than its count. Empty while every event type is at schema 1."""
    options: dict[str, Any] = field(init=False)
    """Option defaults, served by the API."""
    command_types: dict[str, type] = field(init=False)
    """Command classes by their tag (the spec's command name)."""
    decide: Callable[[Any, Actor, Any, Rng], Sequence[Any]] = field(init=False)
    """Events for a typed command, or ``Rejected``: ``decide_folded`` without the state."""
    stored_types: dict[str, str] = field(init=False)
    """The type an event is stored under, by its tag: the tag at schema 1, ``tag@n`` at a later schema n."""
    command_decoder: msgspec.json.Decoder[Any] = field(init=False)
    """The strict decoder of ``Command``, built once: each version of a game has its own command classes, so
    a decoder shared by id would hand one version's commands to another's rules."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", defaults(self.Options))
        object.__setattr__(self, "command_types", _by_tag(self.Command))
        object.__setattr__(self, "command_decoder", msgspec.json.Decoder(self.Command))
        tags = _by_tag(self.Event)
        unknown = set(self.upcasters) - set(tags)
        if unknown:
            raise ValueError(f"upcasters for types that are not events of {self.id}: {sorted(unknown)}")
        object.__setattr__(
            self,
            "stored_types",
            {tag: schema_type(tag, len(self.upcasters.get(tag, ())) + 1) for tag in tags},
        )
        decide_folded = self.decide_folded
        object.__setattr__(
            self, "decide", lambda state, actor, command, rng: decide_folded(state, actor, command, rng)[0]
        )


def _by_tag(union: Any) -> dict[str, type]:
    members = getattr(union, "__args__", (union,))
    return {cls.__struct_config__.tag: cls for cls in members}
