"""The errors rscount raises for its user, one type per kind of problem.

Every error's text is one line that names where the problem is: a file and line, a task field, an
output, a setting. The library names settings as the Python API spells them (`timeout`, `epsilon`);
only `rscount.cli` knows which command-line flag sets each, and which exit code each kind gets.
"""

from __future__ import annotations

import reprlib

from .sinks import terminal

MAX_QUOTE = 80  # user values quoted in messages are cut to about this many characters


_SHORT = reprlib.Repr()  # bounded work too: a hostile value may be huge or nested thousands deep
_SHORT.maxstring = _SHORT.maxother = _SHORT.maxlong = MAX_QUOTE
_SHORT.maxlevel = 3
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 10


def quote(value: object) -> str:
    """`repr(value)`, cut to about MAX_QUOTE characters, so a hostile value cannot flood a message."""
    try:
        text = _SHORT.repr(value)
    except (ValueError, RecursionError):  # an int too long to print, a structure too deep
        text = f"<a {type(value).__name__} too large to show>"
    return cut(text)


def cut(text: str) -> str:
    """`text` cut to about MAX_QUOTE characters (text from the user)."""
    return text if len(text) <= MAX_QUOTE else text[: MAX_QUOTE - 3] + "..."


def short(text: str) -> str:
    """User text shown unquoted in a one-line message: cut, with unprintable characters escaped
    (rscount.sinks.terminal)."""
    return cut(terminal(text[: MAX_QUOTE + 1]))


def cut_path(path: str, keep: int = 2 * MAX_QUOTE) -> str:
    """A file path cut to its last `keep` characters (the file name is what tells)."""
    return path if len(path) <= keep else "..." + path[3 - keep :]


def _joined(*parts: str | None) -> str:
    return ": ".join(p for p in parts if p)


def _rebuild(cls: type[RscountError], args: tuple[object, ...], state: dict[str, object]) -> RscountError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class RscountError(Exception):
    """Base of every error rscount reports to its user (its text is one line). `remedies` names
    the settings that would get past it (e.g. 'timeout'), for the CLI to point at their flags.

    Errors keep their type and fields when they cross a process boundary (a count runs in a child
    process): they pickle as their message and attributes, whatever their constructor takes."""

    remedies: tuple[str, ...] = ()

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), self.args, self.__dict__))


class InvalidInput(RscountError):
    """Input rscount cannot use: a task, a file, a setting, an output path."""


class TaskError(InvalidInput):
    """A task's content is invalid; `field` names where (`labels.y`, `support[3]`, '' for the whole).
    `inner`: the error of the file the field names (a program, an annotation file), which says where
    in that file the problem is."""

    def __init__(self, field: str, problem: str, inner: FormatError | None = None) -> None:
        self.field = field
        self.problem = problem
        self.inner = inner
        super().__init__(_joined(field, problem))

    @classmethod
    def from_file(cls, field: str, error: FormatError, written: str | None = None) -> TaskError:
        """The error of a file that task field `field` names, kept as `inner`; `written`: the file
        as the field writes it, which the message names (else the path the error has)."""
        shown = error if written is None else FormatError(written, error.problem, error.line)
        return cls(field, str(shown), error)

    def in_file(self, path: str) -> TaskFileError:
        """The same error, located in the task file at `path`."""
        return TaskFileError(path, self.field, self.problem, self.inner)


class TaskFileError(TaskError):
    """A task file is invalid: its path, the field (may be '') and the problem."""

    def __init__(self, path: str, field: str, problem: str, inner: FormatError | None = None) -> None:
        super().__init__(field, problem, inner)
        self.path = path
        self.args = (_joined(cut_path(path), field, problem),)


class FormatError(InvalidInput):
    """A file that does not follow its format: path, line (None when the whole file) and problem."""

    def __init__(self, path: str, problem: str, line: int | None = None) -> None:
        self.path = path
        self.line = line
        self.problem = problem
        where = cut_path(path) if line is None else f"{cut_path(path)}:{line}"
        super().__init__(_joined(where, problem))


def origin(error: RscountError) -> tuple[str | None, int | None]:
    """The file and line an error is in, as precisely as it knows: the innermost file a task field
    named (a program's line), else the task file or the file read, else (None, None)."""
    inner = getattr(error, "inner", None)
    if isinstance(inner, FormatError):
        return inner.path, inner.line
    return getattr(error, "path", None), getattr(error, "line", None)


class DimacsError(FormatError):
    """A malformed DIMACS CNF file."""


class AnnotationError(FormatError):
    """A malformed or contradicting annotation file (CSV or JSON lines)."""


class InvalidSetting(InvalidInput):
    """A setting of a computation that means nothing (`setting` as the Python API names it)."""

    def __init__(self, setting: str, problem: str) -> None:
        self.setting = setting
        self.problem = problem
        super().__init__(_joined(setting, problem))


class UnknownMethod(InvalidSetting):
    """A counting method that does not exist."""

    def __init__(self, name: str, choices: list[str]) -> None:
        self.name = name
        self.choices = choices
        super().__init__("method", f"unknown method {quote(name)} (choose from {', '.join(choices)})")


class UnknownMode(InvalidSetting):
    """A counting mode that does not exist."""

    def __init__(self, name: str, choices: list[str]) -> None:
        self.name = name
        self.choices = choices
        super().__init__("mode", f"unknown mode {quote(name)} (choose from {', '.join(choices)})")


class NotApplicable(InvalidInput):
    """A method or mode that cannot count this task (the message says why)."""

    def __init__(self, message: str, remedies: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.remedies = remedies


class OutputError(InvalidInput):
    """An output file that cannot be written; `output` names which output (e.g. 'markdown')."""

    def __init__(self, path: str, problem: str, output: str | None = None) -> None:
        self.path = path
        self.output = output
        self.problem = problem
        super().__init__(_joined(cut_path(path), problem))


class OutputExists(OutputError):
    """An output file exists and overwriting was not asked for."""

    def __init__(self, path: str, output: str | None = None) -> None:
        super().__init__(path, "exists (not overwritten)", output)


class CountsDisagree(RscountError):
    """Two independent routes gave different exact counts of one task (a cross-check failed)."""

    def __init__(self, first_method: str, first: int, second_method: str, second: int) -> None:
        self.first, self.second = first, second
        super().__init__(
            f"cross-check failed: {first_method} counts {first}, {second_method} counts {second} "
            "(one of them is wrong: please report it with the task)"
        )


class InternalError(RscountError):
    """rscount failed where no input should make it fail: an exception of its own code, two of its
    own results that disagree, or a process killed by a signal it did not send (a solver library's
    crash). `details` keeps the traceback where there is one (shown with RSCOUNT_DEBUG=1)."""

    def __init__(self, message: str, details: str = "") -> None:
        self.details = details
        super().__init__(f"internal error: {message} (please report it with the task)")


class LimitReached(RscountError):
    """The work stopped at a resource limit; `known` says in words what was established before it
    (or ''), `partial` the same as data (e.g. lower_bound, classes_done, classes_total)."""

    def __init__(self, message: str, known: str = "", partial: dict[str, object] | None = None) -> None:
        self.known = known
        self.partial = dict(partial or {})
        super().__init__(message + (f"; {known}" if known else ""))


class TimeLimitExceeded(LimitReached):
    """The time limit (`seconds`) was reached."""

    remedies = ("timeout",)

    def __init__(
        self, seconds: float, what: str = "", known: str = "", partial: dict[str, object] | None = None
    ) -> None:
        self.seconds = seconds
        prefix = f"{what}: " if what else ""
        super().__init__(f"{prefix}stopped after the time limit of {seconds:g} s", known, partial)


class CapExceeded(LimitReached):
    """An input asks for more than a cap of rscount.limits allows (checked before allocating);
    `variable` is the environment variable that raises the cap."""

    def __init__(self, where: str, amount: str, cap: int, variable: str) -> None:
        self.where = where
        self.cap = cap
        self.variable = variable
        self.amount = amount
        super().__init__(_joined(where, f"{amount}, over the cap of {cap} (set {variable} to raise it)"))

    def in_file(self, path: str) -> CapExceeded:
        """The same error, located in the file at `path`."""
        return CapExceeded(_joined(path, self.where), self.amount, self.cap, self.variable)


class MemoryLimitExceeded(LimitReached):
    """The memory limit (`gigabytes`) was reached."""

    remedies = ("memory",)

    def __init__(
        self, gigabytes: float, what: str = "", known: str = "", partial: dict[str, object] | None = None
    ) -> None:
        self.gigabytes = gigabytes
        prefix = f"{what}: " if what else ""
        super().__init__(f"{prefix}stopped at the memory limit of {gigabytes:g} GB", known, partial)
