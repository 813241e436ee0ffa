"""The match random generator (docs/rng.md): exact, so any language can re-execute a replay.

Each command gets a fresh stream keyed by ``v``, the stream version of the first event it appends:
``block(i) = SHA-256(seed || b"v" + str(v) || i as 8-byte big-endian)``, four big-endian u64 per block.
Test vectors are published in docs/rng.md.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_U64 = 2**64


class Rng:
    """Deterministic generator for one command's stream; counts its draws."""

    def __init__(self, seed: bytes, v: int) -> None:
        self._prefix = seed + b"v" + str(v).encode()
        self._block = 0
        self._buffer: list[int] = []
        self.draws = 0

    def next_u64(self) -> int:
        if not self._buffer:
            digest = hashlib.sha256(self._prefix + self._block.to_bytes(8, "big")).digest()
            self._block += 1
            self._buffer = [int.from_bytes(digest[i : i + 8], "big") for i in (24, 16, 8, 0)]
        return self._buffer.pop()

    def randbelow(self, n: int) -> int:
        """Uniform integer in [0, n) by rejection sampling."""
        if n <= 0:
            raise ValueError("randbelow needs n >= 1")
        self.draws += 1
        limit = _U64 - (_U64 % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def randrange(self, n: int) -> int:
        return self.randbelow(n)

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi], both ends included."""
        return lo + self.randbelow(hi - lo + 1)

    def shuffle(self, xs: Sequence[T]) -> list[T]:
        """A shuffled copy: Fisher-Yates from the last index down."""
        out = list(xs)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def choose(self, xs: Sequence[T]) -> T:
        """One element; a single candidate is returned without drawing."""
        if len(xs) == 1:
            return xs[0]
        return xs[self.randbelow(len(xs))]


class ScriptedRng(Rng):
    """Returns scripted ``randbelow`` results in order (0 once the script runs out), for scenario tests."""

    def __init__(self, values: Sequence[int] = ()) -> None:
        super().__init__(b"", 0)
        self._values = list(values)

    def randbelow(self, n: int) -> int:
        self.draws += 1
        value = self._values.pop(0) if self._values else 0
        if not 0 <= value < n:
            raise ValueError(f"scripted value {value} outside [0, {n})")
        return value


ALL_ZERO_SEED = bytes(32)
