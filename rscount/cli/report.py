"""`rscount report`: count many task files into Markdown, JSON and JUnit reports (for CI)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..counting.processes.isolation import run_stoppable
from ..counting.processes.parallel import default_jobs
from ..counting.settings import CountSettings
from ..errors import RscountError
from ..insight.judging import Judgement, Status, judge_result
from ..report.annotations import workflow_commands
from ..report.batch import count_files, task_paths
from ..report.files import check_report_outputs, inputs_of, markdown_report, summary_line, write_reports
from ..report.pins import update_pins
from ..report.records import MAX_DIGITS, digits
from ..report.text import report_verdict
from ..sinks import terminal
from . import options
from .check import judged_exit
from .output import say
from .status import Exit, worst

OUTPUTS = ("markdown", "json", "junit")


def add_commands(sub: Any) -> None:
    """The report subcommand."""
    p = sub.add_parser("report", help="count many task files into Markdown, JSON and JUnit reports")
    p.add_argument("tasks", nargs="+", metavar="TASK", help="task files, glob patterns or directories")
    p.add_argument("--markdown", metavar="PATH", help="write a Markdown table (replaced on every run)")
    p.add_argument("--json", metavar="PATH", help="write JSON (stable keys, with the versions used)")
    p.add_argument("--junit", metavar="PATH", help="write JUnit XML: one test case per task")
    p.add_argument(
        "--fail-on-shortcuts",
        action="store_true",
        help="a task without an expect: section fails when it has shortcuts",
    )
    p.add_argument(
        "--update-pins",
        action="store_true",
        help="rewrite expect: count (or shortcuts) where an exact count moved, keeping the file's comments",
    )
    p.add_argument(
        "--github-annotations",
        action="store_true",
        help="print a GitHub workflow command per task that did not pass, on its file's line",
    )
    p.add_argument("--jobs", type=int, metavar="N", help=f"tasks counted at once (default {default_jobs()})")
    p.add_argument("--dask", metavar="ADDRESS", help="count on this Dask distributed scheduler")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="ApproxMC seed (default 1)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    options.counting_options(p, timeout=120, per=" (per task, default 120)")


def exit_status(entries: list[Judgement]) -> Exit:
    """2 if any task is invalid, else 3 if any stopped at a limit, else 1 if an expectation failed,
    else 0 (docs/ci.md; shortcuts fail only with --fail-on-shortcuts, as a failed pin)."""
    return worst(judged_exit(e.status, refuse_shortcuts=False) for e in entries)


def _update_pins(entries: list[Judgement], settings: CountSettings) -> list[str]:
    """Rewrite the file's own pins where an exact count failed them, and judge those tasks again on
    the pins as rewritten (a failed bound still fails: bounds are never rewritten). Each file is
    rewritten within the time limit of one task (its round-trip parse is slow on a large file); one
    that cannot be rewritten (a pin through a merge key or an alias) is said, and the others go on."""
    done = []
    for e in entries:
        r = e.result
        if e.status != Status.FAILED or not e.own_pins or r is None or not r.exact or e.path is None:
            continue
        if digits(r.count) > MAX_DIGITS:  # a pin nobody could read
            continue
        try:
            changed = run_stoppable(
                update_pins, Path(e.path), r.count, r.intended, **settings.limits(), what="--update-pins"
            )
        except RscountError as exc:
            done.append(f"  {terminal(e.file)}: not updated ({terminal(str(exc))})")
            continue
        pins = {o.expectation: changed.get(o.expectation, (o.expected, o.expected))[1] for o in e.outcomes}
        e.outcomes = judge_result(pins, r)
        done += [f"  {terminal(e.file)}: expect.{key} {old} -> {new}" for key, (old, new) in changed.items()]
    return done


def run(args: argparse.Namespace) -> int:
    """Count every task named; write the asked-for reports (replacing old ones); see exit_status."""
    settings = options.settings(args)
    outputs = {kind: getattr(args, kind) for kind in OUTPUTS}
    paths = task_paths(args.tasks)
    check_report_outputs(outputs, paths)
    progress = options.progress(args)
    try:
        entries = count_files(paths, settings, args.fail_on_shortcuts, args.jobs, args.dask, progress)
    finally:
        progress.clear()
    updated = _update_pins(entries, settings) if args.update_pins else []
    wrote = write_reports(entries, settings, outputs, inputs_of(entries))
    if wrote:
        say("\n".join(wrote))
    else:
        say(markdown_report(entries, settings), end="")
    say(summary_line(entries))
    for e in entries:
        if e.status.fails:
            say(f"  {terminal(e.file)}: {report_verdict(e)}")
    if updated:
        say("pins updated:\n" + "\n".join(updated))
    if args.github_annotations:
        print("\n".join(workflow_commands(entries)))
    return exit_status(entries)


HANDLERS = {"report": run}
