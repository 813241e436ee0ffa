"""The few helpers immutable state needs: tuples changed by value."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def put(xs: tuple[T, ...], i: int, x: T) -> tuple[T, ...]:
    """``xs`` with index ``i`` replaced by ``x``."""
    return (*xs[:i], x, *xs[i + 1 :])


def drop(xs: tuple[T, ...], x: T) -> tuple[T, ...]:
    """``xs`` without the first occurrence of ``x``."""
    i = xs.index(x)
    return (*xs[:i], *xs[i + 1 :])


def insert(xs: tuple[T, ...], i: int, x: T) -> tuple[T, ...]:
    """``xs`` with ``x`` inserted before index ``i``."""
    return (*xs[:i], x, *xs[i:])
