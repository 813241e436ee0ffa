"""A ``Ruleset`` from the modules of a ruleset package, each holding the contract members its name says.

Every ruleset package has the same layout (docs/adding-a-ruleset.md): ``model`` the types, ``setup`` the
configuration and setup, ``rules`` the commands, ``evolve`` the fold, ``view`` what a viewer sees and
``greedy`` the bot's heuristic, ``determinize`` the search bot's sampling of a seat's view and ``evaluate`` its
score of a position, the modules a game may leave out. The protocols below are what mypy checks each module
against, so a package that misses a member, or names it differently, does not type-check.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from engine.contract import Actor, Deadline, ForfeitReason, Outcome, Ruleset, Viewer
from engine.rng import Rng


class Model(Protocol):
    # read-only, so that a module's classes match (a plain attribute would have to be exactly ``type``)
    @property
    def Config(self) -> type: ...
    @property
    def Options(self) -> type: ...
    @property
    def State(self) -> type: ...
    @property
    def View(self) -> type: ...
    @property
    def Command(self) -> Any: ...  # a union of command Structs
    @property
    def Event(self) -> Any: ...  # a union of event Structs


class Setup(Protocol):
    def configure(self, data: Any, /) -> Any: ...
    def initial(self, config: Any, /) -> Any: ...
    def setup(self, config: Any, rng: Rng, /) -> Sequence[Any]: ...


class Rules(Protocol):
    def precheck(self, state: Any, actor: Actor, kind: str, /) -> None: ...
    def decide_folded(self, state: Any, actor: Actor, command: Any, rng: Rng, /) -> tuple[Sequence[Any], Any]: ...
    def legal_commands(self, state: Any, seat: int, /) -> Sequence[Any]: ...
    def to_act(self, state: Any, /) -> tuple[int, ...]: ...
    def deadline(self, state: Any, /) -> Deadline | None: ...
    def outcome(self, state: Any, /) -> Outcome | None: ...
    def forfeit(self, seat: int, reason: ForfeitReason, /) -> Any: ...


class Fold(Protocol):
    def evolve(self, state: Any, event: Any, /) -> Any: ...


class Views(Protocol):
    def view(self, state: Any, viewer: Viewer, /) -> Any: ...
    def redact(self, event: Any, viewer: Viewer, /) -> Any: ...
    def hidden_cards(self, state: Any, viewer: Viewer, /) -> Sequence[str]: ...


class Greedy(Protocol):
    def greedy_score(self, view: Any, command: Any, /) -> float: ...


class Evaluate(Protocol):
    def evaluate(self, view: Any, seat: int, /) -> float: ...


class Determinize(Protocol):
    def determinize(self, view: Any, seat: int, rng: random.Random, /) -> Any: ...


def assemble(
    *,
    model: Model,
    setup: Setup,
    rules: Rules,
    evolve: Fold,
    view: Views,
    greedy: Greedy | None = None,
    determinize: Determinize | None = None,
    evaluate: Evaluate | None = None,
    **identity: Any,
) -> Ruleset:
    """The ruleset whose members come from these modules; ``identity`` holds the rest of ``Ruleset``'s
    keywords (id, version, title, card_data_hash, seats, presets, and what the game customises). Without a
    ``greedy`` module the greedy bot keeps the contract's default, every legal command alike."""
    if greedy is not None:
        identity["greedy_score"] = greedy.greedy_score
    if determinize is not None:
        identity["determinize"] = determinize.determinize
    if evaluate is not None:
        identity["evaluate"] = evaluate.evaluate
    return Ruleset(
        Config=model.Config, Options=model.Options, State=model.State, Command=model.Command,
        Event=model.Event, View=model.View,
        configure=setup.configure, initial=setup.initial, setup=setup.setup,
        precheck=rules.precheck, decide_folded=rules.decide_folded, legal_commands=rules.legal_commands,
        to_act=rules.to_act, deadline=rules.deadline, outcome=rules.outcome, forfeit=rules.forfeit,
        evolve=evolve.evolve,
        view=view.view, redact=view.redact, hidden_cards=view.hidden_cards,
        **identity,
    )  # fmt: skip
