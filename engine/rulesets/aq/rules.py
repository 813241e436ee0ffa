"""aq commands (spec §6, §7, §9, §10): checks, decide, legal_commands, to_act, deadline, outcome.

Each ``check_*`` returns the first failing precondition's code in the spec's order, or None; ``decide``
raises it and ``legal_commands`` keeps the canonical candidates it accepts, so legality has one source.
Checks return codes rather than raise because ``legal_commands`` runs them on every self-play step.
"""

from __future__ import annotations

from typing import assert_never

from engine.contract import SYSTEM, Actor, Deadline, Outcome
from engine.errors import Rejected
from engine.rng import Rng
from engine.rulesets.aq.codes import MESSAGES, Code
from engine.rulesets.aq.data import SKILLS, shares_attribute
from engine.rulesets.aq.model import (
    Command, Concede, CoverReserve, Draw, EndPhase, Event, LearnSkill, MatchEnded, PlayCard,
    PlayerConceded, ReserveCovered, SkillLearned, SkillUsed, State, Timeout, UseSkill,
)
from engine.rulesets.aq.resolve import (
    Tape, autopilot, finish_phase, first_playable, is_playable, penalty_draw, play, skill_effect,
)

_STEPS = {
    "learn_skill": ("main",),
    "use_skill": ("main",),
    "play_card": ("main", "drawn_choice"),
    "draw": ("main",),
    "cover_reserve": ("reserve",),
    "end_phase": ("reserve",),
}
"""§7: the steps each phase command is allowed in."""

_CONCEDE = Concede()
_END_PHASE = EndPhase()
_DRAW = Draw()



def _seat(state: State, actor: Actor) -> int | None:
    """The actor's seat, or None for the system, an admin or an index outside the table."""
    return actor if type(actor) is int and 0 <= actor < len(state.seats) else None


# --- checks (§7, in the spec's order) ------------------------------------------------------------


def check_common(state: State, actor: Actor, kind: str) -> Code | None:
    """§7 preconditions before field decoding: timeout and concede use only their own rows."""
    if kind == "timeout":
        if actor != SYSTEM:
            return Code.NOT_SYSTEM
        return Code.MATCH_OVER if state.status == "over" else None
    if state.status == "over":
        return Code.MATCH_OVER
    seat = _seat(state, actor)
    if kind == "concede":
        # A concession speaks for a seat; the system and admins hold none.
        if seat is None:
            return Code.NOT_YOUR_PHASE
        return Code.SEAT_CONCEDED if state.seats[seat].conceded else None
    if seat is not None and state.seats[seat].conceded:
        return Code.SEAT_CONCEDED
    if seat != state.current:
        return Code.NOT_YOUR_PHASE
    return None if state.step in _STEPS[kind] else Code.WRONG_STEP


def check_skill_action(state: State) -> Code | None:
    return None if state.skill_action_available else Code.SKILL_ACTION_USED


def check_learn_cards(state: State, a: str, b: str) -> Code | None:
    """learn_skill field and card checks: ordered distinct pair, both in hand, a shared attribute (D10)."""
    if not a < b:  # pet ids sort canonically as strings; unknown ids fall through to CARD_NOT_IN_HAND
        return Code.BAD_FIELDS
    hand = state.seats[state.current].hand
    if a not in hand or b not in hand:
        return Code.CARD_NOT_IN_HAND
    return None if shares_attribute(a, b) else Code.LEARN_NO_SHARED_ATTRIBUTE


def check_skill_deck(state: State) -> Code | None:
    return Code.SKILL_DECK_EMPTY if not state.skill_deck else None


def check_learn_skill(state: State, cards: tuple[str, ...]) -> Code | None:
    """§7 learn_skill."""
    well_formed = len(cards) == 2 and all(type(c) is str for c in cards)
    return (
        check_skill_action(state)
        or (check_learn_cards(state, cards[0], cards[1]) if well_formed else Code.BAD_FIELDS)
        or check_skill_deck(state)
    )


def check_use_skill(state: State, skill: str, card: str | None, target: int | None) -> Code | None:
    """§7 use_skill: fields must match the effect's needs (§13.3); a target is another seat."""
    if not state.skill_action_available:
        return Code.SKILL_ACTION_USED
    seat = state.seats[state.current]
    if skill not in seat.skills:
        return Code.SKILL_NOT_HELD
    needs = SKILLS[skill].needs
    if (card is not None) != needs.card or (target is not None) != needs.target_seat:
        return Code.BAD_FIELDS
    if not isinstance(card, str | None) or not (target is None or type(target) is int):
        return Code.BAD_FIELDS
    if card is not None and card not in seat.hand:
        return Code.CARD_NOT_IN_HAND
    if target is not None and not (0 <= target < len(state.seats) and target != state.current):
        return Code.BAD_TARGET
    return None


def check_play_card(state: State, card: str) -> Code | None:
    """§7 play_card: from hand in step main (D11), one of P in step drawn_choice."""
    if state.step == "drawn_choice":
        return None if card in state.drawn_playable else Code.CARD_NOT_PLAYABLE
    if card not in state.seats[state.current].hand:
        return Code.CARD_NOT_IN_HAND
    return None if is_playable(state, card) else Code.CARD_NOT_PLAYABLE


def check_draw(state: State) -> Code | None:
    """§7 draw: only without a playable hand card (D11)."""
    return Code.MUST_PLAY if first_playable(state, state.seats[state.current].hand) is not None else None


def check_cover_reserve(state: State, card: str) -> Code | None:
    return None if card in state.seats[state.current].hand else Code.CARD_NOT_IN_HAND


def check_timeout(state: State, phase_no: int) -> Code | None:
    return None if phase_no == state.phase_no else Code.TIMEOUT_STALE


def _raise(code: Code | None) -> None:
    if code is not None:
        raise Rejected(code, MESSAGES.get(code, code))


# --- decide --------------------------------------------------------------------------------------


def precheck(state: State, actor: Actor, kind: str) -> None:
    """The §7 checks that precede field validation, for a command type."""
    _raise(check_common(state, actor, kind))


def decide_folded(state: State, actor: Actor, command: Command, rng: Rng) -> tuple[list[Event], State]:
    """The events of a typed command, or ``Rejected`` with the spec's code."""
    precheck(state, actor, command.__struct_config__.tag)  # type: ignore[arg-type]
    tape = Tape(state, rng)
    match command:
        case LearnSkill(cards=cards):
            _raise(check_learn_skill(state, cards))
            emit_learn_skill(tape, cards)
        case UseSkill(skill=skill, card=card, target_seat=target):
            _raise(check_use_skill(state, skill, card, target))
            emit_use_skill(tape, skill, card, target)
        case PlayCard(card=card):
            _raise(check_play_card(state, card))
            play(tape, card, "drawn" if state.step == "drawn_choice" else "hand")
        case Draw():
            _raise(check_draw(state))
            penalty_draw(tape)
        case CoverReserve(card=card):
            _raise(check_cover_reserve(state, card))
            emit_cover_reserve(tape, card)
        case EndPhase():
            finish_phase(tape)
        case Concede():
            emit_concede(tape, actor)  # type: ignore[arg-type]
        case Timeout(phase_no=k):
            _raise(check_timeout(state, k))
            autopilot(tape, "timeout")
        case _:
            assert_never(command)
    return tape.events, tape.state


def emit_learn_skill(tape: Tape, cards: tuple[str, str]) -> None:
    """SkillLearned; a hand emptied by the cost ends the phase without a play (§6.2, D14)."""
    seat = tape.state.current
    tape.emit(SkillLearned(seat=seat, cards=cards, skill=tape.state.skill_deck[0]))
    if not tape.state.seats[seat].hand:
        finish_phase(tape)


def emit_use_skill(tape: Tape, skill: str, card: str | None, target: int | None) -> None:
    """SkillUsed, the effect (§8.4), and the end of the phase if the hand is now empty."""
    seat = tape.state.current
    tape.emit(SkillUsed(seat=seat, skill=skill, skill_id=SKILLS[skill].id, card=card, target_seat=target))
    if skill_effect(tape, skill, card, target) and not tape.state.seats[seat].hand:
        finish_phase(tape)


def emit_cover_reserve(tape: Tape, card: str) -> None:
    """§6.3: one cover; the phase ends when the allowance is spent or the hand is empty."""
    seat = tape.state.current
    tape.emit(ReserveCovered(seat=seat, card=card, source="play"))
    if tape.state.reserve_remaining == 0 or not tape.state.seats[seat].hand:
        finish_phase(tape)


def emit_concede(tape: Tape, seat: int) -> None:
    """§7 concede, D24: the last unconceded seat wins; a seat conceding in its phase goes on autopilot."""
    tape.emit(PlayerConceded(seat=seat))
    state = tape.state
    live = tuple(s for s, other in enumerate(state.seats) if not other.conceded)
    if len(live) == 1:
        tape.emit(MatchEnded(winners=live, reason="concede", totals=tuple(s.total for s in state.seats)))
    elif seat == state.current:
        autopilot(tape, "conceded")


# --- queries -------------------------------------------------------------------------------------


def legal_commands(state: State, seat: int) -> list[Command]:
    """§7: exactly the accepted commands, in canonical order, from the checks above."""
    if check_common(state, seat, "concede") is not None:
        return []
    if seat != state.current:
        return [_CONCEDE]
    out: list[Command] = []
    hand = state.seats[seat].hand
    # The pair-independent parts of check_learn_skill are run once: they accept or refuse every pair alike.
    if check_common(state, seat, "learn_skill") is None and check_skill_action(state) is None:
        if check_skill_deck(state) is None:
            for i, a in enumerate(hand):
                for b in hand[i + 1:]:
                    if check_learn_cards(state, a, b) is None:
                        out.append(LearnSkill(cards=(a, b)))
        out.extend(_skill_uses(state))
    if check_common(state, seat, "play_card") is None:
        out.extend(PlayCard(card=c) for c in hand if check_play_card(state, c) is None)
    if check_common(state, seat, "draw") is None and check_draw(state) is None:
        out.append(_DRAW)
    if check_common(state, seat, "cover_reserve") is None:
        out.extend(CoverReserve(card=c) for c in hand if check_cover_reserve(state, c) is None)
    if check_common(state, seat, "end_phase") is None:
        out.append(_END_PHASE)
    out.append(_CONCEDE)
    return out


def _skill_uses(state: State) -> list[Command]:
    """use_skill candidates: held skills (acquisition order) × hand cards × target seats."""
    out: list[Command] = []
    seat = state.seats[state.current]
    for skill in seat.skills:
        needs = SKILLS[skill].needs
        for card in seat.hand if needs.card else (None,):
            for target in range(len(state.seats)) if needs.target_seat else (None,):
                if check_use_skill(state, skill, card, target) is None:
                    out.append(UseSkill(skill=skill, card=card, target_seat=target))
    return out


def to_act(state: State) -> tuple[int, ...]:
    """The current seat while the match runs (conceded seats never wait: autopilot resolves them)."""
    return () if state.status == "over" else (state.current,)


def deadline(state: State) -> Deadline | None:
    """§9: the phase timer of the current seat."""
    if state.status == "over":
        return None
    return Deadline(seat=state.current, seconds=state.config.options.phase_seconds,
                    timeout=Timeout(phase_no=state.phase_no))


def outcome(state: State) -> Outcome | None:
    """§10: winners, every other seat loses, never a draw."""
    if state.status != "over":
        return None
    losers = tuple(s for s in range(len(state.seats)) if s not in state.winners)
    return Outcome(winners=state.winners, losers=losers, draw=False, reason=state.reason)
