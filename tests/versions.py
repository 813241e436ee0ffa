"""A second version of card_monsters, for the tests of hosting rulesets by (id, version): the shipped package
copied as a frozen package would be (docs/adding-a-ruleset.md, Changing a ruleset), with one changed card; and
version 1 after a refactor that renames an event field, with its upcaster, for the tests of event schemas.

The ``card_monsters_v2`` and ``card_monsters_renamed`` fixtures build them once per run (an import is
process-wide); ``hosting`` puts a ruleset in the registry for a block and takes it out after: a release that bumps
the version, then a server at older code.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import registry
from engine.contract import Ruleset
from engine.rulesets import card_monsters

PACKAGE = "duelhall_test_card_monsters_v2"
CHANGED_CARD = "M01"
_V1_CARD = b'"id": "M01", "name": "Ember Brute", "colour": "red", "cost": 2, "max_hp": 7,'
_V2_CARD = b'"id": "M01", "name": "Ember Brute", "colour": "red", "cost": 2, "max_hp": 9,'


def build_version_2(root: Path) -> Ruleset:
    """card_monsters version 2: the package copied under ``root`` with Ember Brute's max HP 7 -> 9."""
    package = _copy(root, PACKAGE, 2)
    cards = package / "cards.json"
    data = cards.read_bytes()
    assert data.count(_V1_CARD) == 1
    cards.write_bytes(data.replace(_V1_CARD, _V2_CARD))
    ruleset = _imported(root, PACKAGE)
    assert (ruleset.id, ruleset.version) == ("card_monsters", 2)
    return ruleset


RENAMED_PACKAGE = "duelhall_test_card_monsters_renamed"
_OLD_FIELD = "    cost: int\n    crystals: int\n\n"
_NEW_FIELD = '    cost: int\n    crystals: int = msgspec.field(name="crystals_left")\n\n'


def crystals_left(event: dict[str, Any]) -> dict[str, Any]:
    """The upcaster of ``MonsterPlayed`` from schema 1 (``crystals``) to schema 2 (``crystals_left``)."""
    return {("crystals_left" if key == "crystals" else key): value for key, value in event.items()}


def build_renamed(root: Path) -> Ruleset:
    """card_monsters version 1 after a refactor that renames ``MonsterPlayed``'s ``crystals`` to ``crystals_left``
    in its JSON, without changing a rule: its schema 2, with the upcaster from schema 1; same id and version."""
    model = _copy(root, RENAMED_PACKAGE, 1) / "model.py"
    text = model.read_text()
    assert text.count(_OLD_FIELD) == 1  # MonsterPlayed's, the only event that ends with crystals
    model.write_text(text.replace(_OLD_FIELD, _NEW_FIELD))
    ruleset = dataclasses.replace(_imported(root, RENAMED_PACKAGE), upcasters={"MonsterPlayed": (crystals_left,)})
    assert ruleset.stored_types["MonsterPlayed"] == "MonsterPlayed@2"
    return ruleset


def _copy(root: Path, package: str, version: int) -> Path:
    """The shipped card_monsters (version 1) copied under ``root`` as ``package``, at ``version``."""
    target = root / package
    shutil.copytree(Path(card_monsters.__file__).parent, target, ignore=shutil.ignore_patterns("__pycache__"))
    for module in target.glob("*.py"):
        text = module.read_text().replace("engine.rulesets.card_monsters", package)
        if module.name == "__init__.py":
            assert "version=1," in text
            text = text.replace("version=1,", f"version={version},")
        module.write_text(text)
    return target


def _imported(root: Path, package: str) -> Ruleset:
    sys.path.insert(0, str(root))
    try:
        ruleset: Ruleset = importlib.import_module(package).RULESET
    finally:
        sys.path.remove(str(root))
    return ruleset


@pytest.fixture(scope="session")
def card_monsters_v2(tmp_path_factory: pytest.TempPathFactory) -> Ruleset:
    """card_monsters version 2, built but not hosted."""
    return build_version_2(tmp_path_factory.mktemp("rulesets"))


@pytest.fixture(scope="session")
def card_monsters_renamed(tmp_path_factory: pytest.TempPathFactory) -> Ruleset:
    """card_monsters version 1 with ``MonsterPlayed`` at schema 2 (a renamed field), built but not hosted."""
    return build_renamed(tmp_path_factory.mktemp("rulesets"))


@contextlib.contextmanager
def hosting(ruleset: Ruleset) -> Iterator[None]:
    """Hosts ``ruleset`` beside the shipped versions within the block, as the newest of its id if it is (in place
    of the shipped one at the same version: the same rules after a refactor)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(registry.HOSTED, (ruleset.id, ruleset.version), ruleset)
        if ruleset.version >= registry.RULESETS[ruleset.id].version:
            patch.setitem(registry.RULESETS, ruleset.id, ruleset)
        yield
