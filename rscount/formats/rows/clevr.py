"""CLEVR-style scene JSON (`{"scenes": [{"objects": [{"color": ..., "shape": ..., ...}]}]}`), for tasks
with `objects:`: each scene's objects, in the order listed, are the task's objects."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ...errors import AnnotationError
from ..inputs import read_text
from .annotations import Annotations
from .format import RowFormat, RowRequest
from .objects import object_row
from .tables import unique_keys


def _read_clevr(path: Path, request: RowRequest) -> Annotations:
    """The scenes of a CLEVR-style scene JSON, one row per scene (its position as the line)."""
    objects = request.objects
    assert objects is not None  # the registry reads it for tasks with objects only
    try:
        data = json.loads(read_text(path), object_pairs_hook=unique_keys)
    except (ValueError, RecursionError) as exc:
        why = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc) or "nested too deeply"
        raise AnnotationError(str(path), f"invalid JSON: {why}") from None
    scenes = data.get("scenes") if isinstance(data, dict) else None
    if not isinstance(scenes, list) or not scenes:
        raise AnnotationError(str(path), 'expected {"scenes": [{"objects": [...]}, ...]} with scenes')
    lines, rows = [], []
    for n, scene in enumerate(scenes, 1):
        listed = scene.get("objects") if isinstance(scene, dict) else None
        if not isinstance(listed, list):
            raise AnnotationError(str(path), f"scene {n} has no objects list")
        rows.append(object_row(objects, listed, path, None, f"scene {n}"))
        lines.append(n)
    return Annotations(path, lines, rows, {}, [])


def _claims(path: Path, head: str) -> bool:
    return bool(re.match(r'\{\s*"(info|scenes)"', head))


CLEVR_FORMAT = RowFormat("clevr", _read_clevr, _claims, "a CLEVR scene file", (), objects=True)
