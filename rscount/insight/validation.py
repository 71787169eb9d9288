"""What `rscount check` finds about a task beyond what loading it refused: where the support came
from, knowledge that ignores a concept, concepts and labels that never vary in training."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import quote
from ..knowledge.labels import ignored_concepts, label_values
from ..limits import number_text
from ..task.model import NO_ANSWER, Task
from ..task.summary import describe
from ..task.support import domain_size

ERROR, WARNING, INFO = "error", "warning", "info"


@dataclass
class Finding:
    """One thing the check found: its level (error, warning, info) and a sentence."""

    level: str
    message: str


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
    vectors = number_text(domain_size(task.domains))  # the networks' predictions, which it reads
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
