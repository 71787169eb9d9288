"""Source-tuples' factor CNFs stated two ways, side by side on one task: every row stamped from its
label template with fresh gates (how source-tuples stated them until 2026-11-27), and every row
compiled into one CNF whose operator gates are shared by the rows that read the same values (how it
states them now). For each source tuple of each label group: the clauses, the seconds to build the
CNF and hand it to MiniSat, and the seconds of the one satisfiability call that decides most
factors. Writes shared_gates.md.

    python benchmarks/shared_gates.py                                  # tasks/mnmath-disentangled.yaml
    python benchmarks/shared_gates.py --task tasks/mnmath.yaml --out /tmp/shared.md
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from suite import BENCH, REPO, environment

from rscount import sat
from rscount.counting.methods.source_tuples.refute import state_reading
from rscount.counting.methods.source_tuples.tuples import GroupShape, SourceTuples, _completed
from rscount.encoding.value_codes import Reading, ValueMapCoding
from rscount.knowledge.circuit import CNFBuilder, Shared, exactly_one
from rscount.knowledge.loading import load_task


def stamped(coding: ValueMapCoding, b: CNFBuilder, fact: Reading, codes: list[list[int]], group) -> bool:
    """The row's labels stamped from the group's template, with fresh gates."""
    template = coding.template(group, fact.values)
    if template is None:
        return False
    template.stamp(b, [x for code in codes for x in code])
    return True


def factor_cnf(
    coding: ValueMapCoding, shape: GroupShape, beta: tuple[int, ...], way: str
) -> tuple[int, float, float]:
    """Clauses, build seconds (into MiniSat included) and solve seconds of one tuple's factor."""
    start = time.perf_counter()
    pi = _completed(len(coding.sizes), shape.targets, beta)
    group = (list(shape.labels), list(shape.targets))
    b = CNFBuilder()
    onehot: dict[tuple[int, int], list[int]] = {}

    def code(i: int, v: int) -> list[int]:
        if (i, v) not in onehot:
            onehot[i, v] = [b.new_var() for _ in range(coding.sizes[pi[i]])]
            b.clauses.extend(exactly_one(onehot[i, v]))
        return onehot[i, v]

    shared = Shared()
    unsatisfiable = False
    for fact in coding.row_facts(pi, group):
        if isinstance(fact, Reading):
            codes = [code(i, v) for i, v in fact.pairs]
            ok = (
                stamped(coding, b, fact, codes, group)
                if way == "stamped"
                else state_reading(coding, b, group, fact, codes, shared)
            )
            if not ok:
                unsatisfiable = True
                break
        else:
            b.clauses.extend([code(i, v)[u]] for i, v, u in fact)
    with sat.solver(sat.REFUTE) as solver:
        solver.append_formula(b.clauses)
        built = time.perf_counter() - start
        start = time.perf_counter()
        if not unsatisfiable:
            solver.solve()
        return len(b.clauses), built, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default=str(REPO / "tasks" / "mnmath-disentangled.yaml"))
    parser.add_argument("--out", default=str(BENCH / "shared_gates.md"))
    args = parser.parse_args(argv)
    task = load_task(args.task)
    counter = SourceTuples(task)
    info, _ = environment(f"task {Path(args.task).name}, every source tuple of every label group")
    lines = ["# Source-tuples' factor CNFs: rows stamped from templates against rows sharing gates", ""]
    lines += [f"- **{k}**: {v}" for k, v in info.items()]
    lines += [
        "",
        "| label group | rows stated | tuples | clauses (median) | build s (sum) | SAT s (sum) | total s |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    k = len(task.concepts)
    for shape in counter.shapes:
        for way in ("stamped", "shared"):
            found = [factor_cnf(counter.coding, shape, beta, way) for beta in shape.tuples(range(k))]
            clauses = statistics.median(c for c, _, _ in found)
            built, solved = sum(b for _, b, _ in found), sum(s for _, _, s in found)
            lines.append(
                f"| {', '.join(shape.labels)} | {way} | {len(found)} | {clauses:.0f} | {built:.1f} "
                f"| {solved:.1f} | {built + solved:.1f} |"
            )
            print(lines[-1], flush=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
