"""The files of `rscount report` (and the catalogue): a Markdown table, JSON with stable keys and
the versions used, and JUnit XML with one test case per task so CI systems show it natively; and
the CSV of `rscount sweep`. Report files are generated artifacts: writing one replaces the old."""

from __future__ import annotations

import csv
import datetime
import io
import os
import platform
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..counting.settings import CountSettings
from ..formats.task_files import files_read
from ..insight.judging import Judgement, Status
from ..insight.sweep import CSV_FIELDS, Sweep
from ..outputs import check_outputs, write_output
from ..sinks import csv_cell, markdown_cell, xml_text
from ..version import __version__
from .batch import entry_row
from .records import count_text, stated_extractor, to_json

SOLVERS = ("pysdd", "pyapproxmc", "python-sat")
Row = dict[str, Any]  # a judgement as a report's row (batch.entry_row)


def _count_cell(r: Row) -> str:
    if r["count_digits"] is None:
        return "-"
    if r["count"] is not None:
        return str(count_text(r["count"])) if r["exact"] else f"~{r['count']}"
    return f"{r['count_expression']} ({r['count_digits']} digits)"  # too long to write out


def _shortcuts_cell(r: Row) -> str:
    if r["count_digits"] is None:
        return "-"
    if r["count"] is None:
        return f"{r['count_digits']}-digit"
    if r["shortcuts"] is not None:
        return count_text(r["shortcuts"]) or f"{r['count_digits']}-digit"
    return f"~{max(r['count'] - 1, 0)}"


def _exactness(r: Row) -> str:
    if r["count_digits"] is None:
        return "-"
    return "exact" if r["exact"] else f"±{r['epsilon']:g} (delta {r['delta']:g})"


def _knowledge(r: Row) -> str:
    """Where the labels come from, and the program twin written next to a task file (NAME.pl)."""
    knowledge: str | None = r["knowledge"]
    if knowledge is None:
        return "-"
    twin = Path(r["path"]).with_suffix(".pl")
    if knowledge.startswith("program ") or not twin.exists():
        return knowledge
    return f"{knowledge} (twin {twin.name})"


def _mode_cell(r: Row) -> str:
    """The mode, and the extractor where it is in place (stated_extractor)."""
    if r["mode"] is None:
        return "-"
    stated = stated_extractor(r["extractor"])
    return f"{r['mode']}, {stated}" if stated else str(r["mode"])


def _plain(key: str) -> Callable[[Row], str]:
    return lambda r: "-" if r[key] is None else str(r[key])


Column = tuple[str, Callable[[Row], str]]  # a header and a row's cell
COLUMNS: dict[str, Column] = {
    **{key: (key, _plain(key)) for key in ("task", "concepts", "labels", "support", "supervised")},
    "mode": ("mode", _mode_cell),
    "method": ("method", _plain("method")),
    "count": ("count", _count_cell),
    "shortcuts": ("shortcuts", _shortcuts_cell),
    "exactness": ("exact / ±eps", _exactness),
    "seconds": ("s", lambda r: f"{r['wall_seconds']:.2f}"),
    "verdict": ("verdict", _plain("verdict")),
    "knowledge": ("knowledge", _knowledge),
    "source": ("source", _plain("source")),
}
REPORT_COLUMNS: tuple[str, ...] = (
    "task",
    "concepts",
    "support",
    "mode",
    "method",
    "count",
    "shortcuts",
    "exactness",
)
REPORT_COLUMNS += ("seconds", "verdict")


def markdown_table(rows: Sequence[Row], columns: Sequence[Column], link: str | None = None) -> str:
    """A Markdown table, one line per row; the first column is the task file (linked under `link`);
    every cell through rscount.sinks.markdown_cell (no `|`, line break or HTML of a task's text gets
    through)."""
    lines = [
        "| file | " + " | ".join(head for head, _ in columns) + " |",
        "|---" * (len(columns) + 1) + "|",
    ]
    for r in rows:
        name = markdown_cell(r["file"])
        name = f"[{name}]({link}/{quote(r['file'])})" if link else name
        cells = [name] + [markdown_cell(cell(r)) for _, cell in columns]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def summary(entries: Sequence[Judgement]) -> dict[str, int]:
    """How many tasks passed (nothing failed them), failed a pin, were invalid, or stopped at a limit."""
    statuses = [e.status for e in entries]
    failed, errors = statuses.count(Status.FAILED), statuses.count(Status.INVALID)
    limits = statuses.count(Status.LIMIT)
    passed = len(entries) - failed - errors - limits
    return {"tasks": len(entries), "passed": passed, "failed": failed, "errors": errors, "limits": limits}


def summary_line(entries: Sequence[Judgement]) -> str:
    """`40 tasks: 39 passed, 1 failed, 0 not counted (0 at a limit)`."""
    s = summary(entries)
    return (
        f"{s['tasks']} tasks: {s['passed']} passed, {s['failed']} failed, "
        f"{s['errors'] + s['limits']} not counted ({s['limits']} at a limit)"
    )


def versions() -> dict[str, str | None]:
    """rscount's, Python's and the solver libraries' versions (None for one not installed)."""
    found: dict[str, str | None] = {"rscount": __version__, "python": platform.python_version()}
    for name in SOLVERS:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def markdown_report(entries: Sequence[Judgement], settings: CountSettings) -> str:
    """The Markdown report: a title line with the totals, then the table."""
    head = (
        f"# rscount report\n\n{summary_line(entries)} (method {settings.method}, rscount {__version__}).\n\n"
    )
    return head + markdown_table([entry_row(e) for e in entries], [COLUMNS[c] for c in REPORT_COLUMNS])


def json_report(entries: Sequence[Judgement], settings: CountSettings) -> str:
    """The JSON report: versions, settings, totals and every entry (counts as JSON integers)."""
    report = {
        "versions": versions(),
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "settings": {
            "method": str(settings.method),
            "mode": None if settings.mode is None else str(settings.mode),
            "epsilon": settings.epsilon,
            "delta": settings.delta,
            "seed": settings.seed,
            "timeout": settings.timeout,
        },
        "summary": summary(entries),
        "tasks": [entry_row(e) for e in entries],
    }
    return to_json(report)


def junit_report(entries: Sequence[Judgement], settings: CountSettings) -> str:
    """JUnit XML: one testcase per task; a failed pin is a failure, a task not counted an error; text
    from tasks through rscount.sinks.xml_text (characters XML cannot hold made escapes)."""
    s = summary(entries)
    suites = ET.Element("testsuites", name="rscount", tests=str(s["tasks"]))
    suite = ET.SubElement(
        suites,
        "testsuite",
        name="rscount report",
        tests=str(s["tasks"]),
        failures=str(s["failed"]),
        errors=str(s["errors"] + s["limits"]),
        time=f"{sum(e.seconds for e in entries):.3f}",
    )
    for e in entries:
        r = entry_row(e)
        case = ET.SubElement(
            suite,
            "testcase",
            classname=xml_text(f"rscount.{Path(r['path']).parent.name or 'tasks'}"),
            name=xml_text(r["file"]),
            time=f"{e.seconds:.3f}",
        )
        if e.status in (Status.INVALID, Status.LIMIT):
            kind = "limit reached" if e.status == Status.LIMIT else "not counted"
            error = xml_text(r["error"] or "")
            ET.SubElement(case, "error", message=error, type=kind).text = error
        elif e.status == Status.FAILED:
            failed = xml_text("\n".join(o.message for o in e.outcomes if o.failed))
            ET.SubElement(case, "failure", message=xml_text(r["verdict"]), type="expectation").text = failed
        details = f"count {_count_cell(r)} ({_exactness(r)}) by {r['method']}; {r['verdict']}"
        ET.SubElement(case, "system-out").text = xml_text(details)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


WRITERS = {"markdown": markdown_report, "json": json_report, "junit": junit_report}

Outputs = Mapping[str, "str | os.PathLike[str] | None"]


def check_report_outputs(outputs: Outputs, inputs: Sequence[Path]) -> None:
    """Refuse, before any work, report outputs that cannot be written (two on one path, a directory,
    a missing directory, one of the task files); existing report files are replaced."""
    check_outputs(outputs, overwrite=True, inputs=inputs)


def inputs_of(entries: Sequence[Judgement]) -> list[Path]:
    """Every file the judged tasks were read from (task files, programs, support files)."""
    return [
        path
        for e in entries
        if e.path is not None
        for path in (files_read(e.task, e.path) if e.task is not None else [Path(e.path)])
    ]


def write_reports(
    entries: Sequence[Judgement], settings: CountSettings, outputs: Outputs, inputs: Sequence[Path] = ()
) -> list[str]:
    """Write each asked-for format (format -> path, None: not asked), none over one of the `inputs`;
    says what it wrote."""
    wrote = []
    for kind, path in outputs.items():
        if path is not None:
            write_output(path, WRITERS[kind](entries, settings), kind, overwrite=True, inputs=inputs)
            wrote.append(f"wrote {path} ({kind})")
    return wrote


def sweep_csv(record: Sweep) -> str:
    """The CSV of a sweep: one row per (seed, fraction, supervision level); counts in full (empty
    when not counted, or beyond MAX_DIGITS digits: log10_count still gives them); a cell a
    spreadsheet would run as a formula (a task named `=...`) as text (rscount.sinks.csv_cell)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\r\n")
    writer.writeheader()
    for r in record.rows:
        row = {k: "" if r[k] is None else csv_cell(str(r[k])) for k in CSV_FIELDS}
        row["count"] = "" if r["count"] is None else count_text(r["count"]) or ""
        writer.writerow(row)
    return out.getvalue()
