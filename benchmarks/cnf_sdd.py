"""Pure-CNF baseline: compile an emitted rscount DIMACS file with PySDD's generic CNF route, count.

Run as a program (the suite runs it as a separate, killable process):
    python benchmarks/cnf_sdd.py FILE.cnf [--vtree balanced] [--check-projection]
and read the JSON object on the last line of stdout (PySDD's reader prints a line of its own).

PySDD counts models over all manager variables. Every variable of rscount's CNF that is not a map
variable (the `c p show ... 0` line) is functionally determined by the map variables, so that count is
the projected count; --check-projection verifies this by existential quantification. PySDD's counter is
a C unsigned long long that wraps silently past 2^64: counts of 2^63 or more (told by a log-space
weighted count) are withheld.
"""

from __future__ import annotations

import argparse
import array
import json
import math
import sys
import time
from pathlib import Path

from pysdd.sdd import SddManager, SddNode

LIMIT_BITS = 63


def read_header(path: Path) -> tuple[int, int, list[int]]:
    """(variables, clauses, projection) of a DIMACS file, checked before the C reader sees it."""
    projection: list[int] = []
    with path.open() as handle:
        for line in handle:
            if line.startswith("c p show ") or line.startswith("c ind "):
                values = [int(t) for t in line.split()[2 if line.startswith("c ind") else 3 :]]
                if not values or values[-1] != 0:
                    raise ValueError(f"{path}: projection line does not end in 0")
                projection += values[:-1]
            elif line.startswith("p "):
                parts = line.split()
                if len(parts) != 4 or parts[1] != "cnf":
                    raise ValueError(f"{path}: malformed header {line.strip()!r}")
                return int(parts[2]), int(parts[3]), projection
            elif not line.startswith("c"):
                raise ValueError(f"{path}: clause before the 'p cnf' header")
    raise ValueError(f"{path}: no 'p cnf' header")


def exact_count(manager: SddManager, node: SddNode) -> int:
    """Models of `node` over all variables of `manager` as a Python int (no wrap), by one bottom-up
    pass over the decision nodes; used only to check the projection claim."""
    memo: dict[int, int] = {}

    def scaled(n: SddNode, width: int) -> int:
        if n.is_false():
            return 0
        if n.is_true():
            return 1 << width
        return memo[n.id] << (width - n.vtree().var_count())

    stack = [] if node.is_true() or node.is_false() else [node]
    while stack:
        n = stack[-1]
        if n.id in memo:
            stack.pop()
        elif n.is_literal():
            memo[n.id] = 1
            stack.pop()
        else:
            pending = [
                c
                for pair in n.elements()
                for c in pair
                if not (c.is_true() or c.is_false()) and c.id not in memo
            ]
            if pending:
                stack.extend(pending)
                continue
            vt = n.vtree()
            left, right = vt.left().var_count(), vt.right().var_count()
            memo[n.id] = sum(scaled(p, left) * scaled(s, right) for p, s in n.elements())
            stack.pop()
    return scaled(node, manager.vtree().var_count())


def check_projection(manager: SddManager, node: SddNode, projection: list[int]) -> dict[str, object]:
    """Count over all variables and count projected on `projection` (the others quantified away)."""
    n = manager.var_count()
    shown = set(projection)
    exists_map = array.array("i", [0] + [0 if v in shown else 1 for v in range(1, n + 1)])
    projected = manager.exists_multiple(exists_map, node)
    all_vars = exact_count(manager, node)
    on_projection = exact_count(manager, projected) >> (n - len(shown))
    return {"all_variables": all_vars, "projected": on_projection, "holds": all_vars == on_projection}


def main(argv: list[str] | None = None) -> int:
    """Compile, count, print one JSON line: count (null at 2^63 or more), seconds, SDD size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--vtree", default="balanced", help="PySDD vtree type (default balanced)")
    parser.add_argument("--check-projection", action="store_true", help="verify the projection claim")
    args = parser.parse_args(argv)
    num_vars, num_clauses, projection = read_header(args.file)
    start = time.perf_counter()
    manager, node = SddManager.from_cnf_file(bytes(args.file), args.vtree.encode())
    compiled = time.perf_counter() - start
    log2_count = node.wmc(log_mode=True).propagate() / math.log(2) if not node.is_false() else -math.inf
    wraps = log2_count >= LIMIT_BITS - 0.01
    count = None if wraps else manager.global_model_count(node)
    seconds = time.perf_counter() - start
    record: dict[str, object] = {
        "count": count,
        "log2_count": round(log2_count, 3) if math.isfinite(log2_count) else None,
        "count_withheld": f"at least 2^{LIMIT_BITS}: PySDD's C counter may wrap" if wraps else None,
        "exact": True,
        "method": "cnf-sdd",
        "seconds": round(seconds, 6),
        "compile_seconds": round(compiled, 6),
        "sdd_size": node.size(),
        "variables": num_vars,
        "clauses": num_clauses,
        "map_variables": len(projection),
    }
    if args.check_projection:
        record["projection_check"] = check_projection(manager, node, projection)
    print(json.dumps(record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
