"""aq commands (docs/rulesets/aq.md §6, §7, §9, §10): checks, decide, legal_commands, to_act, deadline, outcome.

Each ``check_*`` raises ``Rejected`` with the first failing precondition in the order of §7; ``decide``
runs them and ``legal_commands`` keeps the canonical candidates they accept, so legality has one source.
"""

from __future__ import annotations

from typing import Literal, get_args

from engine.contract import FORFEIT, Actor, Deadline, ForfeitReason, Outcome, seat_of
from engine.dispatch import Decider, deciders
from engine.errors import Rejected
from engine.legal import Family, legal
from engine.precheck import check_common
from engine.rng import Rng
from engine.rulesets.aq.codes import Code
from engine.rulesets.aq.data import SKILLS, shares_attribute
from engine.rulesets.aq.evolve import evolve
from engine.rulesets.aq.model import (
    Command,
    Concede,
    CoverReserve,
    Draw,
    EndPhase,
    Event,
    Forfeit,
    LearnSkill,
    MatchEnded,
    PlayCard,
    PlayerConceded,
    ReserveCovered,
    SkillLearned,
    SkillUsed,
    State,
    Step,
    Timeout,
    UseSkill,
)
from engine.rulesets.aq.resolve import (
    autopilot,
    finish_phase,
    first_playable,
    is_playable,
    penalty_draw,
    play,
    skill_effect,
)
from engine.tape import Tape

_STEPS = {
    "learn_skill": ("main",),
    "use_skill": ("main",),
    "play_card": ("main", "drawn_choice"),
    "draw": ("main",),
    "cover_reserve": ("reserve",),
    "end_phase": ("reserve",),
}
"""§7: the steps each phase command is allowed in."""

SEATS = {n: tuple(range(n)) for n in range(2, 7)}
_CONCEDE = (Concede(),)
_END_PHASE = (EndPhase(),)
_DRAW = (Draw(),)


# --- checks (§7, in precondition order) --------------------------------------------------------


def precheck(state: State, actor: Actor, kind: str) -> None:
    """§7 preconditions before field decoding: timeout, forfeit and concede use only their own rows."""
    if actor != state.current or kind == "timeout" or kind == FORFEIT or state.status == "over":
        # The common rows. The current seat's phase commands in a running match pass all of them, and
        # legal_commands asks exactly that on every self-play step, so that case skips the call.
        check_common(
            kind,
            actor,
            over=state.status == "over",
            acting=SEATS[len(state.seats)],
            anytime=(),
            not_your_turn=Code.NOT_YOUR_PHASE,
        )
        if kind == "timeout" or kind == FORFEIT:
            return
    assert isinstance(actor, int)
    if state.seats[actor].conceded:
        raise Rejected(Code.SEAT_CONCEDED, "this seat has conceded")
    if kind == "concede":
        return
    if actor != state.current:
        raise Rejected(Code.NOT_YOUR_PHASE, "it is not your phase")
    if state.step not in _STEPS[kind]:
        raise Rejected(Code.WRONG_STEP, "that command is not allowed in the current step")


def check_skill_action(state: State, seat: int) -> None:
    """The gate of both skill commands: one skill action per phase."""
    if not state.skill_action_available:
        raise Rejected(Code.SKILL_ACTION_USED, "a skill action was already taken this phase")


def check_learn_cards(state: State, a: str, b: str) -> None:
    """learn_skill field and card checks: ordered distinct pair, both in hand, a shared attribute (D10)."""
    if not a < b:  # pet ids sort canonically as strings; unknown ids fall through to CARD_NOT_IN_HAND
        raise Rejected(Code.BAD_FIELDS, "the command's fields do not fit")
    hand = state.seats[state.current].hand
    if a not in hand or b not in hand:
        raise Rejected(Code.CARD_NOT_IN_HAND, "that card is not in your hand")
    if not shares_attribute(a, b):
        raise Rejected(Code.LEARN_NO_SHARED_ATTRIBUTE, "the two cards share no attribute")


def check_learn_skill(state: State, actor: Actor, cmd: LearnSkill) -> None:
    """§7 learn_skill."""
    check_skill_action(state, state.current)
    cards = cmd.cards
    if not (len(cards) == 2 and all(type(c) is str for c in cards)):
        raise Rejected(Code.BAD_FIELDS, "the command's fields do not fit")
    check_learn_cards(state, cards[0], cards[1])
    if not state.skill_deck:
        raise Rejected(Code.SKILL_DECK_EMPTY, "the skill deck is empty")


def check_use_skill(state: State, actor: Actor, cmd: UseSkill) -> None:
    """§7 use_skill: fields must match the effect's needs (§13.3); a target is another seat."""
    check_skill_action(state, state.current)
    skill, card, target = cmd.skill, cmd.card, cmd.target_seat
    seat = state.seats[state.current]
    if skill not in seat.skills:
        raise Rejected(Code.SKILL_NOT_HELD, "you do not hold that skill")
    needs = SKILLS[skill].needs
    if (card is not None) != needs.card or (target is not None) != needs.target_seat:
        raise Rejected(Code.BAD_FIELDS, "the command's fields do not fit")
    if not isinstance(card, str | None) or not (target is None or type(target) is int):
        raise Rejected(Code.BAD_FIELDS, "the command's fields do not fit")
    if card is not None and card not in seat.hand:
        raise Rejected(Code.CARD_NOT_IN_HAND, "that card is not in your hand")
    if target is not None and not (0 <= target < len(state.seats) and target != state.current):
        raise Rejected(Code.BAD_TARGET, "the target must be another seat")


def check_play_card(state: State, actor: Actor, cmd: PlayCard) -> None:
    """§7 play_card: from hand in step main (D11), one of P in step drawn_choice."""
    card = cmd.card
    if state.step == "drawn_choice":
        if card not in state.drawn_playable:
            raise Rejected(Code.CARD_NOT_PLAYABLE, "that card cannot be played now")
        return
    if card not in state.seats[state.current].hand:
        raise Rejected(Code.CARD_NOT_IN_HAND, "that card is not in your hand")
    if not is_playable(state, card):
        raise Rejected(Code.CARD_NOT_PLAYABLE, "that card cannot be played now")


def check_draw(state: State, actor: Actor, cmd: Draw) -> None:
    """§7 draw: only without a playable hand card (D11)."""
    if first_playable(state, state.seats[state.current].hand) is not None:
        raise Rejected(Code.MUST_PLAY, "you hold a playable card and must play")


def check_cover_reserve(state: State, actor: Actor, cmd: CoverReserve) -> None:
    if cmd.card not in state.seats[state.current].hand:
        raise Rejected(Code.CARD_NOT_IN_HAND, "that card is not in your hand")


def check_timeout(state: State, actor: Actor, cmd: Timeout) -> None:
    if cmd.phase_no != state.phase_no:
        raise Rejected(Code.TIMEOUT_STALE, "that phase is already over")


def check_none(state: State, actor: Actor, cmd: Command) -> None:
    """end_phase and concede have no preconditions beyond the common ones."""


# --- decide --------------------------------------------------------------------------------------


def decide_folded(state: State, actor: Actor, command: Command, rng: Rng) -> tuple[list[Event], State]:
    """The events of a typed command, or ``Rejected`` with the code of §7."""
    kind, decide = _DECIDERS[type(command)]
    precheck(state, actor, kind)
    tape = Tape(state, evolve)
    decide(tape, actor, command, rng)
    return tape.events, tape.state


# Each command's check and emission, found by one lookup on the exact type: a match statement paid an
# isinstance call on a msgspec class for every case it tried first.


def _decide_learn_skill(tape: Tape[State, Event], actor: Actor, cmd: LearnSkill, rng: Rng) -> None:
    check_learn_skill(tape.state, actor, cmd)
    emit_learn_skill(tape, rng, cmd.cards)


def _decide_use_skill(tape: Tape[State, Event], actor: Actor, cmd: UseSkill, rng: Rng) -> None:
    check_use_skill(tape.state, actor, cmd)
    emit_use_skill(tape, rng, cmd.skill, cmd.card, cmd.target_seat)


def _decide_play_card(tape: Tape[State, Event], actor: Actor, cmd: PlayCard, rng: Rng) -> None:
    check_play_card(tape.state, actor, cmd)
    play(tape, rng, cmd.card, "drawn" if tape.state.step == "drawn_choice" else "hand")


def _decide_draw(tape: Tape[State, Event], actor: Actor, cmd: Draw, rng: Rng) -> None:
    check_draw(tape.state, actor, cmd)
    penalty_draw(tape, rng)


def _decide_cover_reserve(tape: Tape[State, Event], actor: Actor, cmd: CoverReserve, rng: Rng) -> None:
    check_cover_reserve(tape.state, actor, cmd)
    emit_cover_reserve(tape, rng, cmd.card)


def _decide_end_phase(tape: Tape[State, Event], actor: Actor, cmd: EndPhase, rng: Rng) -> None:
    finish_phase(tape, rng)


def _decide_concede(tape: Tape[State, Event], actor: Actor, cmd: Concede, rng: Rng) -> None:
    emit_concede(tape, rng, seat_of(actor))


def _decide_timeout(tape: Tape[State, Event], actor: Actor, cmd: Timeout, rng: Rng) -> None:
    check_timeout(tape.state, actor, cmd)
    autopilot(tape, rng, "timeout")


def check_forfeit(state: State, cmd: Forfeit) -> None:
    """A seat of the match that has not conceded yet (``precheck`` has refused any actor but the system)."""
    if cmd.seat not in SEATS[len(state.seats)]:
        raise Rejected(Code.BAD_FIELDS, f"the match has no seat {cmd.seat}")
    if state.seats[cmd.seat].conceded:
        raise Rejected(Code.SEAT_CONCEDED, "this seat has conceded")


def _decide_forfeit(tape: Tape[State, Event], actor: Actor, cmd: Forfeit, rng: Rng) -> None:
    check_forfeit(tape.state, cmd)
    emit_concede(tape, rng, cmd.seat, cmd.reason)


_DECIDERS: dict[type, tuple[str, Decider[State, Event]]] = deciders(
    Command,
    (
        (LearnSkill, _decide_learn_skill),
        (UseSkill, _decide_use_skill),
        (PlayCard, _decide_play_card),
        (Draw, _decide_draw),
        (CoverReserve, _decide_cover_reserve),
        (EndPhase, _decide_end_phase),
        (Concede, _decide_concede),
        (Timeout, _decide_timeout),
        (Forfeit, _decide_forfeit),
    ),
)
"""Each command type's tag (for ``precheck``) and the function that checks and emits it."""


def emit_learn_skill(tape: Tape[State, Event], rng: Rng, cards: tuple[str, str]) -> None:
    """SkillLearned; a hand emptied by the cost ends the phase without a play (§6.2, D14)."""
    seat = tape.state.current
    tape.emit(SkillLearned(seat=seat, cards=cards, skill=tape.state.skill_deck[0]))
    if not tape.state.seats[seat].hand:
        finish_phase(tape, rng)


def emit_use_skill(tape: Tape[State, Event], rng: Rng, skill: str, card: str | None, target: int | None) -> None:
    """SkillUsed, the effect (§8.4), and the end of the phase if the hand is now empty."""
    seat = tape.state.current
    tape.emit(SkillUsed(seat=seat, skill=skill, skill_id=SKILLS[skill].id, card=card, target_seat=target))
    if skill_effect(tape, rng, skill, card, target) and not tape.state.seats[seat].hand:
        finish_phase(tape, rng)


def emit_cover_reserve(tape: Tape[State, Event], rng: Rng, card: str) -> None:
    """§6.3: one cover; the phase ends when the allowance is spent or the hand is empty."""
    seat = tape.state.current
    tape.emit(ReserveCovered(seat=seat, card=card, source="play"))
    if tape.state.reserve_remaining == 0 or not tape.state.seats[seat].hand:
        finish_phase(tape, rng)


def emit_concede(
    tape: Tape[State, Event], rng: Rng, seat: int, reason: Literal["concede", "disconnected"] = "concede"
) -> None:
    """§7 concede, D24: the last unconceded seat wins; a seat conceding in its phase goes on autopilot. The
    system's forfeit is the same concession, the end's ``reason`` being ``disconnected``."""
    tape.emit(PlayerConceded(seat=seat))
    state = tape.state
    live = tuple(s for s, other in enumerate(state.seats) if not other.conceded)
    if len(live) == 1:
        tape.emit(MatchEnded(winners=live, reason=reason, totals=tuple(s.total for s in state.seats)))
    elif seat == state.current:
        autopilot(tape, rng, "conceded")


# --- queries -------------------------------------------------------------------------------------


def _learn_candidates(state: State, seat: int) -> list[LearnSkill]:
    """Ordered pairs of hand cards that share an attribute (the card data alone rules out the others, as
    card types do for card_monsters' candidates); the pair-independent checks run once, as the gate."""
    hand = state.seats[seat].hand
    return [LearnSkill(cards=(a, b)) for i, a in enumerate(hand) for b in hand[i + 1 :] if shares_attribute(a, b)]


def _learn_gate(state: State, seat: int) -> None:
    check_skill_action(state, seat)
    if not state.skill_deck:
        raise Rejected(Code.SKILL_DECK_EMPTY, "the skill deck is empty")


def _learn_pair(state: State, actor: Actor, cmd: LearnSkill) -> None:
    check_learn_cards(state, cmd.cards[0], cmd.cards[1])


def _skill_uses(state: State, seat: int) -> list[UseSkill]:
    """use_skill candidates: held skills (acquisition order) × hand cards × target seats."""
    own = state.seats[seat]
    return [
        UseSkill(skill=skill, card=card, target_seat=target)
        for skill in own.skills
        for card in (own.hand if SKILLS[skill].needs.card else (None,))
        for target in (range(len(state.seats)) if SKILLS[skill].needs.target_seat else (None,))
    ]


def _hand_plays(state: State, seat: int) -> list[PlayCard]:
    return [PlayCard(card=c) for c in state.seats[seat].hand]


def _covers(state: State, seat: int) -> list[CoverReserve]:
    return [CoverReserve(card=c) for c in state.seats[seat].hand]


FAMILIES: tuple[Family[State], ...] = (
    Family("learn_skill", _learn_candidates, _learn_pair, gate=_learn_gate),
    Family("use_skill", _skill_uses, check_use_skill, gate=check_skill_action),
    Family("play_card", _hand_plays, check_play_card),
    Family("draw", lambda state, seat: _DRAW, check_draw),
    Family("cover_reserve", _covers, check_cover_reserve),
    Family("end_phase", lambda state, seat: _END_PHASE, check_none),
    Family("concede", lambda state, seat: _CONCEDE, check_none),
)
"""§7 command families in canonical order; their checks are the ones ``decide`` runs."""


_IN_STEP = {step: tuple(f for f in FAMILIES if f.tag not in _STEPS or step in _STEPS[f.tag]) for step in get_args(Step)}
"""The families each step allows, derived from the table ``precheck`` reads: the others would all fail with
WRONG_STEP, and self-play asks for legal commands at every step."""


def legal_commands(state: State, seat: int) -> list[Command]:
    """§7: exactly the accepted commands, in canonical order, from the checks above."""
    return legal(_IN_STEP[state.step], precheck, state, seat)


def to_act(state: State) -> tuple[int, ...]:
    """The current seat while the match runs (conceded seats never wait: autopilot resolves them)."""
    return () if state.status == "over" else (state.current,)


def deadline(state: State) -> Deadline | None:
    """§9: the phase timer of the current seat."""
    if state.status == "over":
        return None
    return Deadline(
        seat=state.current, seconds=state.config.options.phase_seconds, timeout=Timeout(phase_no=state.phase_no)
    )


def forfeit(seat: int, reason: ForfeitReason) -> Forfeit:
    """The system's concession for ``seat`` (D24 as for ``concede``; ``reason`` ends the match if it ends it)."""
    return Forfeit(seat, reason)


def outcome(state: State) -> Outcome | None:
    """§10: winners, every other seat loses, never a draw."""
    if state.status != "over":
        return None
    losers = tuple(s for s in range(len(state.seats)) if s not in state.winners)
    return Outcome(winners=state.winners, losers=losers, draw=False, reason=state.reason)
