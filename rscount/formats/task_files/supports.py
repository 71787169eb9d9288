"""A task file's `support:` and `concept_supervision:` sections: rows written in the file, or read
from an annotation file in one of the registered row formats (rscount.formats.rows)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...errors import FormatError, TaskError, quote
from ...task.model import Concept, Objects
from ...task.support import Support, support_from_spec
from ..inputs import read_text
from ..rows import ROW_FORMATS, Annotations, RowRequest, detect


def read_support(
    data: Mapping[str, Any],
    concepts: Sequence[Concept],
    label_names: list[str],
    base: Path,
    objects: Objects | None = None,
) -> tuple[Support, list[Annotations]]:
    """The support and supervision sections, and the annotation files they read."""
    files: dict[str, Annotations] = {}
    specs = []
    for key, default in (("support", "exhaustive"), ("concept_supervision", None)):
        spec = data.get(key, default)
        if isinstance(spec, dict) and "file" in spec:
            request = RowRequest(concepts, label_names, objects, spec.get("task"))
            try:
                files[key] = _annotation_file(key, spec, request, base)
            except FormatError as exc:
                raise TaskError.from_file(key, exc) from None
            spec = files[key].distinct
        specs.append(spec)
    names, domains = [c.name for c in concepts], [c.values for c in concepts]
    support = support_from_spec(names, domains, *specs)
    if "support" in files:
        source = files["support"].summary()
        support = Support(names, domains, support.given_rows(), support.supervision(), source=source)
    return support, list(files.values())


def _annotation_file(key: str, spec: Mapping[str, Any], request: RowRequest, base: Path) -> Annotations:
    """The annotation file of `{file: PATH, format: F, task: N}` (format detected when omitted)."""
    extra = sorted(set(spec) - {"file", "format", "task"})
    if extra:
        raise TaskError(key, f"unknown key {quote(extra[0])} (known: file, format, task)")
    path = base / str(spec["file"])
    chosen = spec.get("format")
    if chosen and (not isinstance(chosen, str) or chosen not in ROW_FORMATS):
        raise TaskError(f"{key}.format", f"{quote(chosen)} is not one of {', '.join(ROW_FORMATS)}")
    row_format = ROW_FORMATS[chosen] if chosen else detect(path, read_text(path))
    if "task" in spec and not row_format.selects_task:
        takers = " or ".join(f.title for f in ROW_FORMATS.values() if f.selects_task)
        raise TaskError(f"{key}.task", f"selects the rows of one task_id of {takers} only")
    if row_format.objects and request.objects is None:
        raise TaskError(
            key, f"a {row_format.name} file describes objects: the task needs an objects: section"
        )
    if row_format.one_label and len(request.labels) != 1:
        raise TaskError(key, f"{row_format.title} gives one label: the task needs exactly one")
    return row_format.read(path, request)
