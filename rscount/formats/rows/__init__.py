"""Rows of concept vectors read from files: the support of a task file (`support: {file: F}`) and the
test rows of `forecast --test`. Row formats are registered by name below, and a file whose format is
not given is read by the first in DETECTION that claims it (the most particular first); a new format
is a module with its RowFormat and a line in each."""

from __future__ import annotations

from pathlib import Path

from .annotations import Annotations
from .clevr import CLEVR_FORMAT
from .format import RowFormat, RowRequest
from .kandy import KANDY_FORMAT
from .tables import CSV_FORMAT, JSON_LINES_FORMAT

__all__ = ["Annotations", "RowFormat", "RowRequest", "ROW_FORMATS", "detect", "by_suffix"]

ROW_FORMATS: dict[str, RowFormat] = {
    f.name: f for f in (CSV_FORMAT, JSON_LINES_FORMAT, KANDY_FORMAT, CLEVR_FORMAT)
}
DETECTION = (CLEVR_FORMAT, KANDY_FORMAT, JSON_LINES_FORMAT, CSV_FORMAT)  # CSV claims every file
HEAD = 4096  # characters of a file a format is recognised from


def detect(path: Path, text: str) -> RowFormat:
    """The format of a file from its content and extension: the first in DETECTION that claims it."""
    head = text.lstrip()[:HEAD]
    return next(f for f in DETECTION if f.claims(path, head))


def by_suffix(path: Path) -> RowFormat | None:
    """The format a file's extension names, if one does."""
    suffix = path.suffix.lower()
    return next((f for f in ROW_FORMATS.values() if suffix in f.suffixes), None)
