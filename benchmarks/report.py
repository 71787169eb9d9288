"""The suite's results: one Row per measured run, written as results.csv (every field) and
results.md (environment, performance targets, per-task tables with speed-up ratios, notes)."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, fields
from fractions import Fraction
from pathlib import Path

BASELINE = "cnf-sdd"
# Column order of the per-task tables: the pure-CNF baseline, the core's SDD, then the structural
# methods, then the approximate ones.
TABLE_METHODS = (
    BASELINE,
    "sdd",
    "decompose",
    "closed-form",
    "enumerate",
    "auto",
    "approxmc",
    "decompose-approx",
    "approx",
)
EMISSION = "emission"
EMISSION_PASS = "tasks/ emission pass"
PROJECTION_CHECK = "projection check"


@dataclass
class Row:
    """One run: the emission of a task, one counting method on it, or a check (see README.md)."""

    family: str
    task: str
    method: str
    status: str
    wall_s: float | None = None
    seconds: float | None = None
    count: int | None = None
    exact: bool | None = None
    used: str = ""
    reference: int | None = None
    reference_from: str = ""
    agrees: bool | None = None
    est_over_ref: float | None = None
    within_eps: bool | None = None
    epsilon: float | None = None
    delta: float | None = None
    peak_mib: float | None = None
    variables: int | None = None
    clauses: int | None = None
    map_variables: int | None = None
    projected_count: int | None = None
    projection_holds: bool | None = None
    note: str = ""
    command: str = ""


@dataclass
class Target:
    """A performance target of the project's issue, with the figure measured against it."""

    name: str
    figure: str
    reached: bool | None  # None: not measured in this run


def within(estimate: int, reference: int, epsilon: float) -> bool:
    """reference/(1+eps) <= estimate <= reference*(1+eps), in exact rational arithmetic."""
    factor = 1 + Fraction(str(epsilon))
    return Fraction(reference) / factor <= estimate <= reference * factor


def _cell(value: object, digits: int = 3) -> str:
    """A value as table text: blank for None, yes/no for booleans, fixed digits for floats."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def seconds_text(value: float) -> str:
    """Seconds with about three significant figures, never in exponent notation."""
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 0.01:
        return f"{value:.2f}"
    return f"{value:.4f}"


def _ratio(value: float) -> str:
    """A speed-up factor: integers with thousands separators from 10 up, one decimal from 1 up,
    two significant digits below (a slow-down: 0.027 is 37 times slower)."""
    if value >= 10:
        return f"{value:,.0f}"
    return f"{value:.1f}" if value >= 1 else f"{value:.2g}"


def header_lines(header: dict[str, str]) -> list[str]:
    """The environment header of a results file as a Markdown list."""
    return [f"- **{key}**: {value}" for key, value in header.items()]


def write_csv(rows: Iterable[Row], path: Path) -> None:
    """Every row with every field (floats with 4 decimals)."""
    names = [f.name for f in fields(Row)]
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=names)
        writer.writeheader()
        for row in rows:
            writer.writerow({n: _cell(v, 4) for n, v in asdict(row).items()})


class Tables:
    """The Markdown document of a run so far; `timeout` bounds the times of timed-out runs."""

    def __init__(self, rows: list[Row], timeout: float, startup_s: float) -> None:
        self.rows = rows
        self.timeout = timeout
        self.startup_s = startup_s
        self.by_task: dict[tuple[str, str], dict[str, Row]] = {}
        for row in rows:
            self.by_task.setdefault((row.family, row.task), {})[row.method] = row

    def tasks(self) -> list[tuple[str, str]]:
        """(family, task) of the benchmark tasks in run order (checks and the emission pass apart)."""
        return [key for key in self.by_task if key[0] not in (EMISSION_PASS, PROJECTION_CHECK)]

    def time_bound(self, row: Row | None, runs: dict[str, Row]) -> tuple[float, str] | None:
        """(seconds, kind) of a method's own time: kind '=' if measured, '>' if it timed out (then
        a lower bound: the time limit less the task's emission wall time, which covers startup and
        encoding; for the baseline, less the interpreter startup); None if unknown."""
        if row is None:
            return None
        if row.status == "ok" and row.seconds is not None:
            return row.seconds, "="
        if row.status == "timeout":
            if row.method == BASELINE:
                overhead = self.startup_s
            else:
                emission = runs.get(EMISSION)
                overhead = emission.wall_s if emission and emission.wall_s else self.startup_s
            return max(self.timeout - overhead, 0.0), ">"
        return None

    def speedup(self, base: tuple[float, str] | None, seconds: float) -> str:
        """base time / `seconds` as text, with '>' when the base timed out ('' if unknown)."""
        if base is None:
            return ""
        return ("" if base[1] == "=" else ">") + _ratio(base[0] / max(seconds, 1e-6))

    def method_cell(self, method: str, runs: dict[str, Row]) -> str:
        """Time of `method` on one task plus its speed-ups vs the baseline and vs sdd, or its status."""
        row = runs.get(method)
        if row is None:
            return ""
        if row.status != "ok":
            return {"timeout": "timeout", "skipped": "skip", "n/a": "n/a"}.get(row.status, "error")
        seconds = row.seconds or 0.0
        text = seconds_text(seconds)
        if row.used:
            text += f" via {row.used}"
        if row.agrees is False:
            text += " ≠ref"
        ratios = []
        for base in (BASELINE, "sdd"):
            r = self.speedup(self.time_bound(runs.get(base), runs), seconds) if base != method else ""
            if r:
                ratios.append(f"{'cnf' if base == BASELINE else base} {r}×")
        return f"{text} ({', '.join(ratios)})" if ratios else text

    def counting_table(self) -> list[str]:
        """One row per task: reference count, emission time, then every method side by side."""
        head = "| family | task | count (reference from) | emission s | " + " | ".join(TABLE_METHODS) + " |"
        lines = [head, "|---|---|---:|---:|" + "---:|" * len(TABLE_METHODS)]
        for key in self.tasks():
            runs = self.by_task[key]
            reference = next((r for r in runs.values() if r.reference is not None), None)
            ref = f"{reference.reference} ({reference.reference_from})" if reference else "?"
            emission = runs.get(EMISSION)
            emitted = ""
            if emission is not None:
                emitted = seconds_text(emission.wall_s) if emission.status == "ok" and emission.wall_s else ""
                emitted = emitted or emission.status
            cells = [self.method_cell(m, runs) for m in TABLE_METHODS]
            lines.append(f"| {key[0]} | {key[1]} | {ref} | {emitted} | " + " | ".join(cells) + " |")
        return lines

    def approximate_table(self) -> list[str]:
        """Approximate results (and auto where it was approximate) against the reference."""
        lines = [
            "| task | method | used | seconds | wall s | estimate | reference | est/ref | within 1+eps |",
            "|---|---|---|---:|---:|---:|---:|---:|---|",
        ]
        for key in self.tasks():
            for row in self.by_task[key].values():
                if row.status == "ok" and row.exact is False:
                    lines.append(
                        f"| {row.task} | {row.method} | {row.used} | {seconds_text(row.seconds or 0.0)} "
                        f"| {seconds_text(row.wall_s or 0.0)} | {row.count} | {_cell(row.reference)} "
                        f"| {_cell(row.est_over_ref)} | {_cell(row.within_eps)} |"
                    )
        return lines

    def memory_table(self) -> list[str]:
        """Peak resident memory (MiB) of every run, per task and method."""
        methods = (EMISSION, *TABLE_METHODS)
        lines = ["| task | " + " | ".join(methods) + " |", "|---|" + "---:|" * len(methods)]
        for key in self.tasks():
            runs = self.by_task[key]
            cells = []
            for m in methods:
                row = runs.get(m)
                cells.append(f"{row.peak_mib:.0f}" if row is not None and row.peak_mib is not None else "")
            lines.append(f"| {key[1]} | " + " | ".join(cells) + " |")
        return lines

    def emission_pass_table(self) -> list[str]:
        """The emission-only pass over every file in tasks/."""
        lines = [
            "| file | status | wall s | variables | clauses | map variables | peak MiB |",
            "|---|---|---:|---:|---:|---:|---:|",
        ]
        for row in self.rows:
            if row.family == EMISSION_PASS:
                lines.append(
                    f"| {row.task} | {row.status} | {_cell(row.wall_s, 2)} | {_cell(row.variables)} "
                    f"| {_cell(row.clauses)} | {_cell(row.map_variables)} | {_cell(row.peak_mib, 0)} |"
                )
        return lines

    def projection_table(self) -> list[str]:
        """The check that the baseline's all-variable count equals the projected count."""
        lines = [
            "| task | status | variables | map variables | count over all variables | projected count "
            "| equal | reference (rscount decompose) |",
            "|---|---|---:|---:|---:|---:|---|---:|",
        ]
        for row in self.rows:
            if row.family == PROJECTION_CHECK:
                lines.append(
                    f"| {row.task} | {row.status} | {_cell(row.variables)} | {_cell(row.map_variables)} "
                    f"| {_cell(row.count)} | {_cell(row.projected_count)} | {_cell(row.projection_holds)} "
                    f"| {_cell(row.reference)} |"
                )
        return lines

    def notes(self) -> list[str]:
        """Disagreements with the reference, timeouts and errors one by one, then skipped and
        inapplicable runs grouped by method and reason (full reasons in results.csv)."""
        out = []
        grouped: dict[tuple[str, str], list[str]] = {}
        for row in self.rows:
            if row.agrees is False:
                out.append(
                    f"- **{row.task} {row.method}: count {row.count} differs from the reference "
                    f"{row.reference} ({row.reference_from})**"
                )
            if row.status in ("timeout", "error"):
                out.append(f"- {row.task} {row.method}: {row.status}, {row.note}")
            elif row.status == "skipped":
                grouped.setdefault((f"{row.method} skipped", row.note), []).append(row.task)
            elif row.status == "n/a":
                grouped.setdefault((f"{row.method} does not apply", row.note.split(":")[0]), []).append(
                    row.task
                )
        for (what, why), tasks in grouped.items():
            out.append(f"- {what} on {', '.join(tasks)}: {why}")
        return out


def write_markdown(
    path: Path,
    rows: list[Row],
    header: dict[str, str],
    patterns: list[str],
    targets: Callable[[list[Row]], list[Target]],
    timeout: float,
    startup_s: float,
) -> None:
    """results.md: environment, targets, task patterns, then the tables and notes."""
    t = Tables(rows, timeout, startup_s)
    lines = ["# rscount benchmark results", "", *header_lines(header)]
    lines += ["", "## Performance targets", "", "| target | measured | reached |", "|---|---|---|"]
    for target in targets(rows):
        reached = {True: "yes", False: "**no**", None: "not measured"}[target.reached]
        lines.append(f"| {target.name} | {target.figure} | {reached} |")
    lines += ["", "## Task files", "", *patterns, ""]
    lines += [
        "## Counting time per task (seconds)",
        "",
        "Each cell: the method's own counting time (`seconds` of `--json`: after the encoding; for "
        f"`{BASELINE}`: PySDD compiling the emitted DIMACS, plus its count), then in parentheses the "
        "speed-up against the pure-CNF baseline (`cnf 40×`: 40 times faster) and against `sdd`; "
        "`>40×`: the other run timed out, so the speed-up is at least 40. "
        "`via`: the method auto or approx chose. `timeout`: stopped at the time limit; `skip`: not "
        "run (see Notes); `n/a`: the method does not apply; `≠ref`: the count differs from the "
        "reference. Emission s is wall-clock (interpreter start, task, encoding, DIMACS write); "
        "the wall-clock time of every run is in results.csv.",
        "",
        *t.counting_table(),
        "",
        "## Approximate counts",
        "",
        *t.approximate_table(),
        "",
        "## Peak memory per run (MiB, ru_maxrss of the run and its waited-for children)",
        "",
        *t.memory_table(),
        "",
        "## Emission of every bundled task file (`rscount count FILE --emit tmp.cnf --json`)",
        "",
        *t.emission_pass_table(),
        "",
        "## Projection check of the pure-CNF baseline",
        "",
        "PySDD counts over all CNF variables; with every auxiliary determined by the map variables "
        "this equals the count projected on them (computed here by existential quantification).",
        "",
        *t.projection_table(),
        "",
        "## Notes",
        "",
        *(t.notes() or ["- none"]),
    ]
    path.write_text("\n".join(lines) + "\n")
