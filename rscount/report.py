"""Presenting a count: the human summary and the JSON object of `--json`.

Counts can have millions of digits (joint counts of large tasks). Python refuses to convert ints of
more than 4300 digits to text by default; rscount writes counts up to MAX_DIGITS digits in full and
larger ones as their exact closed-form expression.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .backends import CountResult
from .encoding import Encoding
from .task import Task

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
        return nearest + (count >= 10**nearest)
    return int(exponent) + 1


def count_text(count: int) -> str | None:
    """The decimal digits of `count`, or None when it has more than MAX_DIGITS."""
    if digits(count) > MAX_DIGITS:
        return None
    with _digits_unlimited():
        return str(count)


def to_json(record: dict[str, Any]) -> str:
    """One JSON line (counts are JSON integers however long)."""
    with _digits_unlimited():
        return json.dumps(record)


def result_record(
    task: Task, result: CountResult, encoding: Encoding | None = None, mode: str = "disentangled"
) -> dict[str, Any]:
    """The JSON-ready record of one count (stable keys; CNF sizes are null for closed forms; count is
    null when it has more than MAX_DIGITS digits, and count_expression then states it exactly)."""
    writable = digits(result.count) <= MAX_DIGITS
    record: dict[str, Any] = {
        "task": task.name,
        "mode": mode,
        "count": result.count if writable else None,
        "count_digits": digits(result.count),
        "count_expression": result.details.get("expression"),
        "exact": result.exact,
        "method": result.method,
        "shortcuts": result.count - 1 if result.exact and writable else None,
        "has_shortcuts": result.count > 1,
        "seconds": round(result.seconds, 6),
        "variables": encoding.cnf.num_vars if encoding else None,
        "clauses": len(encoding.cnf.clauses) if encoding else None,
        "map_variables": len(encoding.projection) if encoding else None,
        "concepts": len(task.concepts),
        "support_size": task.support.size,
        "supervised": len(task.support.supervised),
    }
    if not result.exact:
        record.update(epsilon=result.epsilon, delta=result.delta, seed=result.seed)
    promoted = ("auto", "closed_form", "formula", "closed_forms_inapplicable")
    for key in promoted:
        if key in result.details:
            record[key] = result.details[key]
    record["details"] = {k: v for k, v in result.details.items() if k not in (*promoted, "expression")}
    return record


def human_summary(record: dict[str, Any]) -> str:
    """A few lines a researcher reads: the count, whether there are shortcuts, how it was counted."""
    count = record["count"]
    lines = []
    if record["exact"] and count is None:
        lines.append(f"optimal concept maps: {record['count_expression']} ({record['count_digits']} digits)")
        lines.append("reasoning shortcuts: that count minus 1 (the task admits reasoning shortcuts)")
    elif record["exact"]:
        lines.append(f"optimal concept maps: {count_text(count)}")
        if count == 0:
            lines.append("reasoning shortcuts: none, and no map fits the labels (check the knowledge)")
        elif count == 1:
            lines.append("reasoning shortcuts: 0 (only the intended map fits: the task is free of shortcuts)")
        else:
            shortcuts = count_text(count - 1)
            lines.append(f"reasoning shortcuts: {shortcuts} (the task admits reasoning shortcuts)")
    else:
        eps, delta = record["epsilon"], record["delta"]
        lines.append(f"optimal concept maps: about {count}")
        lines.append(
            f"  guarantee: the exact count lies in [{count / (1 + eps):.6g}, {count * (1 + eps):.6g}] "
            f"with probability >= {1 - delta:g} (epsilon={eps}, delta={delta}, seed={record['seed']})"
        )
        if count / (1 + eps) > 1:
            verdict = f"the task admits reasoning shortcuts, with probability >= {1 - delta:g}"
        else:
            verdict = "the estimate cannot tell whether there are any: count exactly"
        lines.append(f"reasoning shortcuts: about {max(count - 1, 0)} ({verdict})")
    how = f"method: {record['method']} ({'exact' if record['exact'] else 'approximate'})"
    if "closed_form" in record:
        how += f": {record['closed_form']}, {record['formula']} = {record['count_expression']}"
    if "auto" in record:
        how += f", chosen as: {record['auto']}"
    lines.append(how + f"; {record['seconds']:.2f} s")
    if "closed_forms_inapplicable" in record:
        lines.append("no closed form applies: " + "; ".join(record["closed_forms_inapplicable"]))
    about = (
        f"task {record['task']} ({record['mode']} count): {record['concepts']} concepts, support "
        f"{record['support_size']} concept vectors ({record['supervised']} concept-supervised)"
    )
    if record["variables"] is not None:
        about += (
            f"; CNF {record['variables']} variables, {record['clauses']} clauses, "
            f"{record['map_variables']} map variables"
        )
    lines.append(about)
    return "\n".join(lines)
