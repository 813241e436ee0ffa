import random
from typing import Any


def determinize(v: Any, seat: int, rng: random.Random) -> Any:
    raise NotImplementedError
