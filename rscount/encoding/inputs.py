"""The predicted concepts of one example as inputs of the circuit compiler, over any gate algebra."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..knowledge.circuit import Dom, GateAlgebra
from ..task.model import Concept


def example_inputs(
    alg: GateAlgebra, concepts: Sequence[Concept], select: Callable[[int, int], Any]
) -> dict[str, Dom]:
    """The Dom of each predicted concept on one example: `select(j, u)` is the gate of "predicted
    concept j takes value number u" (for two-valued concepts only u = 1 is asked)."""
    inputs: dict[str, Dom] = {}
    for j, cj in enumerate(concepts):
        if len(cj.values) == 2:
            x = select(j, 1)
            inputs[cj.name] = {cj.values[0]: alg.neg(x), cj.values[1]: x}
        else:
            inputs[cj.name] = {v: select(j, u) for u, v in enumerate(cj.values)}
    return inputs
