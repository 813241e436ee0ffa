"""The events of a tournament stream (``tournament:<id>``), one msgspec type per event, tagged by ``type``.

Everything a decision computed (pairings, tables, byes, who goes first in game 1, the cut's seeds) is in the
events, so folding never pairs or draws again.
"""

from __future__ import annotations

from typing import Any

import msgspec

SWISS = "swiss"
SINGLE_ELIMINATION = "single_elimination"
ROUND_ROBIN = "round_robin"
FORMATS = (SWISS, SINGLE_ELIMINATION, ROUND_ROBIN)

STAGE_SWISS = "swiss"
STAGE_CUT = "cut"
STAGE_ELIMINATION = "elimination"
STAGE_ROBIN = "robin"
ELIMINATION_STAGES = (STAGE_CUT, STAGE_ELIMINATION)

MTG = "mtg"
POKEMON = "pokemon"
YGO = "ygo"
PRESETS = (MTG, POKEMON, YGO)


class _Event(msgspec.Struct, frozen=True, tag_field="type"):
    pass


class TournamentCreated(_Event, frozen=True, tag="TournamentCreated"):
    tournament_id: str
    name: str
    ruleset: str
    format: str
    rounds: int
    """Swiss or round robin rounds; 0: automatic from the player count when the tournament starts."""
    cut: int
    """Players in the top cut after Swiss (0: none; else 2, 4, 8, ...)."""
    best_of: int
    tiebreak: str
    round_minutes: int
    seed: str
    """Hex; round 1 pairings, game 1 first players and every pairing tie-break are drawn from it."""
    options: dict[str, Any] = {}
    """Match options for every game (e.g. turn timers)."""
    ruleset_version: int = 0
    """The version every game plays, fixed at creation so that a tournament spanning an upgrade plays (and
    verifies) one ruleset throughout; 0: created before it was fixed, the newest."""
    spectators: str = "public"
    """The spectator policy of every game (``public``, ``token`` or ``none``)."""
    caster_delay_seconds: int = 0
    """The caster feed's delay of every game; 0: none."""
    decklists: str = "private"
    """``open``: both players of a table see each other's registered deck."""
    chooser_seconds: int = 0
    """How long a chooser has between games of a series before the system chooses for them; 0: no deadline."""
    labels: dict[str, str] = {}
    """The organiser's labels, which ``ListTournaments`` filters by."""
    deck_rule: str = "any"
    """``any``, ``required`` (a registration must bring a deck) or ``fixed`` (everyone plays ``fixed_deck``)."""
    fixed_deck: dict[str, Any] = {}


class PlayerRegistered(_Event, frozen=True, tag="PlayerRegistered"):
    player: str
    deck: dict[str, Any]
    """The player's seat configuration for the ruleset (e.g. {"deck": "starter_a"}), validated."""
    late: bool = False
    seed: int = 0
    """The organiser's seed (1 is the top); 0: none."""
    rating: int = 0
    """A rating (higher is stronger), ordering players after the seeded ones; 0: none."""


class PlayerCheckedIn(_Event, frozen=True, tag="PlayerCheckedIn"):
    player: str


class PlayerDropped(_Event, frozen=True, tag="PlayerDropped"):
    player: str
    after_round: int
    """Rounds paired when the player dropped: a drop after pairing still plays (or loses) that round."""
    by: str
    why: str


class PlayerReinstated(_Event, frozen=True, tag="PlayerReinstated"):
    player: str
    by: str
    why: str


class Table(msgspec.Struct, frozen=True):
    table: int
    a: str
    b: str | None
    """None: ``a`` has the bye."""
    first: str
    """Who goes first in game 1 (drawn from the seed); also the one who chose, for the next draw rule."""
    loss: bool = False
    """With ``b`` None: ``a`` has an assigned loss (a pairing edit) instead of the bye."""


class RoundPaired(_Event, frozen=True, tag="RoundPaired"):
    round: int
    stage: str
    tables: list[Table]
    planned: int = 0
    """Rounds of this stage (Swiss or round robin) fixed when its first round is paired; 0 in elimination."""
    rematches: int = 0
    pair_downs: int = 0
    order: list[str] = []
    """Round robin: the circle every later round turns (fixed in round 1)."""


class RoundRepaired(_Event, frozen=True, tag="RoundRepaired"):
    round: int
    stage: str
    tables: list[Table]
    by: str
    why: str
    rematches: int = 0
    pair_downs: int = 0


class FirstChosen(_Event, frozen=True, tag="FirstChosen"):
    """The chooser (the loser of the last game, or after a draw the last chooser) picked who goes first."""

    round: int
    table: int
    game: int
    chooser: str
    first: str


class DeckSided(_Event, frozen=True, tag="DeckSided"):
    """A side-deck swap between games, one for one: ``removed`` left the deck, ``added`` came from the side."""

    round: int
    table: int
    game: int
    player: str
    removed: list[str]
    added: list[str]
    deck: dict[str, Any]
    """The seat configuration for the coming game, validated by the ruleset."""


class GameRecorded(_Event, frozen=True, tag="GameRecorded"):
    round: int
    table: int
    game: int
    match_id: str
    winner: str | None
    """None: a drawn game."""


class GameUnverified(_Event, frozen=True, tag="GameUnverified"):
    """A finished match whose replay did not verify: not counted (the organiser may enter the result)."""

    round: int
    table: int
    game: int
    match_id: str
    check: str
    message: str


class MatchResulted(_Event, frozen=True, tag="MatchResulted"):
    round: int
    table: int
    wins_a: int
    wins_b: int
    draws: int
    source: str
    """"games" (from the played games) or "organiser" (entered by hand, with who and why)."""
    by: str = ""
    why: str = ""


class ResultCorrected(_Event, frozen=True, tag="ResultCorrected"):
    round: int
    table: int
    wins_a: int
    wins_b: int
    draws: int
    by: str
    why: str


class CutStarted(_Event, frozen=True, tag="CutStarted"):
    size: int
    seeds: list[str]
    """Swiss standings order: seed 1 first."""


class TournamentEnded(_Event, frozen=True, tag="TournamentEnded"):
    winner: str | None


class ReplaysPublished(_Event, frozen=True, tag="ReplaysPublished"):
    """The organiser lifted the embargo on the replays of the tournament's matches before it ended."""

    by: str
    why: str


class ChooserTimedOut(_Event, frozen=True, tag="ChooserTimedOut"):
    """The chooser did not choose within ``chooser_seconds``: the system chose for them, by the rule that the
    chooser goes first (docs/tournaments.md). Folds as a ``FirstChosen`` by ``chooser``."""

    round: int
    table: int
    game: int
    chooser: str
    first: str


class RoundTimeEnded(_Event, frozen=True, tag="RoundTimeEnded"):
    """The round's ``round_minutes`` ran out: the ``MatchResulted`` (source ``time``) that follow end its
    unfinished tables by the tiebreak preset's procedure (docs/tournaments.md)."""

    round: int
    minutes: int


class PairingsEdited(_Event, frozen=True, tag="PairingsEdited"):
    """The organiser changed a round's pairings by hand before any of its results (audited): ``tables`` is the
    whole round after the edit; tables unchanged by it keep their games."""

    round: int
    edit: str
    """``swap``, ``bye`` or ``loss``."""
    players: list[str]
    tables: list[Table]
    by: str
    why: str


class PlayerTokenReissued(_Event, frozen=True, tag="PlayerTokenReissued"):
    """The organiser gave a player a new token: from this event on only the new one is the player's."""

    player: str
    by: str
    why: str


Event = (
    TournamentCreated
    | PlayerRegistered
    | PlayerCheckedIn
    | PlayerDropped
    | PlayerReinstated
    | RoundPaired
    | RoundRepaired
    | FirstChosen
    | DeckSided
    | GameRecorded
    | GameUnverified
    | MatchResulted
    | ResultCorrected
    | CutStarted
    | TournamentEnded
    | ReplaysPublished
    | ChooserTimedOut
    | RoundTimeEnded
    | PairingsEdited
    | PlayerTokenReissued
)

decoder: msgspec.json.Decoder[Event] = msgspec.json.Decoder(Event)


def type_of(event: Event) -> str:
    return str(event.__struct_config__.tag)
