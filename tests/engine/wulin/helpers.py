"""Scenario helpers for wulin: the §14 fixture as a ``given`` state builder, and one-command runs.

Cards are written ``fc("a1", "WL-B01")`` (a field card) or ``("a1", "WL-Q01")`` (a hand, library or
graveyard card). Unless told otherwise each seat holds 5 filler cards in hand and 10 in its library
(qi cards named ``p{seat}-h{n}`` / ``p{seat}-l{n}``, which sort after the scenario's own names).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from engine.rulesets.wulin import RULESET
from engine.rulesets.wulin.model import Options, State
from engine.rulesets.wulin.model.events import ClockRestarted
from engine.rulesets.wulin.model.state import CardView, Clock, FieldCard, Pending, Side
from tests.engine.scenario import Scenario

CardRef = tuple[str, str]
SCENARIO = Scenario(RULESET)
run = SCENARIO.run
rejection = SCENARIO.rejection
fold = SCENARIO.fold
DEFAULT = -1


def fc(
    iid: str,
    card_id: str,
    face_up: bool = True,
    played: int | None = DEFAULT,
    acted: int | None = None,
    attacked: int | None = None,
    temp_atk: int = 0,
    temp_def: int = 0,
) -> FieldCard:
    """A field card; ``played`` defaults to phase 5 for seat 0 and 6 for seat 1 (§14 fixture)."""
    return FieldCard(iid, card_id, face_up, played, acted, attacked, temp_atk, temp_def)


class SideSpec(msgspec.Struct, frozen=True):
    hand: tuple[CardRef, ...] | None = None
    library: tuple[CardRef, ...] | None = None
    skill: tuple[FieldCard, ...] = ()
    battle: tuple[FieldCard, ...] = ()
    graveyard: tuple[CardRef, ...] = ()
    hp: int = 300
    qi: int = 0
    hero: str = ""
    idle_streak: int = 0
    timeouts: int = 0
    truce_proposals_used: int = 0
    actions: int = 0
    consumable_used: bool = False
    play_used: bool = False
    discard_used: bool = False
    battle_flip_used: bool = False


def side(**fields: Any) -> SideSpec:
    converted = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    return SideSpec(**converted)


EMPTY = SideSpec()


def given(
    s0: SideSpec = EMPTY,
    s1: SideSpec = EMPTY,
    *,
    phase: int = 7,
    active: int = 0,
    first: int = 0,
    clock_seq: int = 1,
    pending: Pending | None = None,
    truce_offer: int | None = None,
    **options: Any,
) -> State:
    """A running state with exactly these zones and counters (the §14 fixture for everything unnamed)."""
    opts = Options(**options)
    card_ids: dict[str, str] = {}
    sides = []
    for seat, spec in enumerate((s0, s1)):
        hand = spec.hand if spec.hand is not None else tuple((f"p{seat}-h{i}", "WL-Q01") for i in range(5))
        library = (
            spec.library if spec.library is not None else tuple((f"p{seat}-l{i:02d}", "WL-Q01") for i in range(10))
        )
        default_played = 5 if seat == 0 else 6
        skill = tuple(_placed(c, default_played) for c in spec.skill)
        battle = tuple(_placed(c, default_played) for c in spec.battle)
        placed = [(c.iid, c.card_id) for c in (*skill, *battle)]
        for iid, card_id in [*hand, *library, *spec.graveyard, *placed]:
            assert card_ids.setdefault(iid, card_id) == card_id, f"label {iid} used for two cards"
        sides.append(
            Side(
                hp=spec.hp,
                max_hp=opts.starting_hp,
                qi=spec.qi,
                hero_attribute=spec.hero or ("fire" if seat == 0 else "water"),  # type: ignore[arg-type]
                library=_ids(library),
                hand=_ids(hand),
                skill_zone=skill,
                battle_zone=battle,
                graveyard=tuple(CardView(iid, card_id) for iid, card_id in spec.graveyard),
                idle_streak=spec.idle_streak,
                timeouts=spec.timeouts,
                truce_proposals_used=spec.truce_proposals_used,
                actions=spec.actions,
                consumable_used=spec.consumable_used,
                play_used=spec.play_used,
                discard_used=spec.discard_used,
                battle_flip_used=spec.battle_flip_used,
            )
        )
    clock_holder = pending.seat if pending is not None else active
    return State(
        options=opts,
        sides=tuple(sides),
        card_ids=card_ids,
        status="in_progress",
        phase_no=phase,
        active_seat=active,
        first_seat=first,
        pending=pending,
        truce_offer=truce_offer,
        clock=Clock(clock_holder, clock_seq, opts.action_timer_s),
    )


def _placed(card: FieldCard, default: int) -> FieldCard:
    return msgspec.structs.replace(card, played_phase=default) if card.played_phase == DEFAULT else card


def _ids(refs: Sequence[CardRef]) -> tuple[str, ...]:
    return tuple(iid for iid, _ in refs)


def card(state: State, seat: int, iid: str) -> FieldCard | None:
    """The field card ``iid`` of the seat, or None once it has left the field."""
    side_ = state.sides[seat]
    return next((c for c in (*side_.battle_zone, *side_.skill_zone) if c.iid == iid), None)


def without_clock(events: list[Any]) -> list[Any]:
    """The events without the trailing ``ClockRestarted`` (§14: omitted where not relevant)."""
    return events[:-1] if events and isinstance(events[-1], ClockRestarted) else events
