"""proto/ ships Google's status.proto and error_details.proto: a client decodes ErrorInfo from proto/ alone."""

from __future__ import annotations

from pathlib import Path

from google.protobuf import descriptor_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_tools import protoc

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_error_protos_compile_and_match_the_runtime(tmp_path: Path) -> None:
    include = Path(protoc.__file__).parent / "_proto"  # only the protobuf well-known types
    out = tmp_path / "set.pb"
    assert (
        protoc.main(
            [
                "protoc",
                f"-I{ROOT / 'proto'}",
                f"-I{include}",
                f"--descriptor_set_out={out}",
                "google/rpc/status.proto",
                "google/rpc/error_details.proto",
            ]
        )
        == 0
    )
    files = {f.name: f for f in descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file}
    for runtime, name, message in [
        (status_pb2.Status, "google/rpc/status.proto", "Status"),
        (error_details_pb2.ErrorInfo, "google/rpc/error_details.proto", "ErrorInfo"),
    ]:
        shipped = next(m for m in files[name].message_type if m.name == message)
        assert [(f.name, f.number) for f in shipped.field] == [(f.name, f.number) for f in runtime.DESCRIPTOR.fields]
    for name in ("status.proto", "error_details.proto"):
        assert (ROOT / "proto" / "google" / "rpc" / name).read_text().startswith("// Copyright")
