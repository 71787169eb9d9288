"""`rscount report` (counting reports for CI) and `rscount check` (the pre-training design check)."""

from __future__ import annotations

import argparse

from .batch import Settings, count_files, task_paths
from .cliargs import check_counting_args, counting_options
from .parallel import default_jobs
from .progress import Progress
from .report_files import markdown_report, refuse_overwrite, summary, write_reports
from .taskcheck import check_file


def add_commands(sub: argparse._SubParsersAction) -> None:
    """The report and check subcommands."""
    p = sub.add_parser("report", help="count many task files into Markdown, JSON and JUnit reports")
    p.add_argument("tasks", nargs="+", metavar="TASK", help="task files, glob patterns or directories")
    p.add_argument("--markdown", metavar="PATH", help="write a Markdown table")
    p.add_argument("--json", metavar="PATH", help="write JSON (stable keys, with the versions used)")
    p.add_argument("--junit", metavar="PATH", help="write JUnit XML: one test case per task")
    p.add_argument("--force", action="store_true", help="overwrite existing report files")
    p.add_argument(
        "--fail-on-shortcuts",
        action="store_true",
        help="a task without an expect: section fails when it has shortcuts",
    )
    p.add_argument("--jobs", type=int, metavar="N", help=f"tasks counted at once (default {default_jobs()})")
    p.add_argument("--dask", metavar="ADDRESS", help="count on this Dask distributed scheduler")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="ApproxMC seed (default 1)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    counting_options(p, timeout=120, per=" (per task, default 120)")
    p = sub.add_parser("check", help="validate a task file and say whether it admits shortcuts")
    p.add_argument("file", metavar="TASK.yaml")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="ApproxMC seed (default 1)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    counting_options(p, timeout=300, per=" (default 300)")


def _settings(args: argparse.Namespace, fail_on_shortcuts: bool = False) -> Settings:
    check_counting_args(args)
    return Settings(
        args.method or "auto", args.mode, args.epsilon, args.delta, args.seed, args.timeout, fail_on_shortcuts
    )


def report(args: argparse.Namespace) -> int:
    """Count every task named; write the asked-for reports; exit 1 if any task failed or was not counted."""
    settings = _settings(args, args.fail_on_shortcuts)
    outputs = {k: getattr(args, k) for k in ("markdown", "json", "junit") if getattr(args, k)}
    refuse_overwrite(outputs, args.force)
    paths = task_paths(args.tasks)
    progress = Progress(enabled=False if args.quiet else None)
    try:
        entries = count_files(paths, settings, args.jobs, args.dask, progress)
    finally:
        progress.clear()
    if outputs:
        print("\n".join(write_reports(entries, settings, outputs)))
    else:
        print(markdown_report(entries, settings), end="")
    totals = summary(entries)
    print(
        f"{totals['tasks']} tasks: {totals['passed']} passed, {totals['failed']} failed, "
        f"{totals['errors']} not counted"
    )
    for e in entries:
        if e["status"] != "pass":
            print(f"  {e['file']}: {e['verdict']}")
    return 0 if totals["passed"] == totals["tasks"] else 1


def check(args: argparse.Namespace) -> int:
    """Validate and count one task file; exit 0 when free of shortcuts, 1 when not, 2 when invalid."""
    progress = Progress(enabled=False if args.quiet else None)
    try:
        found = check_file(args.file, _settings(args), progress)
    finally:
        progress.clear()
    print(found.text())
    return found.exit_code


HANDLERS = {"report": report, "check": check}
