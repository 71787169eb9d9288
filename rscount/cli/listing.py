"""`rscount list`: the task files of a directory, or (with --markdown) the catalogue of their counts."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..counting.jobs import load_within
from ..counting.settings import CountSettings
from ..errors import RscountError
from ..outputs import check_outputs, write_output
from ..progress import Progress
from ..report.batch import count_files, task_paths
from ..report.catalogue import JRS_TIMEOUT, markdown
from ..task.model import Mode
from ..task.summary import describe
from .options import default_memory
from .output import say
from .status import Exit

KEYS = ["file", "task", "concepts", "labels", "support", "supervised", "mode"]


def add_commands(sub: Any) -> None:
    """The list subcommand."""
    p = sub.add_parser("list", help="the task files of a directory; --markdown also counts them")
    p.add_argument("directory", nargs="?", default="tasks", help="directory of task files (default tasks)")
    p.add_argument("--markdown", metavar="PATH", help="count every task by auto and write a Markdown table")
    p.add_argument("--timeout", type=float, default=120, metavar="SECONDS", help="per task (default 120)")
    p.add_argument("--memory", type=float, metavar="GB", help="per task (default 3/4 of this machine's)")
    p.add_argument("--force", action="store_true", help="let --markdown overwrite an existing file")


def run(args: argparse.Namespace) -> int:
    """Describe the task files of a directory, or count them into a Markdown table."""
    files = task_paths([args.directory])
    settings = CountSettings(timeout=args.timeout, memory=args.memory or default_memory())
    if not args.markdown:
        rows = [_row(f, settings) for f in files]
        widths = {k: max(len(k), *(len(str(r[k])) for r in rows)) if rows else len(k) for k in KEYS}
        say("  ".join(k.ljust(widths[k]) for k in KEYS))
        for r in rows:
            say("  ".join(str(r[k]).ljust(widths[k]) for k in KEYS))
        return Exit.OK
    check_outputs({"markdown": args.markdown}, args.force, files)
    progress = Progress()
    entries = count_files(files, settings, jobs=1, progress=progress)
    in_jrs = settings.replace(mode=Mode.JRS, timeout=min(args.timeout, JRS_TIMEOUT))
    jrs = count_files(files, in_jrs, jobs=1, progress=progress)
    progress.clear()
    command = f"rscount list {args.directory} --markdown {args.markdown} --timeout {args.timeout:g}"
    write_output(args.markdown, markdown(entries, jrs, command), "markdown", args.force)
    say(f"wrote {args.markdown}: {len(entries)} tasks")
    return Exit.OK


def _row(path: Path, settings: CountSettings) -> dict[str, Any]:
    """A file's line of the listing; a file that does not load says why in place of its task."""
    try:
        return {"file": path.name, **describe(load_within(path, settings)[0])}
    except RscountError as exc:
        return {"file": path.name, **dict.fromkeys(KEYS[1:], ""), "task": f"not readable: {exc}"}


HANDLERS = {"list": run}
