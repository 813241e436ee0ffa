"""Regenerates the Python gRPC stubs in services/api/ from proto/ (run after editing a .proto file).

The stubs are committed so that installing needs no code generation; tests/services/test_proto_stubs.py
fails when they are stale.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parent.parent
PROTOS = ("duelhall/v1/duelhall.proto", "duelhall/v1/tournament.proto")


def generate(out: Path) -> list[Path]:
    """Writes the stubs under ``out`` and returns the files written."""
    include = Path(protoc.__file__).parent / "_proto"
    args = [
        "protoc",
        f"-I{ROOT / 'proto'}",
        f"-I{include}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        *PROTOS,
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    generated = out / "duelhall" / "v1"
    files = []
    for path in sorted(generated.glob("*_pb2*")):
        text = path.read_text()
        # protoc writes absolute imports rooted at proto/; the stubs live inside services.api.
        text = re.sub(r"^from duelhall\.v1 import", "from services.api import", text, flags=re.M)
        target = out / path.name
        target.write_text(text)
        files.append(target)
    for path in generated.glob("*"):
        path.unlink()
    generated.rmdir()
    (out / "duelhall").rmdir()
    return files


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "services" / "api"
    for path in generate(out):
        print(path.relative_to(out.parent.parent) if out.is_relative_to(ROOT) else path)
