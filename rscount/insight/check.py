"""The pre-training design check (`rscount check`, `rscount.check`): validate a task, count its
optimal maps, and name the concepts whose meaning the task does not identify.

A predicted concept j keeps its meaning in a map (pi, f) when it reads its own ground-truth concept
(P[j][j]) through the identity value map. The task identifies j when every optimal map keeps it;
one SAT call on the task's CNF with "j is not kept" decides that, and further calls say which
concepts j may read instead.
"""

from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from .. import sat
from ..counting.budget import Declined
from ..counting.jobs import count, load_within
from ..counting.methods.search.identification import loose_concepts
from ..counting.problem import CountProblem
from ..counting.processes.isolation import run_stoppable
from ..counting.result import CountResult
from ..counting.settings import CountSettings, Method
from ..encoding.modes import encode
from ..errors import LimitReached, RscountError, quote
from ..knowledge.labels import ignored_concepts, label_values
from ..limits import number_text
from ..progress import Progress
from ..task.expectations import Outcome, judge_pins
from ..task.model import NO_ANSWER, Mode, Task
from ..task.summary import describe
from ..task.support import domain_size

ERROR, WARNING, INFO = "error", "warning", "info"
CHECK_TIMEOUT = 300.0  # seconds a check may count by default
# Identification by search visits at most this many permutation prefixes and search nodes before SAT
# on the CNF answers instead (search answers mnadd-n2's 24 permutations in 3000 nodes).
SEARCH_PERMUTATIONS = 20_000
SEARCH_NODES = 2_000_000


@dataclass
class Finding:
    """One thing the check found: its level (error, warning, info) and a sentence."""

    level: str
    message: str


@dataclass(frozen=True)
class Unidentified:
    """How a concept may lose its meaning in some optimal map: the ground-truth concepts it may read
    instead of its own, and whether its values may be remapped while it reads its own."""

    reads: tuple[str, ...]
    remapped: bool


class CheckStatus(StrEnum):
    """What a check concludes, from best to worst."""

    FREE = "free"  # counted exactly: only the intended map fits
    PASSED = "passed"  # every expectation of the task holds
    SHORTCUTS = "shortcuts"  # the task admits reasoning shortcuts (and expects nothing)
    FAILED = "failed"  # an expectation failed (or is undecided)
    INVALID = "invalid"  # the task is invalid, or cannot be counted as asked
    LIMIT = "limit"  # the count stopped at a time or memory limit


@dataclass
class CheckReport:
    """Everything `check` found about a task: findings, the count (None when not counted), the
    outcome of each expectation and the concepts it does not identify (None if not computed)."""

    name: str
    task: Task | None = None
    mode: Mode | None = None
    findings: list[Finding] = field(default_factory=list)
    result: CountResult | None = None
    outcomes: list[Outcome] = field(default_factory=list)
    unidentified: dict[str, Unidentified] | None = None
    limit_reached: bool = False

    @property
    def valid(self) -> bool:
        """No error was found."""
        return not any(f.level == ERROR for f in self.findings)

    @property
    def free_of_shortcuts(self) -> bool:
        """Counted exactly, and only the intended map (in the jrs mode: the intended pairs) fits."""
        return bool(
            self.result and self.result.exact and self.result.count > 0 and self.result.shortcuts == 0
        )

    @property
    def status(self) -> CheckStatus:
        """The conclusion a CI job acts on."""
        if self.limit_reached:
            return CheckStatus.LIMIT
        if not self.valid or self.result is None:
            return CheckStatus.INVALID
        if any(o.failed for o in self.outcomes):
            return CheckStatus.FAILED
        if self.outcomes:
            return CheckStatus.PASSED
        return CheckStatus.FREE if self.free_of_shortcuts else CheckStatus.SHORTCUTS

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: name, mode, status, findings, count, expectations, unidentified concepts."""
        return {
            "name": self.name,
            "mode": None if self.mode is None else str(self.mode),
            "status": str(self.status),
            "findings": [asdict(f) for f in self.findings],
            "result": None if self.result is None else self.result.to_dict(),
            "expectations": [o.to_dict() for o in self.outcomes],
            "unidentified": None
            if self.unidentified is None
            else {
                name: {"reads": list(u.reads), "remapped": u.remapped}
                for name, u in self.unidentified.items()
            },
        }


def check_file(
    path: str | os.PathLike[str], settings: CountSettings | None = None, progress: Progress | None = None
) -> CheckReport:
    """Load and check a task file; a file that does not load is an invalid task, not an exception."""
    settings = settings or CountSettings(timeout=CHECK_TIMEOUT)
    try:
        task, settings = load_within(path, settings)
    except LimitReached as exc:
        report = CheckReport(str(path), findings=[Finding(WARNING, str(exc))])
        report.limit_reached = True
        return report
    except RscountError as exc:
        return CheckReport(str(path), findings=[Finding(ERROR, str(exc))])
    return check(task, settings, progress)


def check(task: Task, settings: CountSettings | None = None, progress: Progress | None = None) -> CheckReport:
    """Validate `task`, count it (within settings.timeout) and find its unidentified concepts."""
    settings = settings or CountSettings(timeout=CHECK_TIMEOUT)
    mode = settings.mode_for(task)
    found = CheckReport(task.name, task, mode)
    start = time.monotonic()
    remaining = settings.left()
    deadline = None if remaining is None else start + remaining
    try:  # validation compiles the knowledge, which a hostile task can make slow: within the limits
        found.findings = run_stoppable(validate, task, **settings.limits(), what=f"checking {task.name}")
        if progress:
            progress.update(f"counting {task.name}", force=True)
        result = count(task, settings.after(time.monotonic() - start).replace(mode=mode))
    except LimitReached as exc:
        found.findings.append(Finding(WARNING, str(exc)))
        found.limit_reached = True
        return found
    except RscountError as exc:
        found.findings.append(Finding(ERROR, str(exc)))
        return found
    found.result = result
    found.outcomes = (  # the task's pins are for its own counts, not for pairs with a learned layer
        judge_pins(dict(task.expect), result.count, result.exact, result.epsilon)
        if task.expect and mode != Mode.JRS
        else []
    )
    if mode == Mode.JRS:
        loose = result.details["not_identified"]
        verdict = "not jointly identifiable" if loose else "identifiable up to relabelling values"
        findings = f"concepts and inference layer: {verdict}"
        if loose:
            findings += f"; concepts some fitting pair merges or resizes: {', '.join(loose)}"
        found.findings.append(Finding(INFO, findings))
        return found
    if found.free_of_shortcuts:
        found.unidentified = {}
    elif mode == Mode.JOINT:
        found.findings.append(Finding(INFO, "concepts involved: a joint map has no per-concept meaning"))
    else:
        if progress:
            progress.update(f"finding the concepts involved in {task.name}'s shortcuts", force=True)
        left = None if deadline is None else max(deadline - time.monotonic(), 1.0)
        try:
            found.unidentified = run_stoppable(
                unidentified_concepts, task, mode, str(result.method), timeout=left, memory=settings.memory
            )
        except RscountError as exc:
            found.findings.append(Finding(WARNING, f"concepts involved: not found ({exc})"))
    return found


def validate(task: Task) -> list[Finding]:
    """What a task file's loading did not already refuse: where the support came from, knowledge
    that ignores a concept, concepts and labels that never vary in training."""
    findings = [Finding(INFO, _knowledge_note(task)), *(Finding(INFO, note) for note in task.notes)]
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
    return findings + _constant_findings(task)


def _constant_findings(task: Task) -> list[Finding]:
    """Concepts and labels with a single value, or a single value on every training row."""
    findings = []
    rows = task.support.rows if not task.support.exhaustive else None
    for n, c in enumerate(task.concepts):
        if len(c.values) == 1:
            findings.append(Finding(WARNING, f"concept {c.name} has a single value {quote(c.values[0])}"))
        elif rows is not None and len({r[n] for r in rows}) == 1:
            findings.append(
                Finding(
                    WARNING,
                    f"concept {c.name} is {quote(rows[0][n])} on every training row: "
                    "its other values are never seen",
                )
            )
    for n, (label, values) in enumerate(label_values(task).items()):
        if len(values) == 1:
            findings.append(Finding(WARNING, f"label {label} is {quote(values[0])} on every concept vector"))
        elif rows is not None and len({task.label_of(r)[n] for r in rows}) == 1:
            value = task.label_of(rows[0])[n]
            findings.append(Finding(WARNING, f"label {label} is {quote(value)} on every training row"))
    return findings


def _knowledge_note(task: Task) -> str:
    vectors = number_text(domain_size(task.support.domains))
    labels = ", ".join(task.labels)
    if task.answers or task.evidence:
        unanswered = [f"where a query has no answer, {NO_ANSWER!r}"] if task.answers else []
        unanswered += [f"where the evidence fails, {task.evidence} = 0"] if task.evidence else []
        return (
            f"knowledge: a program's labels ({labels}) on the {vectors} vectors of D ("
            + "; ".join(unanswered)
            + ": no training row may be labelled so)"
        )
    return f"knowledge: one label per concept vector on all {vectors} vectors of D (labels {labels})"


def unidentified_concepts(task: Task, mode: Mode, counted_by: str | None = None) -> dict[str, Unidentified]:
    """Each concept that some optimal map does not keep, with the ground-truth concepts it may read
    and whether its values may be remapped: by search in the disentangled mode (no CNF: a program's
    labels on many rows make a CNF of gigabytes), within its budget unless search is what counted
    the task (`counted_by`: then the CNF is likely the larger work), else by SAT on the CNF."""
    names = task.names
    unbounded = counted_by == Method.SEARCH
    try:
        loose = loose_concepts(
            CountProblem(task, mode),
            None if unbounded else SEARCH_PERMUTATIONS,
            None if unbounded else SEARCH_NODES,
        )
    except Declined:
        return _unidentified_by_sat(task, mode)
    return {
        names[j]: Unidentified(tuple(names[i] for i in sorted(found.readers)), found.remapped)
        for j, found in sorted(loose.items())
    }


def _unidentified_by_sat(task: Task, mode: Mode) -> dict[str, Unidentified]:
    """unidentified_concepts by SAT calls on the task's CNF in counting mode `mode`."""
    encoding = encode(task, mode)
    names = task.names
    p, f = encoding.p_vars, encoding.f_lits
    found = {}
    with sat.solver(sat.CHECK, encoding.cnf.clauses) as solver:
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
            remapped = bool(solver.solve(assumptions=[fresh, p[j][j]]))
            found[concept.name] = Unidentified(tuple(readers), remapped)
    return found
