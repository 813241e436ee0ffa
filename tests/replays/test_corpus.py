"""Every file of the replay corpus passes every check and renders every step, forever (CONTRIBUTING.md, "The replay
corpus"): a change that fails one is wrong, or it bumps the ruleset's version and keeps the old one hosted."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.registry import HOSTED
from replays.format import FORMAT_VERSION, READABLE_VERSIONS, decode_replay
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
    # A file written before hash chain 2 names its times and command records as not covered; later ones nothing.
    assert len(verdict.uncovered) == (2 if replay.format_version == 1 else 0)
    assert path.name.endswith(".json" if replay.format_version == 1 else f".format{replay.format_version}.json")
    assert path.parent.relative_to(CORPUS) == Path(replay.ruleset.id, f"v{replay.ruleset.version}")
    assert len(steps(replay, None)) == len(replay.events)


def test_every_hosted_version_has_corpus_files_of_the_current_format() -> None:
    """``python scripts/corpus.py`` writes them for a version that has none."""
    current = [p for p in FILES if p.name.endswith(f".format{FORMAT_VERSION}.json")]
    assert {(p.parent.parent.name, p.parent.name) for p in current} >= {(i, f"v{v}") for i, v in HOSTED}


def test_the_corpus_keeps_files_of_every_format() -> None:
    """Files a release wrote before the current format stay, and keep verifying (issue 39)."""
    assert {decode_replay(p.read_bytes()).format_version for p in FILES} == set(READABLE_VERSIONS)
