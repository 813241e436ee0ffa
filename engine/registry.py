"""Every ruleset the engine hosts, by ``(id, version)``: explicit imports, no registration side effects.

A released version stays hosted when its ruleset changes (docs/adding-a-ruleset.md, Changing a ruleset): a
stored match and a replay are folded and decided with the version they were created with, never another. The
lookups run when a match is created or loaded and when a replay is read, never per command: a loaded match
holds its ``Ruleset``.
"""

from __future__ import annotations

from engine.contract import Ruleset
from engine.rulesets import aq, card_monsters, duel, voidlink, wulin

HOSTED: dict[tuple[str, int], Ruleset] = {
    (ruleset.id, ruleset.version): ruleset
    for ruleset in (aq.RULESET, card_monsters.RULESET, duel.RULESET, voidlink.RULESET, wulin.RULESET)
}
"""Every hosted version of every ruleset."""

RULESETS: dict[str, Ruleset] = {
    ruleset_id: max((r for (i, _), r in HOSTED.items() if i == ruleset_id), key=lambda r: r.version)
    for ruleset_id, _ in sorted(HOSTED)
}
"""The newest hosted version of each ruleset, by id: what a new match is created with unless it names one."""


REFERENCE = "card_monsters"
"""The game the service benchmarks play (bench/capacity.py, fanout.py, lifecycle.py, pairing.py, service.py):
one shared game keeps their figures comparable, and a bench names no game itself. It is the worked example
of docs/adding-a-ruleset.md; the bare server (bench/bare_server.py) answers with its commands."""


class Unhosted(KeyError):
    """No hosted ruleset has this id and version (and card data, when asked for)."""

    def __init__(self, ruleset_id: str, version: int, message: str) -> None:
        super().__init__(message)
        self.ruleset_id, self.version, self.message = ruleset_id, version, message

    def __str__(self) -> str:
        return self.message


def get(ruleset_id: str) -> Ruleset:
    """The newest version of the ruleset with this id, or ``KeyError`` naming the known ones."""
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(sorted(RULESETS))}") from None


def versions(ruleset_id: str) -> list[int]:
    """The hosted versions of a ruleset, oldest first (empty for an unknown id)."""
    return sorted(version for i, version in HOSTED if i == ruleset_id)


def exact(ruleset_id: str, version: int, card_data_hash: str | None = None) -> Ruleset:
    """The ruleset with this id and version, or ``Unhosted``. With ``card_data_hash``, a hosted version whose
    card data differs is not the one asked for either: it would fold the stream with other cards."""
    ruleset = HOSTED.get((ruleset_id, version))
    if ruleset is None:
        hosted = ", ".join(map(str, versions(ruleset_id))) or "none"
        raise Unhosted(
            ruleset_id, version, f"ruleset {ruleset_id!r} version {version} is not hosted here (hosted: {hosted})"
        )
    if card_data_hash is not None and ruleset.card_data_hash != card_data_hash:
        raise Unhosted(
            ruleset_id,
            version,
            f"{ruleset_id} version {version} here has card data {ruleset.card_data_hash[:12]}, "
            f"not {card_data_hash[:12]}",
        )
    return ruleset
