"""The committed gRPC stubs match proto/ (regenerate with scripts/gen_proto.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_committed_stubs_are_generated_from_the_proto(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("gen_proto", ROOT / "scripts" / "gen_proto.py")
    assert spec is not None and spec.loader is not None
    gen_proto = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen_proto)
    generated = gen_proto.generate(tmp_path)
    names = {fresh.name for fresh in generated}
    expected = {
        f"{proto}_pb2{suffix}" for proto in ("duelhall", "tournament") for suffix in (".py", ".pyi", "_grpc.py")
    }
    assert expected <= names
    assert names == {path.name for path in (ROOT / "services" / "api").glob("*_pb2*")}, "stubs without a .proto"
    for fresh in generated:
        committed = ROOT / "services" / "api" / fresh.name
        assert committed.read_text() == fresh.read_text(), f"{fresh.name} is stale: run scripts/gen_proto.py"
