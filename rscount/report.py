"""Presenting a count: the human summary and the JSON object of `--json`."""

from __future__ import annotations

from typing import Any

from .backends import CountResult
from .encoding import Encoding


def result_record(encoding: Encoding, result: CountResult) -> dict[str, Any]:
    """The JSON-ready record of one count (stable keys)."""
    task = encoding.task
    record: dict[str, Any] = {
        "task": task.name,
        "count": result.count,
        "exact": result.exact,
        "method": result.method,
        "shortcuts": result.count - 1 if result.exact else None,
        "has_shortcuts": result.count > 1,
        "seconds": round(result.seconds, 6),
        "variables": encoding.cnf.num_vars,
        "clauses": len(encoding.cnf.clauses),
        "map_variables": len(encoding.projection),
        "concepts": len(task.concepts),
        "support_size": task.support.size,
        "supervised": len(task.support.supervised),
    }
    if not result.exact:
        record.update(epsilon=result.epsilon, delta=result.delta, seed=result.seed)
    if "auto" in result.details:
        record["auto"] = result.details["auto"]
    return record


def human_summary(record: dict[str, Any]) -> str:
    """A few lines a researcher reads: the count, whether there are shortcuts, how it was counted."""
    count = record["count"]
    lines = []
    if record["exact"]:
        lines.append(f"optimal concept maps: {count}")
        if count == 0:
            lines.append("reasoning shortcuts: none, and no map fits the labels (check the knowledge)")
        elif count == 1:
            lines.append("reasoning shortcuts: 0 (only the intended map fits: the task is free of shortcuts)")
        else:
            lines.append(f"reasoning shortcuts: {count - 1} (the task admits reasoning shortcuts)")
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
    if "auto" in record:
        how += f", picked by auto: {record['auto']}"
    lines.append(how + f"; {record['seconds']:.2f} s")
    lines.append(
        f"task {record['task']}: {record['concepts']} concepts, support {record['support_size']} "
        f"concept vectors ({record['supervised']} concept-supervised); CNF {record['variables']} "
        f"variables, {record['clauses']} clauses, {record['map_variables']} map variables"
    )
    return "\n".join(lines)
