"""Robustness: rscount (auto) side by side with the naive brute force and GANAK, on the same instances
in one run, so that the ratios hold however loaded the machine is; writes robustness.md and .json.

    python benchmarks/robustness.py --ganak-site /work/ganak-site          # everything, 60 s per run
    python benchmarks/robustness.py --timeout 30 --only mnmath-20 --ganak-site DIR
    python benchmarks/robustness.py --brute FILE.yaml       # (internal) brute force, JSON on stdout
    python benchmarks/robustness.py --ganak FILE.cnf        # (internal) GANAK, count on stdout

Instances: MNMath (reach.py's: 8 digits 0-9, y1 = d1+d2 == d3+d4, y2 = d5*d6 == d7*d8) in the objects
and the disentangled mode at 20, 40, 80, 120, 200 and 1000 rows, drawn uniformly from the 10^8 digit
vectors or class-balanced (tasks/make_rows.py, rows/4 per label tuple), seeds 1, 2 and 3; program
corpus tasks (tasks/*.yaml as they are); a few of each family of reach.py's instances.
Per instance: `rscount count FILE --json --quiet --timeout T`; the brute force of
tests/references/bruteforce.py (brute_force_seen, disentangled; a subprocess killed at T); GANAK
(pyganak, from --ganak-site, never the main environment) on rscount's `--emit FILE --ind` DIMACS.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))  # the references (they import nothing from rscount)
sys.path.insert(0, str(REPO / "tasks"))
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from make_rows import balanced_rows  # noqa: E402
from measure import Run, recorded, run_measured  # noqa: E402
from reach import MNMATH_LABELS, MNMATH_OBJECTS, Instance, _command, _outcome, _write  # noqa: E402
from reach import ganak as reach_ganak  # noqa: E402
from reach import instances as reach_instances  # noqa: E402
from suite import GRACE_S, _git, last_json, load_average  # noqa: E402

import rscount  # noqa: E402
from rscount.task.support import decode  # noqa: E402

MNMATH_SIZES = (20, 40, 80, 120, 200, 1000)
DRAWS = ("uniform", "balanced")
SEEDS = (1, 2, 3)
MODES = ("objects", "disentangled")
DIGITS = tuple(range(10))
CORPUS = (
    "poker",
    "hwf3",
    "hwf3-nodiv",
    "mnadd-n2",
    "mnadd-n3-d3",
    "mnadd-n4-d2",
    "noisy-addition",
    "forth-add",
    "markov-chain",
)
REACH = (  # a few of each of reach.py's families (its MNMath instances are the balanced ones here)
    "sddoia-4-per-label-s1",
    "sddoia-64-per-label-s1",
    "cnf12-f0.05-s1",
    "cnf14-f0.5-s1",
    "cnf16-f0.01-s1",
    "xor16-decompose",
)
OBJECTS_BRUTE = "-: objects brute force (brute_force_objects) enumerates 8! x 10^10 maps"
DISAGREEMENTS = Path("/work/robustness-disagreements")
# Where rscount and the brute force both answer within QUICK_S, a single run is mostly start-up and
# noise (hwf3: 1.4 to 2.1 s for the same command on the same machine within a minute), so each is run
# REPEATS times, the two alternating, and the median is recorded.
QUICK_S = 5.0
REPEATS = 5
BIG_CAPS = {"RSCOUNT_MAX_CONCEPTS": "1000000000", "RSCOUNT_MAX_CLAUSES": "1000000000"}  # GANAK's read


@dataclass
class Case(Instance):
    """A reach.py instance with what this table adds: rows, draw, seed, and why no brute force runs."""

    rows: int = 0
    draw: str = ""
    seed: int | None = None
    no_brute: str = ""  # empty: the brute force runs; else the reason shown in its column


def mnmath_label(c: tuple[Any, ...]) -> tuple[bool, bool]:
    """MNMath's labels in plain Python (the brute force's, independent of rscount's evaluator)."""
    return (c[0] + c[1] == c[2] + c[3], c[4] * c[5] == c[6] * c[7])


def mnmath_rows(rows: int, draw: str, seed: int) -> list[tuple[int, ...]]:
    """`rows` distinct digit vectors: uniform over all 10^8 (random.Random(seed)), or class-balanced
    (make_rows.balanced_rows, rows/4 per label tuple, as reach.py draws them)."""
    if draw == "uniform":
        return [decode(i, [DIGITS] * 8) for i in random.Random(seed).sample(range(10**8), rows)]
    spec = {"objects": MNMATH_OBJECTS, "labels": MNMATH_LABELS, "support": {"examples": 1, "seed": 0}}
    classes, _ = balanced_rows(rscount.task_from_dict(spec), rows // 4, seed, None, 2_000_000)
    return [row for group in classes.values() for row in group]


def instances(
    directory: Path, only: Sequence[str] = (), big_seeds: tuple[int, ...] = SEEDS
) -> Iterator[Case]:
    """The instances whose name contains one of `only` (all if empty), their task files written into
    `directory`; the 1000-row MNMath draws only for the seeds `big_seeds`."""

    def wanted(name: str) -> bool:
        return not only or any(part in name for part in only)

    for rows in MNMATH_SIZES:
        for draw in DRAWS:
            for seed in big_seeds if rows == 1000 else SEEDS:
                names = {mode: f"mnmath-{rows}-{draw}-s{seed}-{mode}" for mode in MODES}
                if not any(wanted(name) for name in names.values()):
                    continue
                support = [list(r) for r in mnmath_rows(rows, draw, seed)]
                for mode, name in names.items():
                    if wanted(name):
                        spec = {"mode": mode, "objects": MNMATH_OBJECTS, "labels": MNMATH_LABELS}
                        path = _write(directory, name, {**spec, "support": support})
                        no_brute = OBJECTS_BRUTE if mode == "objects" else ""
                        size = f"{len(support)} rows"
                        family = f"MNMath ({mode})"
                        yield Case(name, family, size, [str(path)], [], len(support), draw, seed, no_brute)
    for name in CORPUS:
        if wanted(name):
            path = REPO / "tasks" / f"{name}.yaml"
            rows = len(rscount.load_task(path).support.rows)
            yield Case(name, "program corpus", f"{rows} rows", [str(path)], [], rows, "file")
    for name in REACH:
        if wanted(name):
            for instance in reach_instances(directory, name):
                if instance.name == name:
                    file = instance.args[0].endswith(".yaml")
                    rows = len(rscount.load_task(instance.args[0]).support.rows) if file else 2**16
                    why = "" if file else "-: built-in family, no task file (16! permutations)"
                    yield Case(**asdict(instance), rows=rows, draw="reach.py", no_brute=why)


def labelling(task: Any, stem: str) -> tuple[list[tuple[Any, ...]], Callable[[tuple[Any, ...]], Any]]:
    """The brute force's domains and label function: plain Python for MNMath and the program corpus
    (tests/references/programs.py), the task's own labels (rscount's evaluator) elsewhere."""
    from references.programs import REFERENCES

    names = [c.name for c in task.concepts]
    if stem.startswith("mnmath"):
        assert names == [f"digit_{i}" for i in range(1, 9)], names
        return [DIGITS] * 8, mnmath_label
    if stem in REFERENCES:
        reference = REFERENCES[stem]
        assert names == [name for name, _ in reference.concepts], (names, reference.concepts)
        return [tuple(values) for _, values in reference.concepts], reference.label
    return [tuple(c.values) for c in task.concepts], task.label_of


def brute(path: str) -> None:
    """The naive brute force on one task file (disentangled, its support rows, no supervision):
    one JSON line with the count and the search's own seconds."""
    from references.bruteforce import brute_force_seen

    task = rscount.load_task(path)
    domains, label = labelling(task, Path(path).stem)
    start = time.perf_counter()
    count = brute_force_seen(domains, label, task.support.rows, set(), by_rows=True)
    print(json.dumps({"count": count, "seconds": round(time.perf_counter() - start, 3)}))


def ganak(path: str) -> None:
    """reach.py's GANAK run on one DIMACS (pyganak from PYTHONPATH, rscount's reader with raised caps);
    the time spent reading the file goes to stderr, to tell a limit reached reading from one counting."""
    from rscount.formats import dimacs

    load = dimacs.load

    def timed_load(file: str) -> Any:
        start = time.perf_counter()
        cnf = load(file)
        print(f"read_seconds {time.perf_counter() - start:.2f}", file=sys.stderr, flush=True)
        return cnf

    dimacs.load = timed_load
    reach_ganak(path)


def _rscount(run: Run) -> dict[str, Any]:
    """reach.py's outcome of an rscount run, plus its own seconds and an upper bound at the limit."""
    out = _outcome(run)
    if run.exit_code not in (0, 3):  # 3: stopped at the limit
        out["error"] = (run.stderr.strip().splitlines() or [f"exit code {run.exit_code}"])[-1][:300]
    out["seconds"] = round(run.wall_s, 2)
    record = last_json(run.stdout) or {}
    for key in ("upper_bound", "stopped", "error", "estimate", "estimate_low", "estimate_high"):
        if key in record:
            out[key] = record[key]
    if "seconds" in record:
        out["method_seconds"] = round(record["seconds"], 3)
    return out


def _answered(outcome: dict[str, Any] | None) -> bool:
    """Whether a column gave an exact count."""
    return bool(outcome) and outcome.get("count") is not None and outcome.get("exact", True) is not False


def _ratio(other: dict[str, Any] | None, mine: dict[str, Any]) -> float | None:
    """other's wall time over rscount's, where both answered."""
    if _answered(other) and _answered(mine):
        return round(other["seconds"] / mine["seconds"], 3)
    return None


def _run_brute(case: Case, timeout: float) -> dict[str, Any]:
    """The brute force column: a subprocess killed at the limit."""
    if case.no_brute:
        return {"not_run": case.no_brute}
    run = run_measured([sys.executable, __file__, "--brute", case.args[0]], REPO, timeout)
    out: dict[str, Any] = {"seconds": round(run.wall_s, 2), "peak_mib": round(run.peak_mib)}
    record = last_json(run.stdout)
    if run.exit_code == 0 and record:
        out.update(record, search_seconds=record["seconds"], seconds=out["seconds"])
    elif run.killed:
        out["killed"] = True
    else:
        out["error"] = (run.stderr.strip().splitlines() or [f"exit code {run.exit_code}"])[-1][:200]
    return out


def _run_ganak(
    case: Case, timeout: float, site: str | None, scratch: Path, where: Path
) -> tuple[dict[str, Any], Path]:
    """The GANAK column: rscount (run in `where`) emits its DIMACS (limit 2T), GANAK counts it in a
    subprocess killed at T."""
    cnf = scratch / f"{case.name}.cnf"
    if not site:
        return {"not_run": "not run (no --ganak-site)"}, cnf
    emit = run_measured(
        _command(case, 2 * timeout, ["--emit", str(cnf), "--ind", "--force"]), where, 3 * timeout
    )
    record = last_json(emit.stdout) or {}
    out: dict[str, Any] = {"emit_seconds": round(emit.wall_s, 2)}
    out.update({k: record[k] for k in ("variables", "clauses", "map_variables") if k in record})
    if emit.exit_code != 0 or not cnf.exists():
        out["error"] = f"DIMACS not written in {2 * timeout:g} s"
        return out, cnf
    path = os.pathsep.join(p for p in (site, os.environ.get("PYTHONPATH", "")) if p)
    env = [f"{key}={value}" for key, value in {"PYTHONPATH": path, **BIG_CAPS}.items()]
    run = run_measured(["env", *env, sys.executable, __file__, "--ganak", str(cnf)], REPO, timeout)
    out.update(seconds=round(run.wall_s, 2), peak_mib=round(run.peak_mib))
    read = [line.split()[1] for line in run.stderr.splitlines() if line.startswith("read_seconds ")]
    out["read_seconds"] = float(read[0]) if read else None  # None: still reading at the limit
    last = run.stdout.split()[-1:] if run.exit_code == 0 else []
    if last and last[0].isdigit():
        out["count"] = int(last[0])
    elif run.killed:
        out["killed"] = True
    else:
        out["error"] = (run.stderr.strip().splitlines() or [f"exit code {run.exit_code}"])[-1][:200]
    return out, cnf


def _repeat_quick(row: dict[str, Any], case: Case, timeout: float, where: Path) -> None:
    """Rerun rscount and the brute force, alternating, until each ran REPEATS times; record the
    median wall time of each (and every run's)."""
    walls = {"rscount": [row["rscount"]["seconds"]], "brute": [row["brute"]["seconds"]]}
    for _ in range(REPEATS - 1):
        run = run_measured(_command(case, timeout, []), where, timeout + GRACE_S)
        walls["rscount"].append(round(run.wall_s, 2))
        walls["brute"].append(_run_brute(case, timeout)["seconds"])
    for key, seen in walls.items():
        row[key].update(seconds=statistics.median(seen), runs=seen)


def measure(case: Case, timeout: float, site: str | None, scratch: Path, where: Path) -> dict[str, Any]:
    """One row: rscount (its CLI run in `where`), the brute force and GANAK on one instance, the ratios,
    and any disagreement (its task file and DIMACS then kept under /work/robustness-disagreements/)."""
    row: dict[str, Any] = {k: getattr(case, k) for k in ("name", "family", "size", "rows", "draw", "seed")}
    rscount_run = run_measured(_command(case, timeout, []), where, timeout + GRACE_S)
    row["rscount"] = _rscount(rscount_run)
    row["brute"] = _run_brute(case, timeout)
    if all(_answered(row[k]) and row[k]["seconds"] < QUICK_S for k in ("rscount", "brute")):
        _repeat_quick(row, case, timeout, where)
    row["ganak"], cnf = _run_ganak(case, timeout, site, scratch, where)
    row["brute_over_rscount"] = _ratio(row["brute"], row["rscount"])
    row["ganak_over_rscount"] = _ratio(row["ganak"], row["rscount"])
    counts = {k: row[k]["count"] for k in ("rscount", "brute", "ganak") if _answered(row[k])}
    row["count"] = next(iter(counts.values()), None)
    if len(set(counts.values())) > 1:
        row["disagreement"] = counts
        DISAGREEMENTS.mkdir(parents=True, exist_ok=True)
        for file in (Path(case.args[0]), cnf):
            if file.is_file():
                shutil.copy(file, DISAGREEMENTS / file.name)
    cnf.unlink(missing_ok=True)
    return row


def _cell(outcome: dict[str, Any]) -> str:
    """One column of the table: time and method, the bounds at the limit, or why there is none."""
    if "not_run" in outcome:
        return outcome["not_run"].split(":")[0]
    if "error" in outcome and not _answered(outcome):
        return f"error: {outcome['error']}"
    if _answered(outcome):
        return f"{outcome['seconds']} s" + (f" ({outcome['method']})" if outcome.get("method") else "")
    bounds = ""
    if "lower_bound" in outcome or "upper_bound" in outcome:
        bounds = f": [{outcome.get('lower_bound', '?')}, {outcome.get('upper_bound', '?')}]"
    if "estimate" in outcome:
        bounds += f"; sampled: [{outcome['estimate_low']:.2e}, {outcome['estimate_high']:.2e}] at 99%"
    reading = " reading the DIMACS" if "read_seconds" in outcome and outcome["read_seconds"] is None else ""
    return f"limit ({outcome.get('seconds', '?')} s{reading}){bounds}"


def _ratio_text(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def summary(rows: list[dict[str, Any]]) -> list[str]:
    """How many instances each column answered, the median ratios, slower-than-brute cases, and
    disagreements."""
    lines = ["| column | answered | median ratio to rscount (both answered) |", "|---|---|---|"]
    for key, title, ratio in (
        ("rscount", "rscount (auto)", None),
        ("brute", "brute force", "brute_over_rscount"),
        ("ganak", "GANAK", "ganak_over_rscount"),
    ):
        tried = [r for r in rows if "not_run" not in r[key]]
        ratios = [r[ratio] for r in rows if ratio and r[ratio] is not None]
        median = f"{statistics.median(ratios):g} over {len(ratios)}" if ratios else "-"
        answered = sum(_answered(r[key]) for r in rows)
        lines.append(f"| {title} | {answered} of {len(tried)} run ({len(rows)} instances) | {median} |")
    slower = [r for r in rows if r["brute_over_rscount"] is not None and r["brute_over_rscount"] < 1]
    lines += ["", f"rscount slower than the brute force: {len(slower)} instance(s)."]
    lines += [
        f"- {r['name']}: rscount {r['rscount']['seconds']} s, brute force {r['brute']['seconds']} s "
        f"(search alone {r['brute'].get('search_seconds', '?')} s)"
        for r in slower
    ]
    only_mine = [
        r
        for r in rows
        if _answered(r["rscount"]) and not _answered(r["brute"]) and "not_run" not in r["brute"]
    ]
    lines.append(f"\nrscount answered where the brute force reached the limit: {len(only_mine)} instance(s).")
    beaten = [
        r["name"]
        for r in rows
        if not _answered(r["rscount"]) and (_answered(r["brute"]) or _answered(r["ganak"]))
    ]
    lines.append(f"Another column answered where rscount did not: {', '.join(beaten) or 'none'}.")
    bad = [r for r in rows if "disagreement" in r]
    lines.append(
        f"Count disagreements: {len(bad)}" + ("" if not bad else f" (files under {DISAGREEMENTS}/).")
    )
    lines += [f"- **{r['name']}**: {r['disagreement']}" for r in bad]
    return lines


def markdown(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    """robustness.md: header, summary, then one row per instance."""
    lines = [
        "# Robustness: rscount beside the naive brute force and GANAK",
        "",
        *recorded(meta["command"]),
        f"rscount at commit {meta['commit']}; time limit {meta['timeout']:g} s per run; load average "
        f"{meta['load_start']} at the start, {meta.get('load_end', '?')} at the end; "
        f"{meta.get('minutes', '?')} min in all{'' if meta.get('complete') else ' (partial)'}.",
        "",
        *meta["notes"],
        "",
        "Times are wall seconds of each subprocess (interpreter start-up and reading the task included;",
        f"the median of {REPEATS} alternating runs where rscount and the brute force both answered",
        f"under {QUICK_S:g} s);",
        "ratios are the other column's time over rscount's, where both gave an exact count. `limit`: the",
        "run reached the time limit (rscount's lower and upper bounds at that point in brackets, `?` where",
        "it had none; `sampled`: the interval rscount's sampled estimate gives with probability at least",
        "0.99; GANAK: `reading the DIMACS` when its Python reader had not finished); `-`: not run.",
        "",
        "## Summary",
        "",
        *summary(rows),
        "",
        "## Instances",
        "",
        "| instance | family | rows | draw | seed | count | rscount | brute force | GANAK | brute/rscount "
        "| ganak/rscount |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        count = r["count"] if r["count"] is not None else "?"
        if "disagreement" in r:
            count = f"**DISAGREE {r['disagreement']}**"
        lines.append(
            f"| {r['name']} | {r['family']} | {r['rows']} | {r['draw']} | {r['seed'] or '-'} | {count} "
            f"| {_cell(r['rscount'])} | {_cell(r['brute'])} | {_cell(r['ganak'])} "
            f"| {_ratio_text(r['brute_over_rscount'])} | {_ratio_text(r['ganak_over_rscount'])} |"
        )
    return "\n".join(lines) + "\n"


def committed(directory: Path) -> Path:
    """rscount/ as committed (HEAD) extracted into `directory`, so that edits to the working tree
    during a long run change nothing measured; `python -m rscount.cli` run there imports it."""
    tar = subprocess.run(["git", "archive", "HEAD", "rscount"], cwd=REPO, capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(tar.stdout)) as archive:
        archive.extractall(directory, filter="data")
    return directory


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=60.0, help="limit of each run (s)")
    parser.add_argument(
        "--only", action="append", default=[], help="instances whose name contains this (repeatable)"
    )
    parser.add_argument("--ganak-site", default=None, help="directory holding pyganak (pip install --target)")
    parser.add_argument("--big-seeds", default="1,2,3", help="seeds of the 1000-row MNMath draws")
    parser.add_argument(
        "--committed", action="store_true", help="measure rscount as committed (HEAD), not the working tree"
    )
    parser.add_argument(
        "--resume", action="store_true", help="keep the rows of the --out file's .json, measure the rest"
    )
    parser.add_argument("--out", default=str(REPO / "benchmarks" / "robustness.md"))
    parser.add_argument("--brute", metavar="FILE.yaml", help=argparse.SUPPRESS)
    parser.add_argument("--ganak", metavar="FILE.cnf", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.brute:
        brute(args.brute)
        return 0
    if args.ganak:
        ganak(args.ganak)
        return 0
    big_seeds = tuple(int(s) for s in args.big_seeds.split(",") if s)
    shown = ["python benchmarks/robustness.py", f"--timeout {args.timeout:g}"]
    shown += [f"--only {part}" for part in args.only] + [f"--ganak-site {args.ganak_site}"] * bool(
        args.ganak_site
    )
    shown += [f"--big-seeds {args.big_seeds}"] * (big_seeds != SEEDS)
    dirty = " with uncommitted changes" if _git("status", "--porcelain", "rscount") else ""
    if args.committed:
        dirty = " as committed (`--committed`: rscount/ of HEAD by `git archive`, not the working tree)"
        shown.append("--committed")
    notes = [
        "MNMath: 8 digits 0-9, y1 = d1+d2 == d3+d4, y2 = d5*d6 == d7*d8 (reach.py); `uniform`: distinct",
        "rows drawn uniformly from the 10^8 digit vectors; `balanced`: tasks/make_rows.py, rows/4 per label",
        "tuple (seeds 1 and 2 are reach.md's MNMath instances). The brute force is brute_force_seen of",
        "tests/references/bruteforce.py (disentangled; labels in Python: MNMath here, the program corpus",
        "from tests/references/programs.py; reach.py's SDD-OIA and random 3-CNF through rscount's",
        "evaluator of the task's labels); objects mode: no brute force (brute_force_objects would",
        "enumerate 8! x 10^10 maps). GANAK: pyganak 2.8.0 in a private directory, on rscount's",
        "`--emit --ind` DIMACS (written with a limit of 2T, not counted in GANAK's time), projected on",
        "the map variables. xor16-decompose is counted by auto here (reach.py forces decompose).",
    ]
    if big_seeds != SEEDS:
        notes.append(
            f"The 1000-row MNMath draws ran for seed(s) {args.big_seeds} only, to keep the run near 75 min."
        )
    meta: dict[str, Any] = {
        "command": " ".join(shown),
        "commit": _git("rev-parse", "--short", "HEAD") + dirty,
        "rscount_tree": _git("rev-parse", "HEAD:rscount") if args.committed else "",
        "timeout": args.timeout,
        "load_start": load_average(),
        "notes": notes,
    }
    out = Path(args.out)
    start = time.perf_counter()
    rows: list[dict[str, Any]] = []
    earlier = 0.0
    if args.resume and out.with_suffix(".json").exists():
        old = json.loads(out.with_suffix(".json").read_text())
        if args.committed and old["meta"].get("rscount_tree") != meta["rscount_tree"]:
            sys.exit(f"{out}: measured another rscount/ than HEAD's; --resume adds rows of the same one only")
        rows, earlier = old["rows"], old["meta"].get("minutes", 0.0)
        added = [note for note in meta["notes"] if note not in old["meta"]["notes"]]
        meta["notes"] = old["meta"]["notes"] + added
        meta["notes"].append(
            f"After {len(rows)} instances ({earlier} min, {old['meta']['commit'].split()[0]}), the run was "
            f"resumed (`--resume`, same rscount/) by `{meta['command']}`."
        )
        for kept in ("command", "commit", "load_start"):
            meta[kept] = old["meta"][kept]
    done = {row["name"] for row in rows}
    with tempfile.TemporaryDirectory() as tmp:
        where = committed(Path(tmp) / "head") if args.committed else REPO
        for case in instances(Path(tmp), args.only, big_seeds):
            if case.name in done:
                continue
            rows.append(measure(case, args.timeout, args.ganak_site, Path(tmp), where))
            print(json.dumps(rows[-1]), flush=True)
            meta["minutes"] = round(earlier + (time.perf_counter() - start) / 60, 1)
            out.write_text(markdown(rows, meta))
            out.with_suffix(".json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    meta.update(load_end=load_average(), complete=True)
    out.write_text(markdown(rows, meta))
    out.with_suffix(".json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
