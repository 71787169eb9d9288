"""Expectations on a task's count (`expect:` in a task file), judged by `rscount report` and `check`.

Each expectation is a range of exact counts: `shortcuts: N` and `count: N` pin it, `max_count` and
`min_count` bound it. Shortcuts are what the count holds beyond its intended part: the identity map,
or in the jrs mode the intended pairs. An approximate count only says that the exact count lies in
[estimate/(1+eps), estimate*(1+eps)] (with probability >= 1-delta): an expectation then passes when
that whole range satisfies it, fails when none of it does, and is inconclusive otherwise.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from ..errors import TaskError, quote
from ..limits import number_text

KINDS = ("shortcuts", "count", "max_count", "min_count")


class PinStatus(StrEnum):
    """How one expectation fared, in the words of a task's verdict (rscount.insight.judging.Status)."""

    PASSED = "passed"
    FAILED = "failed"
    INCONCLUSIVE = "inconclusive"  # an estimate's interval straddles the bound: count exactly


def parse_expect(spec: Any, where: str = "expect") -> dict[str, int]:
    """The `expect:` section: a mapping of KINDS to non-negative integers."""
    if spec is None:
        return {}
    if not isinstance(spec, dict):
        raise TaskError(where, "expected a mapping such as {shortcuts: 0} or {max_count: 100}")
    for key, value in spec.items():
        if key not in KINDS:
            raise TaskError(f"{where}.{key}", f"unknown expectation (known: {', '.join(KINDS)})")
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise TaskError(f"{where}.{key}", f"expected a non-negative integer, got {quote(value)}")
    if "min_count" in spec and "max_count" in spec and spec["min_count"] > spec["max_count"]:
        raise TaskError(where, f"min_count {spec['min_count']} exceeds max_count {spec['max_count']}")
    return dict(spec)


@dataclass
class Outcome:
    """How one expectation fared: its status and a sentence saying which and by how much."""

    expectation: str
    expected: int
    status: PinStatus
    message: str

    @property
    def failed(self) -> bool:
        """Fails a task: a failed or an inconclusive expectation."""
        return self.status != PinStatus.PASSED

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: expectation, expected, status, message."""
        return {**asdict(self), "status": str(self.status)}


def _bounds(kind: str, n: int, intended: int) -> tuple[int, float]:
    """The exact counts an expectation allows, as [low, high]."""
    return {
        "shortcuts": (n + intended, n + intended),
        "count": (n, n),
        "max_count": (0, n),
        "min_count": (n, math.inf),
    }[kind]


def _miss(kind: str, n: int, count: int, intended: int) -> str:
    """Which expectation an exact count misses, and by how much (long numbers by their digits)."""
    t = number_text
    if kind == "shortcuts":
        found = count - intended
        return f"expected {n} shortcuts, found {t(found)} ({_signed(found - n)})"
    if kind == "count":
        return f"the count moved from {n} (pinned) to {t(count)} ({_signed(count - n)})"
    if kind == "max_count":
        ratio = f", {count / n:.3g}x" if n and count.bit_length() < 1000 else ""
        return f"max_count {n} exceeded: count {t(count)} ({t(count - n)} over{ratio})"
    return f"min_count {n} not reached: count {t(count)} ({n - count} short)"


def _signed(difference: int) -> str:
    """`+3`, `-4` (long numbers by their digits)."""
    return ("+" if difference > 0 else "") + number_text(difference)


def judge_pins(
    expect: dict[str, int], count: int, exact: bool, epsilon: float | None = None, intended: int = 1
) -> list[Outcome]:
    """The outcome of each expectation for a count (an estimate with `epsilon` when not exact) whose
    intended part is `intended` (1 map; in the jrs mode, the intended pairs)."""
    outcomes = []
    t = number_text
    for kind, n in expect.items():
        low, high = _bounds(kind, n, intended)
        if exact:
            ok = low <= count <= high
            message = f"{kind}: {n} holds (count {t(count)})" if ok else _miss(kind, n, count, intended)
            outcomes.append(Outcome(kind, n, PinStatus.PASSED if ok else PinStatus.FAILED, message))
            continue
        scale = 1 + Fraction(str(epsilon))
        least, most = math.ceil(count / scale), math.floor(count * scale)
        interval = f"the exact count is in [{t(least)}, {t(most)}] (estimate {t(count)}, epsilon {epsilon})"
        if low <= least and most <= high:
            status, verdict = PinStatus.PASSED, "holds"
        elif most < low or least > high:
            status, verdict = PinStatus.FAILED, "fails"
        else:
            status, verdict = PinStatus.INCONCLUSIVE, "is undecided (count exactly to decide)"
        outcomes.append(Outcome(kind, n, status, f"{kind}: {n} {verdict}: {interval}"))
    return outcomes
