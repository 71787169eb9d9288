"""The record of one count (what `--json` prints), and counts as text of any size.

Counts can have millions of digits (the joint count of a large task, eq. 7, or its jrs count). Python
refuses to convert ints of more than 4300 digits to text by default; rscount writes counts up to
MAX_DIGITS digits in full and larger ones as their exact closed-form expression.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..counting.result import CountResult
from ..task.model import Extractor, Mode, Task

MAX_DIGITS = 100_000


@contextmanager
def _digits_unlimited() -> Iterator[None]:
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def digits(count: int) -> int:
    """Number of decimal digits of a non-negative int (without converting it to text)."""
    if count < 10**15:
        return len(str(count))
    exponent = math.log10(count)
    nearest = round(exponent)
    if abs(exponent - nearest) < 1e-6:  # near a power of ten: decide exactly
        return int(nearest + (count >= 10**nearest))
    return int(exponent) + 1


def count_text(count: int) -> str | None:
    """The decimal digits of `count`, or None when it has more than MAX_DIGITS."""
    if digits(count) > MAX_DIGITS:
        return None
    with _digits_unlimited():
        return str(count)


def to_json(record: Any) -> str:
    """One JSON line (counts are JSON integers however long); `##[` inside a string written as
    `##\\u005b`, the same string, which a CI runner does not read as a command (rscount.sinks)."""
    with _digits_unlimited():
        return json.dumps(record).replace("##[", "##\\u005b")


PROMOTED = (
    "auto",
    "closed_form",
    "formula",
    "closed_forms_inapplicable",
    "intended",
    "joint_shortcuts",
    "cross_check",
    "guarantee",
)


@dataclass
class CountRecord:
    """One count as reported: the task's size, the count (None beyond MAX_DIGITS digits, when
    `count_expression` states it exactly), how it was counted, the CNF's size (None for closed
    forms), ApproxMC's settings for estimates, and why `auto` chose its method."""

    task: str
    mode: Mode
    count: int | None
    count_digits: int
    count_expression: str | None
    exact: bool
    method: str
    shortcuts: int | None
    has_shortcuts: bool
    seconds: float
    variables: int | None
    clauses: int | None
    map_variables: int | None
    concepts: int
    support_size: int
    supervised: int
    epsilon: float | None = None
    delta: float | None = None
    seed: int | None = None
    promoted: dict[str, Any] = field(default_factory=dict)  # the details of PROMOTED present
    details: dict[str, Any] = field(default_factory=dict)
    extractor: str | None = None  # the extractor the count assumes (None: joint and jrs modes)
    predicts: dict[str, int] = field(default_factory=dict)  # classes of the networks beyond the data's

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of `--json` (stable keys; epsilon, delta and seed only for estimates, the
        promoted details only where they apply)."""
        out: dict[str, Any] = {
            key: getattr(self, key)
            for key in (
                "task",
                "mode",
                "extractor",
                "predicts",
                "count",
                "count_digits",
                "count_expression",
                "exact",
                "method",
                "shortcuts",
                "has_shortcuts",
                "seconds",
                "variables",
                "clauses",
                "map_variables",
                "concepts",
                "support_size",
                "supervised",
            )
        }
        out["mode"] = str(self.mode)
        if not self.exact:
            out.update(epsilon=self.epsilon, delta=self.delta, seed=self.seed)
        out.update(self.promoted)
        out["details"] = self.details
        return out

    def full_count(self) -> int:
        """The count itself, also when it is stated only as an expression (> MAX_DIGITS digits): a
        number with that many digits compares the same with any expectation."""
        return self.count if self.count is not None else 10 ** (self.count_digits - 1)


def stated_extractor(extractor: str | None) -> str | None:
    """The extractor a record names: one in place (the modes' defaults go unsaid), else None."""
    return extractor if extractor is not None and Extractor(extractor).in_place else None


def counted_as(mode: Mode, extractor: str | None) -> str:
    """How a record says what was counted: the mode, and the extractor when it is in place."""
    stated = stated_extractor(extractor)
    return f"{mode} count, {stated} extractor" if stated else f"{mode} count"


def count_record(task: Task, result: CountResult, mode: Mode | None = None) -> CountRecord:
    """The record of `result`, a count of `task` in `mode` (default: the task's own)."""
    writable = digits(result.count) <= MAX_DIGITS
    size = result.cnf_size or {}
    return CountRecord(
        task=task.name,
        mode=mode or task.mode,
        extractor=task.extractor_name(mode or task.mode),
        predicts={name: len(classes) for name, classes in task.predicted_classes().items()},
        count=result.count if writable else None,
        count_digits=digits(result.count),
        count_expression=result.details.get("expression"),
        exact=result.exact,
        method=str(result.method),
        shortcuts=result.shortcuts if result.exact and writable else None,
        has_shortcuts=result.shortcuts > 0,
        seconds=round(result.seconds, 6),
        variables=size.get("variables"),
        clauses=size.get("clauses"),
        map_variables=size.get("map_variables"),
        concepts=len(task.concepts),
        support_size=task.support.size,
        supervised=len(task.support.supervised) + len(task.support.partial),
        epsilon=result.epsilon,
        delta=result.delta,
        seed=result.seed,
        promoted={key: _printable(result.details[key]) for key in PROMOTED if key in result.details},
        details={k: _printable(v) for k, v in result.details.items() if k not in (*PROMOTED, "expression")},
    )


def _printable(value: Any) -> Any:
    """A detail as reported: an integer too long to print (the jrs mode's joint_shortcuts) is None; the
    count's expression states it."""
    return None if isinstance(value, int) and digits(value) > MAX_DIGITS else value
