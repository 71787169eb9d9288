"""Reach: the seed papers' tasks at the sizes they train on, each family at growing sizes, counted
by rscount (auto) and by the anchors on rscount's own DIMACS: GANAK (pyganak, projected on the map
variables) and ApproxMC on the whole CNF. Time and peak memory of every run; writes reach.md.

    python benchmarks/reach.py                      # everything, 60 s per run (about an hour)
    python benchmarks/reach.py --only sddoia --no-anchors --timeout 30
    python benchmarks/reach.py --anchors sddoia-64,cnf12    # anchors on those instances only
    python benchmarks/reach.py --ganak FILE.cnf     # (internal) GANAK on one DIMACS, count on stdout

Instances are drawn here, deterministically: SDD-OIA with its default rules and class-balanced
supports (tasks/make_rows.py, the physically possible scenes of tasks/sdd-oia.yaml), MNMath as in
appendix B.1 of seed 004 (8 digits 0-9, class-balanced; 40, 80, 120, 200 and 1000 rows), random
3-CNF on N bits with a sampled fraction of the vectors (as MNLogic), and exhaustive XOR-16 by
decompose.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tasks"))
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from make_rows import balanced_rows  # noqa: E402
from measure import recorded, run_measured  # noqa: E402

import rscount  # noqa: E402
from rscount.task.families import random_cnf  # noqa: E402

SDD_OIA_SCENES = "Equivalent(clear, ~(car | person | rider | other_obstacle)) & ~(red_light & green_light)"
MNMATH_LABELS = {
    "y1": "digit_1 + digit_2 == digit_3 + digit_4",
    "y2": "digit_5 * digit_6 == digit_7 * digit_8",
}
MNMATH_OBJECTS = {"count": 8, "attributes": {"digit": list(range(10))}}


@dataclass
class Instance:
    """One task to count: its family, a size to sort by, and either a task file or CLI arguments."""

    name: str
    family: str
    size: str
    args: list[str]  # rscount arguments (a task file or a built-in family) before the options
    method: list[str] = field(default_factory=list)  # rscount's own run only (the anchors have theirs)


def _write(directory: Path, name: str, data: dict[str, Any]) -> Path:
    path = directory / f"{name}.yaml"
    path.write_text(
        yaml.safe_dump({"name": name, **data}, sort_keys=False, default_flow_style=None, width=200)
    )
    return path


def instances(directory: Path, only: str = "") -> Iterator[Instance]:
    """The instances of the reach table whose name contains `only`, their task files written into
    `directory` (drawn only when wanted: class-balanced draws take up to a minute)."""
    sdd = yaml.safe_load((REPO / "tasks" / "sdd-oia.yaml").read_text())
    base = {key: sdd[key] for key in ("concepts", "labels")}
    for per, seed in ((4, 1), (4, 2), (8, 1), (8, 2), (64, 1), (64, 2), (256, 1), (512, 1)):
        name = f"sddoia-{per}-per-label-s{seed}"
        if only in name:
            draw = rscount.task_from_dict({**base, "support": {"examples": 1, "seed": 0}})
            classes, _ = balanced_rows(draw, per, seed, SDD_OIA_SCENES, 2_000_000)
            rows = [list(r) for group in classes.values() for r in group]
            path = _write(directory, name, {**base, "support": rows})
            yield Instance(name, "SDD-OIA", f"{len(rows)} rows", [str(path)])
    for per, seed in ((10, 1), (10, 2), (20, 1), (20, 2), (30, 1), (30, 2), (50, 1), (50, 2), (250, 1)):
        for mode in ("objects", "disentangled"):
            name = f"mnmath-{4 * per}-s{seed}-{mode}"
            if only in name:
                spec = {"objects": MNMATH_OBJECTS, "labels": MNMATH_LABELS}
                draw = rscount.task_from_dict({**spec, "support": {"examples": 1, "seed": 0}})
                classes, _ = balanced_rows(draw, per, seed, None, 2_000_000)
                rows = [list(r) for group in classes.values() for r in group]
                path = _write(directory, name, {"mode": mode, **spec, "support": rows})
                yield Instance(name, f"MNMath ({mode})", f"{len(rows)} rows", [str(path)])
    for bits, fraction in ((12, 0.05), (12, 0.5), (14, 0.02), (14, 0.5), (16, 0.01), (16, 0.5)):
        for seed in (1, 2):
            name = f"cnf{bits}-f{fraction}-s{seed}"
            if only in name:
                names = [f"c{i}" for i in range(1, bits + 1)]
                clauses = [
                    " | ".join(("" if lit > 0 else "~") + names[abs(lit) - 1] for lit in clause)
                    for clause in random_cnf(bits, 16, 3, seed)
                ]
                data = {
                    "concepts": {x: [0, 1] for x in names},
                    "labels": {"y": " & ".join(f"({c})" for c in clauses)},
                    "support": {"sample": fraction, "seed": seed},
                }
                path = _write(directory, name, data)
                size = f"{bits} bits, {fraction:.0%}"
                yield Instance(name, "random 3-CNF, 16 clauses", size, [str(path)])
    if only in "xor16-decompose":
        args, method = ["xor", "--bits", "16"], ["--method", "decompose"]
        yield Instance("xor16-decompose", "XOR (exhaustive)", "16 bits", args, method)


def _command(instance: Instance, timeout: float, extra: list[str]) -> list[str]:
    head = instance.args if instance.args[0] in ("xor", "and", "or") else ["count", *instance.args]
    return [
        sys.executable,
        "-m",
        "rscount.cli",
        *head,
        "--json",
        "--quiet",
        "--timeout",
        str(timeout),
        *extra,
    ]


def _outcome(run: Any) -> dict[str, Any]:
    """What one rscount run answered: its count (exact or not), or what it knew at the limit."""
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    record = json.loads(lines[-1]) if lines else {}
    out = {"seconds": round(run.wall_s, 1), "peak_mib": round(run.peak_mib), "exit": run.exit_code}
    if run.exit_code == 0:
        out.update(count=record.get("count"), exact=record.get("exact"), method=record.get("method"))
        out["expression"] = record.get("count_expression")
    elif "lower_bound" in record:
        out.update(lower_bound=record["lower_bound"], classes_done=record.get("classes_done"))
    return out


def ganak(path: str) -> None:
    """GANAK's count of a DIMACS file, projected on its `c ind` variables (all when none)."""
    import pyganak

    from rscount.formats import dimacs

    cnf = dimacs.load(path)
    counter = pyganak.Counter()
    counter.new_vars(cnf.num_vars)
    counter.add_clauses(cnf.clauses)
    counter.set_sampling_set(list(cnf.projection or range(1, cnf.num_vars + 1)))
    print(counter.count())


def measure(instance: Instance, timeout: float, anchors: bool, scratch: Path) -> dict[str, Any]:
    """rscount auto, then (with `anchors`) ApproxMC on the whole CNF and GANAK on the emitted DIMACS."""
    row: dict[str, Any] = {"name": instance.name, "family": instance.family, "size": instance.size}
    row["rscount"] = _outcome(run_measured(_command(instance, timeout, instance.method), REPO, timeout + 30))
    if not anchors:
        return row
    approx = _command(instance, timeout, ["--method", "approxmc"])
    row["approxmc"] = _outcome(run_measured(approx, REPO, timeout + 30))
    cnf = scratch / f"{instance.name}.cnf"
    emitted = run_measured(
        _command(instance, 2 * timeout, ["--emit", str(cnf), "--ind", "--force"]), REPO, 3 * timeout
    )
    if emitted.exit_code != 0:
        row["ganak"] = {"error": f"DIMACS not written in {2 * timeout:g} s"}
        return row
    run = run_measured([sys.executable, __file__, "--ganak", str(cnf)], REPO, timeout)
    row["ganak"] = {"seconds": round(run.wall_s, 1), "peak_mib": round(run.peak_mib), "killed": run.killed}
    if run.exit_code == 0 and run.stdout.strip():
        row["ganak"]["count"] = int(run.stdout.split()[-1])
    cnf.unlink()
    return row


def _cell(outcome: dict[str, Any] | None, timeout: float) -> str:
    if not outcome:
        return "-"
    if "error" in outcome:
        return outcome["error"]
    where = f"{outcome['seconds']} s, {outcome['peak_mib']} MiB"
    if outcome.get("count") is not None or outcome.get("expression"):
        kind = "exact" if outcome.get("exact", True) else "approx."
        return f"{where} ({kind}{', ' + outcome['method'] if outcome.get('method') else ''})"
    if "lower_bound" in outcome:
        return f"limit {timeout:g} s: >= {outcome['lower_bound']} ({outcome['classes_done']} classes)"
    return f"no answer in {timeout:g} s ({where})"


def markdown(rows: list[dict[str, Any]], timeout: float) -> str:
    """The table of reach.md."""
    lines = [
        "# Reach: the seed tasks at the sizes the papers train on",
        "",
        *recorded(f"python benchmarks/reach.py --timeout {timeout:g}"),
        f"time limit {timeout:g} s per run.",
        "",
        "Where the time goes in each family, and what would answer the rest: docs/performance.md.",
        "A run with `--update` replaces only what it measured: the anchors' columns keep the figures of",
        "the run that measured them (`-`: not run on that instance).",
        "",
        "| instance | family | size | count | rscount (auto) | GANAK (rscount's DIMACS) "
        "| ApproxMC (whole CNF) |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        mine = row["rscount"]
        count = mine.get("count") or mine.get("expression") or row.get("ganak", {}).get("count", "?")
        lines.append(
            f"| {row['name']} | {row['family']} | {row['size']} | {count} | {_cell(mine, timeout)} "
            f"| {_cell(row.get('ganak'), timeout)} | {_cell(row.get('approxmc'), timeout)} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--only", default="", help="instances whose name contains this")
    parser.add_argument("--no-anchors", action="store_true", help="rscount alone")
    parser.add_argument("--anchors", default="", help="comma-separated: anchors only on instances naming one")
    parser.add_argument("--out", default=str(REPO / "benchmarks" / "reach.md"))
    parser.add_argument(
        "--update", action="store_true", help="in the --out file's .json, replace only what was measured now"
    )
    parser.add_argument("--ganak", metavar="FILE.cnf", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.ganak:
        ganak(args.ganak)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        rows = []
        for instance in instances(scratch, args.only):
            wanted = not args.anchors or any(p in instance.name for p in args.anchors.split(","))
            rows.append(measure(instance, args.timeout, wanted and not args.no_anchors, scratch))
            print(json.dumps(rows[-1]), flush=True)
    record = Path(args.out).with_suffix(".json")
    if args.update and record.exists():
        new = {row["name"]: row for row in rows}
        old = json.loads(record.read_text())
        rows = [{**row, **new.pop(row["name"], {})} for row in old] + list(new.values())
    Path(args.out).write_text(markdown(rows, args.timeout))
    record.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
