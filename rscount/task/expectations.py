"""Expectations on a task's count (`expect:` in a task file), judged by `rscount report` and `check`.

Each expectation is a range of exact counts: `shortcuts: N` and `count: N` pin it, `max_count` and
`min_count` bound it. An approximate count only says that the exact count lies in
[estimate/(1+eps), estimate*(1+eps)] (with probability >= 1-delta): an expectation then passes when
that whole range satisfies it, fails when none of it does, and is inconclusive otherwise.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any

from ..errors import TaskError, quote

KINDS = ("shortcuts", "count", "max_count", "min_count")
PASS, FAIL, INCONCLUSIVE = "pass", "fail", "inconclusive"


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
    status: str
    message: str

    @property
    def failed(self) -> bool:
        """Fails a report: a failed or an inconclusive expectation."""
        return self.status != PASS

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: expectation, expected, status, message."""
        return asdict(self)


def _bounds(kind: str, n: int) -> tuple[int, float]:
    """The exact counts an expectation allows, as [low, high]."""
    return {
        "shortcuts": (n + 1, n + 1),
        "count": (n, n),
        "max_count": (0, n),
        "min_count": (n, math.inf),
    }[kind]


def _miss(kind: str, n: int, count: int) -> str:
    """Which expectation an exact count misses, and by how much."""
    if kind == "shortcuts":
        return f"expected {n} shortcuts, found {count - 1} ({count - 1 - n:+d})"
    if kind == "count":
        return f"the count moved from {n} (pinned) to {count} ({count - n:+d})"
    if kind == "max_count":
        ratio = f", {count / n:.3g}x" if n else ""
        return f"max_count {n} exceeded: count {count} ({count - n} over{ratio})"
    return f"min_count {n} not reached: count {count} ({n - count} short)"


def judge(expect: dict[str, int], count: int, exact: bool, epsilon: float | None = None) -> list[Outcome]:
    """The outcome of each expectation for a count (an estimate with `epsilon` when not exact)."""
    outcomes = []
    for kind, n in expect.items():
        low, high = _bounds(kind, n)
        if exact:
            ok = low <= count <= high
            message = f"{kind}: {n} holds (count {count})" if ok else _miss(kind, n, count)
            outcomes.append(Outcome(kind, n, PASS if ok else FAIL, message))
            continue
        scale = 1 + Fraction(str(epsilon))
        least, most = math.ceil(count / scale), math.floor(count * scale)
        interval = f"the exact count is in [{least}, {most}] (estimate {count}, epsilon {epsilon})"
        if low <= least and most <= high:
            status, verdict = PASS, "holds"
        elif most < low or least > high:
            status, verdict = FAIL, "fails"
        else:
            status, verdict = INCONCLUSIVE, "is undecided (count exactly to decide)"
        outcomes.append(Outcome(kind, n, status, f"{kind}: {n} {verdict}: {interval}"))
    return outcomes
