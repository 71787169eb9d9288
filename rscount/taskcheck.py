"""The pre-training design check (`rscount check`, `rscount.check`): validate a task, count its
optimal maps, and name the concepts whose meaning the task does not identify.

A predicted concept j keeps its meaning in a map (pi, f) when it reads its own ground-truth concept
(P[j][j]) through the identity value map. The task identifies j when every optimal map keeps it;
one SAT call on the task's CNF with "j is not kept" decides that, and further calls say which
concepts j may read instead.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pysat.solvers import Solver

from .analysis import Copies
from .backends import CountOptions, CountResult
from .batch import Settings, describe, verdict
from .circuit import FALSE
from .counting import build_encoding, count_task, run_stoppable
from .errors import RscountError
from .expect import judge
from .progress import Progress
from .report import human_summary, result_record
from .support import domain_size
from .task import Task
from .taskfile import load_task

ERROR, WARNING, INFO = "error", "warning", "info"


@dataclass
class Finding:
    """One thing the check found: its level (error, warning, info) and a sentence."""

    level: str
    message: str


@dataclass
class CheckReport:
    """Everything `check` found about a task: findings, the count, the unidentified concepts."""

    name: str
    findings: list[Finding] = field(default_factory=list)
    record: dict[str, Any] | None = None  # the count (report.result_record), None when not counted
    unidentified: dict[str, str] | None = None  # concept -> what it may become; None if not computed
    outcomes: list[Any] = field(default_factory=list)  # expect: outcomes

    @property
    def valid(self) -> bool:
        """No error was found."""
        return not any(f.level == ERROR for f in self.findings)

    @property
    def free_of_shortcuts(self) -> bool:
        """Counted exactly, and only the intended map fits."""
        return bool(self.record and self.record["exact"] and self.record["count"] == 1)

    @property
    def verdict(self) -> str:
        """The sentence a researcher acts on."""
        if not self.valid:
            return "invalid task: fix the errors above"
        if self.record is None:
            return "not counted (see above)"
        failed = [o for o in self.outcomes if o.failed]
        text = verdict({**self.record, "expectations": self.outcomes}, failed)
        if self.free_of_shortcuts or failed:
            return text
        if self.unidentified:
            text += "; concepts involved: " + ", ".join(self.unidentified)
        return text

    @property
    def exit_code(self) -> int:
        """0 free of shortcuts (or every expectation holds), 1 shortcuts or a failed expectation,
        2 an invalid task."""
        if not self.valid:
            return 2
        if self.record is None or any(o.failed for o in self.outcomes):
            return 1
        return 0 if self.outcomes or self.free_of_shortcuts else 1

    def text(self) -> str:
        """The check as lines a person reads."""
        marks = {ERROR: "error", WARNING: "warning", INFO: "ok"}
        lines = [f"check {self.name}:"]
        lines += [f"  {marks[f.level]}: {f.message}" for f in self.findings]
        if self.record is not None:
            lines += ["  " + line for line in human_summary(self.record).splitlines()]
        if self.unidentified:
            lines.append("  concepts whose meaning the task does not identify:")
            lines += [f"    {name}: {what}" for name, what in self.unidentified.items()]
        lines += [f"  expect {o.message}" for o in self.outcomes]
        lines.append(f"verdict: {self.verdict}")
        return "\n".join(lines)


def check_file(
    path: str | Path, settings: Settings | None = None, progress: Progress | None = None
) -> CheckReport:
    """Load and check a task file; a file that does not load is an invalid task, not an exception."""
    try:
        task = load_task(path)
    except RscountError as exc:
        return CheckReport(str(path), [Finding(ERROR, str(exc))])
    return check(task, settings, progress)


def check(task: Task, settings: Settings | None = None, progress: Progress | None = None) -> CheckReport:
    """Validate `task`, count it (within settings.timeout) and find its unidentified concepts."""
    settings = settings or Settings(timeout=300)
    found = CheckReport(task.name, validate(task))
    mode = settings.mode or task.mode
    deadline = None if settings.timeout is None else time.monotonic() + settings.timeout
    if progress:
        progress.update(f"counting {task.name}", force=True)
    try:
        options = CountOptions(settings.epsilon, settings.delta, settings.seed)
        result = run_stoppable(_count, task, mode, settings.method, options, timeout=settings.timeout)
    except RscountError as exc:
        found.findings.append(Finding(ERROR if "time limit" not in str(exc) else WARNING, str(exc)))
        return found
    found.record = result_record(task, result, None, mode)
    found.outcomes = judge(task.expect, result.count, result.exact, result.epsilon) if task.expect else []
    if found.free_of_shortcuts:
        found.unidentified = {}
    elif mode == "joint":
        found.findings.append(Finding(INFO, "concepts involved: a joint map has no per-concept meaning"))
    else:
        if progress:
            progress.update(f"finding the concepts involved in {task.name}'s shortcuts", force=True)
        left = None if deadline is None else max(deadline - time.monotonic(), 1.0)
        try:
            found.unidentified = run_stoppable(unidentified_concepts, task, mode, timeout=left)
        except RscountError as exc:
            found.findings.append(Finding(WARNING, f"concepts involved: not found ({exc})"))
    return found


def _count(task: Task, mode: str, method: str, options: CountOptions) -> CountResult:
    return count_task(task, mode, method, options)[0]  # not the encoding: it can be large to pass back


def validate(task: Task) -> list[Finding]:
    """What a task file's loading did not already refuse: where the support came from, knowledge
    that ignores a concept, concepts and labels that never vary in training."""
    findings = [Finding(INFO, _knowledge_note(task))]
    about = describe(task)
    source = task.support.source
    if source:
        checked = ", ".join(source["label_columns"]) or "none"
        note = (
            f"support from {source['file']}: {source['examples']} examples, {source['distinct']} distinct "
            f"concept vectors; label columns checked against the knowledge: {checked}"
        )
        if source["ignored_columns"]:
            note += f"; ignored columns: {', '.join(source['ignored_columns'])}"
        findings.append(Finding(INFO, note))
    else:
        findings.append(
            Finding(INFO, f"support: {about['support']} concept vectors, {about['supervised']} supervised")
        )
    for name in ignored_concepts(task):
        findings.append(
            Finding(WARNING, f"concept {name} affects no label: labels alone can never give it a meaning")
        )
    rows = task.support.rows if not task.support.exhaustive else None
    for n, c in enumerate(task.concepts):
        if len(c.values) == 1:
            findings.append(Finding(WARNING, f"concept {c.name} has a single value {c.values[0]!r}"))
        elif rows is not None and len({r[n] for r in rows}) == 1:
            findings.append(
                Finding(
                    WARNING,
                    f"concept {c.name} is {rows[0][n]!r} on every training row: "
                    "its other values are never seen",
                )
            )
    for n, (label, values) in enumerate(task.label_values.items()):
        if len(values) == 1:
            findings.append(Finding(WARNING, f"label {label} is {values[0]!r} on every concept vector"))
        elif rows is not None and len({task.label_of(r)[n] for r in rows}) == 1:
            value = task.label_of(rows[0])[n]
            findings.append(Finding(WARNING, f"label {label} is {value!r} on every training row"))
    return findings


def _knowledge_note(task: Task) -> str:
    return (
        f"knowledge: one label per concept vector on all {domain_size(task.support.domains)} vectors of D "
        f"(labels {', '.join(task.labels)})"
    )


def ignored_concepts(task: Task) -> list[str]:
    """Concepts no label depends on: no two vectors that differ only in them get different labels
    (a SAT call per concept on two copies of the knowledge)."""
    ignored = []
    for n, concept in enumerate(task.concepts):
        copies = Copies(task.concepts, task.labels)
        x, y = copies.copy(), copies.copy()
        same = [copies.equal(x[c.name], y[c.name]) for m, c in enumerate(task.concepts) if m != n]
        goal = copies.builder.and_([*same, -copies.same_labels(copies.labels(x), copies.labels(y))])
        if goal == FALSE or copies.witness(goal, x, y) is None:
            ignored.append(concept.name)
    return ignored


def unidentified_concepts(task: Task, mode: str) -> dict[str, str]:
    """Each concept that some optimal map does not keep, with the ground-truth concepts it may read
    and whether its values may be remapped (SAT calls on the task's CNF in counting mode `mode`)."""
    encoding = build_encoding(task, mode)
    names = task.names
    p, f = encoding.p_vars, encoding.f_lits
    found = {}
    with Solver(name="cadical153", bootstrap_with=encoding.cnf.clauses) as solver:
        fresh = encoding.cnf.num_vars
        for j, concept in enumerate(task.concepts):
            kept = [p[j][j]] + [f[j][v][v] for v in range(len(concept.values))]
            fresh += 1
            solver.add_clause([-fresh] + [-lit for lit in kept])
            if not solver.solve(assumptions=[fresh]):
                continue
            readers = [names[i] for i in range(len(names)) if i != j and solver.solve(assumptions=[p[i][j]])]
            fresh += 1
            solver.add_clause([-fresh] + [-lit for lit in kept[1:]])
            remapped = solver.solve(assumptions=[fresh, p[j][j]])
            parts = [f"may read {', '.join(readers)}"] if readers else []
            if remapped:
                parts.append("its values may be remapped")
            found[concept.name] = "; ".join(parts)
    return found
