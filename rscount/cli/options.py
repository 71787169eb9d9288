"""Command-line pieces every counting subcommand shares: the support, counting and output flags, the
count settings they make, and the task a command line describes."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from ..counting.jobs import within
from ..counting.methods import BACKENDS
from ..counting.processes.parallel import default_jobs
from ..counting.settings import DEFAULT_DELTA, DEFAULT_EPSILON, CountSettings, Method
from ..errors import InvalidSetting, quote
from ..formats import dimacs
from ..formats.programs import Program, ProgramKey, keep_programs, programs_kept
from ..formats.task_files import files_read
from ..knowledge.loading import checked, load_task
from ..outputs import check_outputs
from ..progress import Progress
from ..task.families import builtin_task, cnf_task, dimacs_task, random_cnf
from ..task.model import Extractor, Mode, Task
from ..task.support import support_from_spec

FAMILY_COMMANDS = ("xor", "and", "or")
BUILTIN_COMMANDS = (*FAMILY_COMMANDS, "random", "cnf")


def _amount(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {quote(text)}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {quote(text)}")
    return value


def positive_int(text: str) -> int:
    """An argparse type: a whole number >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {quote(text)}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {quote(text)}")
    return value


def support_options(parser: argparse.ArgumentParser) -> None:
    """--fraction/--examples, --seed and --concept-sup."""
    sup = parser.add_argument_group("training support")
    size = sup.add_mutually_exclusive_group()
    size.add_argument(
        "--fraction",
        type=_amount,
        metavar="F",
        help="sample this fraction (<= 1) of the support, or this many vectors (> 1)",
    )
    size.add_argument("--examples", type=int, metavar="N", help="sample N distinct concept vectors")
    sup.add_argument(
        "--seed",
        type=int,
        default=1,
        metavar="S",
        help="seed for sampling, random knowledge and ApproxMC (default 1)",
    )
    sup.add_argument(
        "--concept-sup",
        type=_amount,
        metavar="F|N",
        help="concept-supervise this fraction (<= 1) or number (> 1) of support rows",
    )


def output_options(parser: argparse.ArgumentParser, emit: bool = True) -> None:
    """--json, --quiet and --verbose; with `emit`, also --emit, --ind and --force."""
    out = parser.add_argument_group("output")
    if emit:
        out.add_argument(
            "--emit", metavar="PATH", help="write the DIMACS encoding; counts too only if a method is given"
        )
        out.add_argument("--ind", action="store_true", help="write the projection as 'c ind' (with --emit)")
        out.add_argument("--force", action="store_true", help="let --emit overwrite an existing file")
    out.add_argument("--json", action="store_true", help="print one JSON object")
    out.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    out.add_argument(
        "--verbose", "-v", action="store_true", help="also show auto's race and why no closed form applied"
    )


def common_options(parser: argparse.ArgumentParser) -> None:
    """The support, counting and output flags every counting command shares."""
    support_options(parser)
    counting_options(parser)
    output_options(parser)


def counting_options(parser: argparse.ArgumentParser, timeout: float | None = None, per: str = "") -> None:
    """The mode, method, ApproxMC and time-limit flags (`per` qualifies the time limit's help)."""
    how = parser.add_argument_group("counting")
    how.add_argument(
        "--mode",
        choices=list(Mode),
        help="disentangled: maps (pi, f) as rsbench countrss; joint: any map D -> D (eq. 7); objects: "
        "object and attribute permutations with one value map per attribute shared by all objects; "
        "jrs: pairs (concept map, learned inference layer), joint reasoning shortcuts "
        "(default: the task file's mode:, else objects for tasks with objects:, else disentangled)",
    )
    how.add_argument(
        "--extractor",
        choices=list(Extractor),
        help="how the concept extractor is built: permuting (any concept may feed any predicted "
        "concept, as rsbench countrss), in-place (one network per input: each predicted concept reads "
        "its own), shared (one network for every object: objects and attributes may be exchanged), "
        "shared-in-place (one network applied to each object where it stands); default: the task "
        "file's extractor:, else shared for tasks with objects:, else permuting",
    )
    method = how.add_mutually_exclusive_group()
    shortcuts = {
        "--closed-form": (
            Method.CLOSED_FORM,
            "exact count by a closed form (fails, saying why, where none applies)",
        ),
        "--exact": (
            Method.EXACT,
            "exact count: decomposition by permutation with SDDs (disentangled), SDD (joint), "
            "the mode's own sum (jrs)",
        ),
        "--approx": (
            Method.APPROX,
            "approximate count: ApproxMC per permutation class when few, else whole CNF",
        ),
        "--enumerate": (Method.ENUMERATE, "exact count by SAT enumeration (small counts)"),
    }
    for option, (const, text) in shortcuts.items():
        method.add_argument(option, dest="method", action="store_const", const=const, help=text)
    method.add_argument(
        "--method",
        dest="method",
        metavar="NAME",
        help=f"auto (default: a closed form if one applies, else a backend), {Method.CLOSED_FORM}, "
        f"{Method.EXACT}, {Method.APPROX}, or a backend: " + ", ".join(sorted(BACKENDS)),
    )
    how.add_argument(
        "--epsilon",
        type=float,
        default=DEFAULT_EPSILON,
        help=f"ApproxMC tolerance (default {DEFAULT_EPSILON})",
    )
    how.add_argument(
        "--delta",
        type=float,
        default=DEFAULT_DELTA,
        help=f"ApproxMC confidence 1-delta (default {DEFAULT_DELTA})",
    )
    how.add_argument(
        "--timeout",
        type=float,
        default=timeout,
        metavar="SECONDS",
        help="stop after this long (reading the task included)" + per + "; exit code 3",
    )
    how.add_argument(
        "--cross-check",
        action="store_true",
        help="recount an exact answer by an independent route (another backend); both figures and "
        "exit code 2 if they disagree",
    )
    how.add_argument(
        "--memory",
        type=float,
        metavar="GB",
        help=f"stop when the work holds this much memory (default {default_memory():g}: 3/4 of this "
        "machine's, shared by parallel jobs); exit code 3",
    )


def default_memory(jobs: int = 1) -> float:
    """The default memory limit in GB: 3/4 of the machine's memory, shared by `jobs` parallel jobs."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return round(0.75 * total / max(1, jobs), 1)


def settings(args: argparse.Namespace) -> CountSettings:
    """The count settings the counting flags give (checked: bad values name their flag)."""
    jobs = getattr(args, "jobs", None) or (default_jobs() if hasattr(args, "jobs") else 1)
    return CountSettings(
        method=args.method or Method.AUTO,
        mode=args.mode,
        epsilon=args.epsilon,
        delta=args.delta,
        seed=args.seed,
        timeout=args.timeout,
        memory=default_memory(jobs) if args.memory is None else args.memory,
        jobs=getattr(args, "class_jobs", None) or 1,
        dask=getattr(args, "class_dask", None),
        cross_check=args.cross_check,
    )


def progress(args: argparse.Namespace) -> Progress:
    """A progress display on a terminal, unless --quiet (or --json)."""
    return Progress(enabled=False if args.quiet or getattr(args, "json", False) else None)


def _support_override(args: argparse.Namespace) -> tuple[Any, Any]:
    """Support and supervision specs from the flags (None where the flags say nothing)."""
    support: Any = None
    if args.fraction is not None:
        support = {"sample": args.fraction, "seed": args.seed}
    elif args.examples is not None:
        support = {"examples": args.examples, "seed": args.seed}
    supervision = {"sample": args.concept_sup, "seed": args.seed} if args.concept_sup else None
    return support, supervision


def support_overridden(args: argparse.Namespace) -> bool:
    """Whether the support flags replace the support or supervision the task file gives."""
    return any(x is not None for x in _support_override(args))


def class_jobs_option(parser: argparse.ArgumentParser) -> None:
    """--jobs and --dask: where the permutation classes of one count are counted (decomposition)."""
    parser.add_argument(
        "--jobs",
        dest="class_jobs",
        type=positive_int,
        default=1,
        metavar="N",
        help="processes counting permutation classes side by side (default 1; docs/performance.md)",
    )
    parser.add_argument(
        "--dask",
        dest="class_dask",
        metavar="ADDRESS",
        help="count the permutation classes on the workers of the Dask scheduler at ADDRESS",
    )


def task_within(args: argparse.Namespace, limits: CountSettings) -> tuple[Task, CountSettings]:
    """The task a command line describes, built within the limits of `limits` (a hostile file
    can ask for minutes or gigabytes before any count), and those settings for the rest of the job.
    The programs the reading read are kept here too (advise reads its task again)."""
    (task, programs), rest = within(limits, "reading the task", _task_and_programs, args)
    keep_programs(programs)
    return task, rest


def _task_and_programs(args: argparse.Namespace) -> tuple[Task, list[tuple[ProgramKey, Program]]]:
    """task_from_args, and the programs it read."""
    return task_from_args(args), programs_kept()


def task_from_args(args: argparse.Namespace) -> Task:
    """The task a command line describes: a built-in family, or a file (task file, rsbench config or
    DIMACS knowledge) with the support and extractor flags applied."""
    given = getattr(args, "extractor", None)
    if given is None:
        return _task_read(args, getattr(args, "mode", None))
    extractor = Extractor(given)
    mode = getattr(args, "mode", None)
    contradiction = extractor.contradicts(mode)
    if contradiction:
        raise InvalidSetting("--extractor", f"{contradiction} (--mode)")
    return _task_read(args, mode or extractor.mode).with_extractor(extractor)


def _task_read(args: argparse.Namespace, mode: Mode | None) -> Task:
    """task_from_args without the extractor flag, a file read for counting in `mode`."""
    support, supervision = _support_override(args)
    if args.command in BUILTIN_COMMANDS:
        spec = support or "exhaustive"
        if args.command in FAMILY_COMMANDS:
            return checked(builtin_task(args.command, args.bits, spec, supervision))
        if args.command == "random":
            clauses = random_cnf(args.bits, args.clauses, args.length, args.seed)
            name = f"random{args.bits}-m{args.clauses}-l{args.length}-seed{args.seed}"
            return checked(cnf_task(name, clauses, args.bits, spec, supervision))
        name = Path(args.file).name.removesuffix(".cnf")
        cnf = dimacs.knowledge(dimacs.load(args.file), args.file)
        return checked(dimacs_task(name, cnf, spec, supervision))
    task = load_task(args.file, mode)
    if support is None and supervision is None:
        return task
    old = task.support
    if support is None:
        support = "exhaustive" if old.exhaustive else [list(r) for r in old.rows]
    new = support_from_spec(task.names, task.ground_truths, support, supervision, "support", old)
    if supervision is None:  # the file's supervision, on the rows the sample kept
        return task.with_support(new.given_rows())
    return task.with_support(new.given_rows(), new.supervised)


def check_command_outputs(
    args: argparse.Namespace, outputs: dict[str, Any], task: Task | None = None, overwrite: bool | None = None
) -> None:
    """Refuse a command's outputs before the work they report (rscount.outputs.check_outputs), none
    of them one of its inputs: the files on the command line and, once `task` is read, the files it
    came from (its program, its support file)."""
    inputs = [Path(p) for p in (getattr(args, "file", None), getattr(args, "test", None)) if p]
    inputs = [p for p in inputs if _is_file(p)]
    if task is not None and getattr(args, "file", None):
        inputs += files_read(task, args.file)
    check_outputs(outputs, args.force if overwrite is None else overwrite, inputs)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long for the system names no file
        return False
