"""Every file of the replay corpus passes every check and renders every step, forever (CONTRIBUTING.md, "The replay
corpus"): a change that fails one is wrong, or it bumps the ruleset's version and keeps the old one hosted."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.registry import HOSTED
from replays.format import decode_replay
from replays.steps import steps
from replays.verify import CHECKS, verify_bytes

CORPUS = Path(__file__).parent / "corpus"
FILES = sorted(CORPUS.glob("*/v*/*.json"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(CORPUS)) for p in FILES])
def test_a_corpus_replay_passes_every_check_and_renders(path: Path) -> None:
    data = path.read_bytes()
    verdict = verify_bytes(data)
    assert verdict.ok and verdict.checks == list(CHECKS), verdict.failure
    replay = decode_replay(data)
    assert path.parent.relative_to(CORPUS) == Path(replay.ruleset.id, f"v{replay.ruleset.version}")
    assert len(steps(replay, None)) == len(replay.events)


def test_every_hosted_version_has_corpus_files() -> None:
    """``python scripts/corpus.py`` writes them for a version that has none."""
    assert {(p.parent.parent.name, p.parent.name) for p in FILES} >= {(i, f"v{v}") for i, v in HOSTED}
