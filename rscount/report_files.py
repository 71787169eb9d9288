"""The files of `rscount report` (and the catalogue): a Markdown table, JSON with stable keys and
the versions used, and JUnit XML with one test case per task so CI systems show it natively."""

from __future__ import annotations

import datetime
import platform
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import asdict
from importlib import metadata
from pathlib import Path
from typing import Any

from . import __version__
from .batch import ERROR, FAILED, Settings
from .errors import RscountError
from .report import count_text, to_json

SOLVERS = ("pysdd", "pyapproxmc", "python-sat")


def _count_cell(e: dict[str, Any]) -> str:
    if e["count"] is not None:
        return count_text(e["count"]) if e["exact"] else f"~{e['count']}"
    if e["count_digits"] is not None:  # too long to write out: its exact expression
        return f"{e['count_expression']} ({e['count_digits']} digits)"
    return "-"


def _shortcuts_cell(e: dict[str, Any]) -> str:
    if e["count"] is None:
        return "-" if e["count_digits"] is None else f"{e['count_digits']}-digit"
    return str(e["count"] - 1) if e["exact"] else f"~{max(e['count'] - 1, 0)}"


def _exactness(e: dict[str, Any]) -> str:
    if e["exact"] is None:
        return "-"
    return "exact" if e["exact"] else f"±{e['epsilon']:g} (delta {e['delta']:g})"


def _plain(key: str) -> Callable[[dict[str, Any]], str]:
    return lambda e: "-" if e[key] is None else str(e[key])


COLUMNS: dict[str, tuple[str, Callable[[dict[str, Any]], str]]] = {
    **{key: (key, _plain(key)) for key in ("task", "concepts", "labels", "support", "supervised", "mode")},
    "method": ("method", _plain("method")),
    "count": ("count", _count_cell),
    "shortcuts": ("shortcuts", _shortcuts_cell),
    "exactness": ("exact / ±eps", _exactness),
    "seconds": ("s", lambda e: f"{e['wall_seconds']:.2f}"),
    "verdict": ("verdict", _plain("verdict")),
    "source": ("source", _plain("source")),
}
REPORT_COLUMNS = ("task", "concepts", "support", "mode", "method", "count", "shortcuts", "exactness")
REPORT_COLUMNS += ("seconds", "verdict")


def markdown_table(entries: Sequence[dict[str, Any]], columns: Sequence[str], link: str | None = None) -> str:
    """A Markdown table, one row per entry; the first column is the task file (linked under `link`)."""
    lines = [
        "| file | " + " | ".join(COLUMNS[c][0] for c in columns) + " |",
        "|---" * (len(columns) + 1) + "|",
    ]
    for e in entries:
        name = f"[{e['file']}]({link}/{e['file']})" if link else e["file"]
        cells = [name] + [COLUMNS[c][1](e).replace("|", "/").replace("\n", " ") for c in columns]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def summary(entries: Sequence[dict[str, Any]]) -> dict[str, int]:
    """How many tasks passed, failed an expectation, or could not be counted."""
    statuses = [e["status"] for e in entries]
    failed, errors = statuses.count(FAILED), statuses.count(ERROR)
    passed = len(entries) - failed - errors
    return {"tasks": len(entries), "passed": passed, "failed": failed, "errors": errors}


def versions() -> dict[str, str | None]:
    """rscount's, Python's and the solver libraries' versions (None for one not installed)."""
    found: dict[str, str | None] = {"rscount": __version__, "python": platform.python_version()}
    for name in SOLVERS:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def markdown_report(entries: Sequence[dict[str, Any]], settings: Settings) -> str:
    """The Markdown report: a title line with the totals, then the table."""
    s = summary(entries)
    head = (
        f"# rscount report\n\n{s['tasks']} tasks: {s['passed']} passed, {s['failed']} failed, "
        f"{s['errors']} not counted (method {settings.method}, rscount {__version__}).\n\n"
    )
    return head + markdown_table(entries, REPORT_COLUMNS)


def json_report(entries: Sequence[dict[str, Any]], settings: Settings) -> str:
    """The JSON report: versions, settings, totals and every entry (counts as JSON integers)."""
    report = {
        "versions": versions(),
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "settings": asdict(settings),
        "summary": summary(entries),
        "tasks": list(entries),
    }
    return to_json(report)


def junit_report(entries: Sequence[dict[str, Any]], settings: Settings) -> str:
    """JUnit XML: one testcase per task; a failed expectation is a failure, a task not counted an error."""
    s = summary(entries)
    suites = ET.Element("testsuites", name="rscount", tests=str(s["tasks"]))
    suite = ET.SubElement(
        suites,
        "testsuite",
        name="rscount report",
        tests=str(s["tasks"]),
        failures=str(s["failed"]),
        errors=str(s["errors"]),
        time=f"{sum(e['wall_seconds'] for e in entries):.3f}",
    )
    for e in entries:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=f"rscount.{Path(e['path']).parent.name or 'tasks'}",
            name=e["file"],
            time=f"{e['wall_seconds']:.3f}",
        )
        if e["status"] == ERROR:
            ET.SubElement(case, "error", message=e["error"], type="not counted").text = e["error"]
        elif e["status"] == FAILED:
            failed = [o["message"] for o in e["expectations"] if o["status"] != "pass"]
            ET.SubElement(case, "failure", message=e["verdict"], type="expectation").text = "\n".join(failed)
        details = f"count {_count_cell(e)} ({_exactness(e)}) by {e['method']}; {e['verdict']}"
        ET.SubElement(case, "system-out").text = details
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


WRITERS = {"markdown": markdown_report, "json": json_report, "junit": junit_report}


def refuse_overwrite(outputs: dict[str, str], force: bool) -> None:
    """Stop before any work when an output file exists and `force` is not given."""
    for path in outputs.values():
        if Path(path).exists() and not force:
            raise RscountError(f"{path}: exists; pass --force to overwrite it")


def write_reports(
    entries: Sequence[dict[str, Any]], settings: Settings, outputs: dict[str, str]
) -> list[str]:
    """Write each asked-for format (format -> path); says what it wrote."""
    for kind, path in outputs.items():
        Path(path).write_text(WRITERS[kind](entries, settings))
    return [f"wrote {path} ({kind})" for kind, path in outputs.items()]
