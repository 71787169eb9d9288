"""Reading the files a task is made of (task files, DIMACS, annotations): text, or one error naming
the file."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import FormatError


def read_text(path: str | os.PathLike[str]) -> str:
    """The text of an input file; unreadable or non-UTF-8 files as a FormatError naming the file."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise FormatError(str(path), f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise FormatError(str(path), "not a UTF-8 text file") from None
