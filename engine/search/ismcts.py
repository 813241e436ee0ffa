"""Single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse, 2012).

One tree for the searching seat's information set; every iteration samples a state from the seat's view
(``determinize``), walks the tree along the commands legal in that sample, adds one node and plays the match out
with the rollout policy (or, in a game with an ``evaluate``, as far as its horizon, where that scores the
position). A child's statistics are from the point of view of the actor who chose it; the UCB term uses its
availability (how often it was legal when its parent was visited), which keeps commands that only some samples
allow from being over-explored. The engine reads no clock: a time budget comes with an
injected ``clock``, and an iteration budget makes the search reproducible from its seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.contract import SYSTEM, Actor, Outcome, Ruleset
from engine.match import playable
from engine.rng import Rng
from engine.search.determinize import determinize

Policy = Callable[[Ruleset, Any, int, Sequence[Any], random.Random], Any]
"""A rollout policy: the command a seat plays in a sampled state, among its legal ones."""

EXPLORATION = 0.7
"""UCB's exploration constant, for rewards in [0, 1]."""

MAX_ROLLOUT = 600
"""Commands a playout may take before it counts as a draw (every ruleset ends far sooner)."""


def random_policy(ruleset: Ruleset, state: Any, seat: int, commands: Sequence[Any], rng: random.Random) -> Any:
    return commands[rng.randrange(len(commands))]


def greedy_policy(ruleset: Ruleset, state: Any, seat: int, commands: Sequence[Any], rng: random.Random) -> Any:
    """The greedy bot's choice, from the seat's view of the sample."""
    if len(commands) == 1:
        return commands[0]
    view = ruleset.view(state, seat)
    scores = [ruleset.greedy_score(view, c) for c in commands]
    best = max(scores)
    ties = [c for c, s in zip(commands, scores, strict=True) if s == best]
    return ties[rng.randrange(len(ties))]


PRIOR_VISITS = 3
"""Virtual playouts each root command starts with (``Search._prior``)."""

PRIOR_FAVOURITE = 0.7
"""The virtual playouts' mean reward for a command the greedy bot would play (0.5 for the others)."""

CHECK_EVERY = 16
"""Playout steps between two looks at the clock: a long playout is cut when the time is up, so a decision ends
close to its budget whatever a playout costs."""

POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}


class Node:
    """The statistics of one command in the tree, as seen by the actor who played it."""

    __slots__ = ("actor", "available", "children", "reward", "visits")

    def __init__(self, actor: Actor | None) -> None:
        self.actor = actor
        self.visits = 0
        self.available = 1
        self.reward = 0.0
        self.children: dict[Any, Node] = {}


def rewards(outcome: Outcome | None, seats: int) -> list[float]:
    """Each seat's reward in [0, 1]: winners split one, a draw (or an unfinished playout) is worth a half."""
    if outcome is None or outcome.draw or not outcome.winners:
        return [0.5] * seats
    share = 1.0 / len(outcome.winners)
    return [share if s in outcome.winners else 0.0 for s in range(seats)]


def _playable(ruleset: Ruleset, state: Any, seat: int) -> list[Any]:
    """The seat's legal commands, concession left out while there is another (bots never concede)."""
    return playable(ruleset.legal_commands(state, seat))


def _mover(ruleset: Ruleset, state: Any) -> tuple[Actor, list[Any]]:
    """Who moves next in a sample and what it may play: a seat the game waits on, else the clock's timeout."""
    seats = ruleset.to_act(state)
    if seats:
        return seats[0], _playable(ruleset, state, seats[0])
    deadline = ruleset.deadline(state)
    if deadline is None:
        raise RuntimeError(f"{ruleset.id}: nobody to act and no deadline in a running match")
    return SYSTEM, [deadline.timeout]


class Search:
    """One decision's search from ``seat``'s view among ``commands`` (the root's legal commands)."""

    def __init__(
        self,
        ruleset: Ruleset,
        view: Any,
        seat: int,
        commands: Sequence[Any],
        rng: random.Random,
        policy: Policy,
    ) -> None:
        self._ruleset = ruleset
        self._view = view
        self._seat = seat
        # The root tries its commands best greedy score first: a search cut short by its budget has then at least
        # looked at the heuristic's favourites (a stable sort keeps the canonical order among equals).
        self._scores = {c: ruleset.greedy_score(view, c) for c in commands}
        self._commands = sorted(commands, key=lambda c: -self._scores[c])
        self._rng = rng
        self._policy = policy
        self._seats = ruleset.max_seats
        self.root = Node(None)
        self.iterations = 0

    def iterate(self, expired: Callable[[], bool] = lambda: False) -> bool:
        """One sample, one walk down the tree, one new node, one playout, and the result backed up; False, with
        nothing backed up and the new node taken out again, when ``expired`` says the time is up mid-playout."""
        ruleset, rng = self._ruleset, self._rng
        state = determinize(ruleset, self._view, self._seat, rng)
        dice = Rng(rng.getrandbits(256).to_bytes(32, "big"), 1)
        node, path = self.root, [self.root]
        actor: Actor = self._seat
        # Progressive widening at the root: the greedy favourites first, one more as the square root of the
        # iterations grows, so a search with few iterations (a busy machine) spends them on the likeliest moves.
        legal = self._commands[: 2 + math.isqrt(self.iterations)]
        added: tuple[Node, Any] | None = None
        while ruleset.outcome(state) is None:
            for command in legal:
                child = node.children.get(command)
                if child is not None:
                    child.available += 1
            untried = [c for c in legal if c not in node.children]
            if untried:
                command = untried[0] if node is self.root else untried[rng.randrange(len(untried))]
                added = (node, command)
                node.children[command] = node = Node(actor)
                if added[0] is self.root:
                    self._prior(node, command)
                path.append(node)
                state = ruleset.decide_folded(state, actor, command, dice)[1]
                break
            command, node = self._select(node, legal)
            path.append(node)
            state = ruleset.decide_folded(state, actor, command, dice)[1]
            if ruleset.outcome(state) is None:
                actor, legal = _mover(ruleset, state)
        result = self._playout(state, dice, expired)
        if result is None:
            if added is not None:
                del added[0].children[added[1]]
            return False
        for visited in path:
            visited.visits += 1
            if isinstance(visited.actor, int):
                visited.reward += result[visited.actor]
        self.iterations += 1
        return True

    def _prior(self, child: Node, command: Any) -> None:
        """Virtual playouts for a new root child: the greedy favourites start ahead, so that a search with few
        iterations leaves the heuristic's choice only on evidence, not on the noise of a handful of playouts."""
        favourite = self._scores[command] == self._scores[self._commands[0]]
        child.visits = PRIOR_VISITS
        child.reward = PRIOR_VISITS * (PRIOR_FAVOURITE if favourite else 0.5)

    def _select(self, node: Node, legal: Sequence[Any]) -> tuple[Any, Node]:
        """The legal child with the best upper confidence bound (availability-based, as ISMCTS has it)."""
        best: tuple[Any, Node] | None = None
        best_value = -math.inf
        for command in legal:
            child = node.children[command]
            value = child.reward / child.visits + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
            if value > best_value:
                best, best_value = (command, child), value
        assert best is not None
        return best

    def _playout(self, state: Any, dice: Rng, expired: Callable[[], bool]) -> list[float] | None:
        """The match played out by the policy, to its end or to the ruleset's horizon where it scores the position:
        each seat's reward, or None when the time is up."""
        ruleset, rng = self._ruleset, self._rng
        horizon = ruleset.search.horizon if ruleset.evaluate is not None else None
        for step in range(MAX_ROLLOUT if horizon is None else horizon):
            outcome = ruleset.outcome(state)
            if outcome is not None:
                return rewards(outcome, self._seats)
            if step % CHECK_EVERY == CHECK_EVERY - 1 and expired():
                return None
            actor, legal = _mover(ruleset, state)
            command = legal[0] if actor == SYSTEM else self._policy(ruleset, state, actor, legal, rng)  # type: ignore[arg-type]
            state = ruleset.decide_folded(state, actor, command, dice)[1]
        outcome = ruleset.outcome(state)
        if outcome is not None or ruleset.evaluate is None:
            return rewards(outcome, self._seats)
        return self._score(ruleset.view(state, None), ruleset.evaluate)

    def _score(self, view: Any, evaluate: Callable[[Any, int], float]) -> list[float]:
        """The seats' rewards from the ruleset's scores of a position: each seat's share of their sum."""
        scores = [evaluate(view, seat) for seat in range(self._seats)]
        total = sum(scores)
        return [score / total for score in scores] if total > 0 else [1 / self._seats] * self._seats

    def best(self) -> Any:
        """The most visited root command; among equals the better mean reward, then the root's order."""
        children = self.root.children
        if not children:  # no playout finished in time: the greedy favourite
            return self._commands[0]

        def rank(command: Any) -> tuple[int, float]:
            child = children.get(command)
            if child is None or child.visits == 0:
                return (-1, 0.0)
            return (child.visits, child.reward / child.visits)

        return max(self._commands, key=rank)
