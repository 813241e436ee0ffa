"""A second version of card_monsters, for the tests of hosting rulesets by (id, version): the shipped package
copied as a frozen package would be (docs/adding-a-ruleset.md, Changing a ruleset), with one changed card.

The ``card_monsters_v2`` fixture builds it once per run (an import is process-wide); ``hosting`` puts a ruleset in
the registry for a block and takes it out after: a release that bumps the version, then a server at older code.
"""

from __future__ import annotations

import contextlib
import importlib
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

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
    source = Path(card_monsters.__file__).parent
    target = root / PACKAGE
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
    for module in target.glob("*.py"):
        text = module.read_text().replace("engine.rulesets.card_monsters", PACKAGE)
        if module.name == "__init__.py":
            assert "version=1," in text
            text = text.replace("version=1,", "version=2,")
        module.write_text(text)
    cards = target / "cards.json"
    data = cards.read_bytes()
    assert data.count(_V1_CARD) == 1
    cards.write_bytes(data.replace(_V1_CARD, _V2_CARD))
    sys.path.insert(0, str(root))
    try:
        ruleset: Ruleset = importlib.import_module(PACKAGE).RULESET
    finally:
        sys.path.remove(str(root))
    assert (ruleset.id, ruleset.version) == ("card_monsters", 2)
    return ruleset


@pytest.fixture(scope="session")
def card_monsters_v2(tmp_path_factory: pytest.TempPathFactory) -> Ruleset:
    """card_monsters version 2, built but not hosted."""
    return build_version_2(tmp_path_factory.mktemp("rulesets"))


@contextlib.contextmanager
def hosting(ruleset: Ruleset) -> Iterator[None]:
    """Hosts ``ruleset`` beside the shipped versions within the block, as the newest of its id if it is."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(registry.HOSTED, (ruleset.id, ruleset.version), ruleset)
        if ruleset.version > registry.RULESETS[ruleset.id].version:
            patch.setitem(registry.RULESETS, ruleset.id, ruleset)
        yield
