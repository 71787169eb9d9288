"""Output files: the one guard every command's outputs pass before any work, and the one writer.

Outputs are refused before the work starts when two share a path, when a path is a directory or
has no parent directory, when it is one of the run's inputs, and (unless overwriting is asked for)
when a file exists. Every file is
written atomically: a temporary file in the same directory, then a rename over the target, so a
kill or a full disk never leaves a half-written task file or report (the target keeps its mode).
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from .errors import OutputError, OutputExists, quote

Paths = Mapping[str, "str | os.PathLike[str] | None"]  # output name (e.g. 'markdown') -> path or None


def check_outputs(
    outputs: Paths, overwrite: bool = False, inputs: Iterable[str | os.PathLike[str]] = ()
) -> None:
    """Refuse outputs (name -> path; None: not asked for) that cannot or must not be written; an
    output that is one of the run's `inputs` (a task file, a program it reads) is refused even when
    overwriting is asked for: a report written over the task it reports on loses the task."""
    read = [Path(p) for p in inputs]
    seen: dict[Path, str] = {}
    for name, path in outputs.items():
        if path is None:
            continue
        target = Path(path)
        resolved = target.resolve()
        if resolved in seen:
            raise OutputError(str(target), f"also the {seen[resolved]} output (give each its own path)", name)
        seen[resolved] = name
        if any(_same_file(target, source) for source in read):
            raise OutputError(str(target), "is one of the inputs (it would be written over)", name)
        if target.is_dir():
            raise OutputError(str(target), "is a directory", name)
        if not target.parent.is_dir():
            raise OutputError(str(target), f"no directory {quote(str(target.parent))} to write into", name)
        if target.exists() and not overwrite:
            raise OutputExists(str(target), name)


def _same_file(target: Path, source: Path) -> bool:
    """Whether two paths name one file (the same path, or links to one file)."""
    try:
        return target.resolve() == source.resolve() or (target.exists() and os.path.samefile(target, source))
    except OSError:
        return False


def write_output(
    path: str | os.PathLike[str],
    text: str,
    name: str,
    overwrite: bool = False,
    inputs: Iterable[str | os.PathLike[str]] = (),
) -> None:
    """Write `text` to the output `name` at `path`, after check_outputs; OS errors as OutputError."""
    check_outputs({name: path}, overwrite, inputs)
    try:
        replace_atomically(Path(path), text)
    except OSError as exc:
        raise OutputError(str(path), f"cannot write: {exc.strerror}", name) from None


def replace_atomically(target: Path, data: str | bytes) -> None:
    """Write `data` (text as UTF-8) to a temporary file beside `target`, flush it to disk, give it
    `target`'s mode (a new file: the mode the umask allows) and rename it over `target`; on any
    failure the temporary file is removed and `target` is as it was."""
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data.encode() if isinstance(data, str) else data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
