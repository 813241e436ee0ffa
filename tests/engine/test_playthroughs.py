"""The committed golden playthroughs match the rulesets' behaviour (scripts/playthroughs.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from engine.registry import RULESETS

ROOT = Path(__file__).resolve().parents[2]
HINT = "run `.venv/bin/python scripts/playthroughs.py` and review the diff"


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("playthroughs", ROOT / "scripts" / "playthroughs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


script = _load_script()


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_committed_playthrough_matches_the_ruleset(ruleset_id: str) -> None:
    path = script.path_for(ruleset_id)
    if not path.exists():
        pytest.fail(f"no golden playthrough {path.relative_to(ROOT)} for a registered ruleset; {HINT}", pytrace=False)
    name = path.relative_to(ROOT).as_posix()
    difference = script.diff(path.read_text(), script.transcript(RULESETS[ruleset_id]), name)
    if difference:
        pytest.fail(f"{name} differs from a fresh playthrough; {HINT}\n{script.short_diff(difference)}", pytrace=False)


def test_every_playthrough_belongs_to_a_registered_ruleset() -> None:
    assert script.strays() == [], f"playthroughs of unregistered rulesets; {HINT}"


def test_a_changed_view_shows_where_it_changed() -> None:
    view = '  seat 0 view {"viewer":0,' + '"pad":0,' * 100 + '"lp":8000}\n'
    lines = script.diff(f"step 1\n{view}", f"step 1\n{view.replace('8000', '7000')}", "x.txt")
    removed, added = script.short_diff(lines).splitlines()[-2:]
    assert removed.startswith('-  seat 0 view {"viewer":0,') and removed.endswith('"pad":0,"lp":8000}')
    assert added.startswith('+  seat 0 view {"viewer":0,') and added.endswith('"pad":0,"lp":7000}')
    assert len(removed) < 200 and len(added) < 200


def test_a_long_diff_is_cut_short() -> None:
    lines = script.diff("".join(f"line {i}\n" for i in range(100)), "".join(f"line {i}!\n" for i in range(100)), "x")
    short = script.short_diff(lines, max_lines=10)
    assert short.count("\n") == 11
    assert short.endswith("... 193 more diff lines\n")
