"""Write a class-balanced sampled support into a task file (the files that say they were made so).

    python tasks/make_rows.py tasks/FILE.yaml --per-class N --seed S [--where EXPR] [--max-draws M]

Draws concept vectors uniformly from D (mixed-radix index, Python's random.Random(seed)), keeps
those for which EXPR holds (an expression in the task-file syntax, e.g. a constraint on the
concepts), groups them by the tuple of label values the file's knowledge gives, and keeps the first
N distinct vectors of every label tuple that occurs, in draw order, class by class (classes in
sorted order). A class that does not reach N rows within M draws is rare: its vectors (with EXPR) are
then listed by a SAT solver, and when there are at most 100000 of them, N are drawn uniformly from
the list (all of them when fewer); a class still short keeps what it got, and the summary on stderr
says so. The file's `support:` section (which must be its last top-level key) is replaced by
the rows, as flow lists in concept order; everything above it is kept as it is.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's rscount, not an installed one

from pysat.solvers import Solver

from rscount.knowledge.circuit import FALSE, compile_expr
from rscount.knowledge.copies import Copies
from rscount.knowledge.labels import label_values
from rscount.knowledge.loading import load_task
from rscount.task.expressions import evaluate, parse
from rscount.task.support import decode, domain_size

RARE_LIMIT = 100_000  # vectors a rare class may have to be listed by SAT and drawn from
MAX_CLASSES = 64  # label tuples all filled (drawn or not); beyond, only the classes drawn


def class_vectors(task, label: tuple, constraint, limit: int) -> list[tuple] | None:
    """Every vector (satisfying `constraint`) whose labels are `label`, in solver order, or None
    when there are more than `limit`."""
    copies = Copies(task.concepts, task.labels)
    inputs = copies.copy()
    b = copies.builder
    for dom, value in zip(copies.labels(inputs), label):
        b.add([dom.get(value, FALSE)])
    if constraint is not None:
        b.add([compile_expr(b, constraint, inputs, "--where").get(1, FALSE)])
    found = []
    with Solver(name="cadical153", bootstrap_with=b.clauses) as solver:
        while solver.solve():
            true = {lit for lit in solver.get_model() if lit > 0}
            row = tuple(
                next(v for v, g in inputs[c.name].items() if (g in true if g > 0 else -g not in true))
                for c in task.concepts
            )
            found.append(row)
            if len(found) > limit:
                return None
            solver.add_clause([-g for g in (inputs[c.name][v] for c, v in zip(task.concepts, row))])
    return found


def balanced_rows(task, per_class: int, seed: int, where: str | None, max_draws: int):
    """{label tuple: [rows]}, and the number of draws made."""
    domains = [c.values for c in task.concepts]
    values = [v for d in domains for v in d]
    constraint = parse(where, task.names, values, "--where") if where else None
    total = domain_size(domains)
    rng = random.Random(seed)
    classes: dict[tuple, dict[tuple, None]] = {}
    draws = 0
    while draws < max_draws:
        draws += 1
        row = decode(rng.randrange(total), domains)
        if constraint is not None and not evaluate(constraint, dict(zip(task.names, row))):
            continue
        kept = classes.setdefault(task.label_of(row), {})
        if len(kept) < per_class:
            kept[row] = None
        if draws % 1000 == 0 and len(classes) > 1 and all(len(k) >= per_class for k in classes.values()):
            break
    labels = set(classes)
    tuples = list(itertools.islice(itertools.product(*label_values(task).values()), MAX_CLASSES + 1))
    if len(tuples) <= MAX_CLASSES:  # few label tuples: each is a class to fill, drawn or not
        labels |= set(tuples)
    for label in sorted(labels, key=str):
        if len(classes.get(label, {})) < per_class:
            listed = class_vectors(task, label, constraint, RARE_LIMIT)
            if listed:  # sorted first, so that the draw does not depend on the solver's order
                chosen = rng.sample(sorted(listed, key=str), min(per_class, len(listed)))
                classes[label] = dict.fromkeys(chosen)
    return {label: list(rows) for label, rows in sorted(classes.items())}, draws


def render(task, classes: dict[tuple, list[tuple]], header: str) -> str:
    def value(v) -> str:
        return str(v) if isinstance(v, int) else v

    lines = [header, "support:"]
    labels = list(task.labels)
    for label, rows in classes.items():
        lines.append(f"  # {', '.join(f'{n}={v}' for n, v in zip(labels, label))}: {len(rows)} rows")
        lines.extend(f"  - [{', '.join(value(v) for v in row)}]" for row in rows)
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--per-class", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--where", default=None)
    parser.add_argument("--max-draws", type=int, default=2_000_000)
    args = parser.parse_args(argv)
    text = args.file.read_text()
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("support:")]
    if len(starts) != 1:
        raise SystemExit(f"{args.file}: expected exactly one top-level 'support:' line")
    head = lines[: starts[0]]
    later = [line for line in lines[starts[0] + 1 :] if line[:1].isalpha()]
    if later:
        raise SystemExit(f"{args.file}: 'support:' must be the last top-level key (found {later[0]!r})")
    # Load the file with a placeholder support: only concepts and labels are needed here.
    scratch = args.file.with_suffix(".scratch.yaml")
    scratch.write_text("\n".join(head) + "\nsupport: {examples: 1, seed: 0}\n")
    try:
        task = load_task(scratch)
    finally:
        scratch.unlink()
    classes, draws = balanced_rows(task, args.per_class, args.seed, args.where, args.max_draws)
    where = f" --where {args.where!r}" if args.where else ""
    header = (
        f"# Rows written by: python tasks/make_rows.py {args.file.name} --per-class {args.per_class} "
        f"--seed {args.seed}{where}"
    )
    kept_head = [line for line in head if not line.startswith("# Rows written by:")]
    args.file.write_text("\n".join(kept_head) + "\n" + render(task, classes, header))
    for label, rows in classes.items():
        short = "" if len(rows) >= args.per_class else "  (short of --per-class)"
        print(f"{dict(zip(task.labels, label))}: {len(rows)} rows{short}", file=sys.stderr)
    print(f"{draws} draws, {sum(map(len, classes.values()))} rows", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
