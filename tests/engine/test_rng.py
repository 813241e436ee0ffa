"""The match RNG against the published vectors (docs/rng.md)."""

import pytest

from engine.rng import ALL_ZERO_SEED, Rng, ScriptedRng

V1_FIRST_EIGHT = [
    11089159712056591428,
    5418713418326981195,
    3719963153679199566,
    13827978030964591860,
    15613362833681176083,
    17171159045594277798,
    11673489423490153386,
    11357203544835466856,
]
V2_FIRST_EIGHT = [
    3510613548038625525,
    11875230903760317701,
    13963789400171304562,
    17479648921965449963,
    3123202328010014532,
    14468161396772212874,
    4527939960147807814,
    14980186811365295996,
]


@pytest.mark.parametrize(("v", "expected"), [(1, V1_FIRST_EIGHT), (2, V2_FIRST_EIGHT)])
def test_first_eight_u64(v: int, expected: list[int]) -> None:
    rng = Rng(ALL_ZERO_SEED, v)
    assert [rng.next_u64() for _ in range(8)] == expected


def test_shuffle_of_ten() -> None:
    assert Rng(ALL_ZERO_SEED, 1).shuffle(range(10)) == [1, 0, 4, 7, 9, 3, 2, 6, 5, 8]


def test_twenty_draws_below_six() -> None:
    rng = Rng(ALL_ZERO_SEED, 1)
    assert [rng.randbelow(6) for _ in range(20)] == [0, 5, 0, 0, 3, 0, 0, 2, 4, 5, 5, 0, 0, 0, 3, 5, 0, 5, 5, 1]


def test_randbelow_rejects_the_biased_tail() -> None:
    class Tail(Rng):
        def __init__(self) -> None:
            super().__init__(ALL_ZERO_SEED, 1)
            self._values = [2**64 - 1, 7]

        def next_u64(self) -> int:
            return self._values.pop(0)

    assert Tail().randbelow(3) == 7 % 3


def test_randint_is_inclusive_and_choose_single_draws_nothing() -> None:
    rng = Rng(ALL_ZERO_SEED, 1)
    values = {rng.randint(1, 3) for _ in range(200)}
    assert values == {1, 2, 3}
    before = rng.draws
    assert rng.choose(["only"]) == "only"
    assert rng.draws == before


def test_scripted_rng_follows_its_script() -> None:
    rng = ScriptedRng([1, 0])
    assert rng.shuffle(["a", "b", "c"]) == ["c", "a", "b"]
    assert rng.randbelow(5) == 0
    with pytest.raises(ValueError):
        ScriptedRng([4]).randbelow(2)
