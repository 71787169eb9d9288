"""A fuzz case: the input files, written into a fresh working directory, and the command line run
there; the time limit every counting command is given, and the file a hostile input tries to create."""

from __future__ import annotations

from dataclasses import dataclass

LIMIT = 3  # --timeout given to every counting command (seconds)
MARKER = "PWNED"  # what hostile inputs try to create: its presence means code ran
COUNTING = ("--quiet", "--timeout", str(LIMIT))


def _short(data: bytes) -> str:
    if len(data) <= 600:
        return repr(data)
    return f"{data[:400]!r} ... <{len(data)} bytes> ... {data[-120:]!r}"


@dataclass
class Case:
    """The input files (name -> bytes, written into a fresh directory) and the command line."""

    files: dict[str, bytes]
    argv: list[str]
    outputs: frozenset[str] = frozenset()  # files the command was asked to write (when it succeeds)
    dirs: tuple[str, ...] = ()
    outputs_on_error: bool = False  # report writes its files whatever the verdict

    def __repr__(self) -> str:
        files = ", ".join(f"{name!r}: {_short(data)}" for name, data in self.files.items())
        return f"Case(argv={self.argv!r}, files={{{files}}})"

    @property
    def command(self) -> str:
        return self.argv[0]
