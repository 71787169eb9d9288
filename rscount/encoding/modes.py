"""The encoding of each counting mode, in one place."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import NotApplicable
from ..progress import Progress
from ..task.model import Mode, Task
from .concept_maps import encode_maps
from .joint import encode_joint
from .model import Encoding

ENCODERS: dict[Mode, Callable[[Task, Progress | None], Encoding]] = {
    Mode.DISENTANGLED: encode_maps,
    Mode.OBJECTS: lambda task, progress: encode_maps(task, progress, objects=True),
    Mode.JOINT: encode_joint,
}


def encode(task: Task, mode: Mode | None = None, progress: Progress | None = None) -> Encoding:
    """The CNF of `task` in counting mode `mode` (default: the task's own)."""
    chosen = Mode.parse(mode or task.mode)
    unmapped = task.unmapped_in(chosen)
    if unmapped:
        raise NotApplicable(unmapped)
    if chosen not in ENCODERS:
        raise NotApplicable(
            f"the {chosen} mode has no CNF: it is counted by its own sum (docs/closed-forms.md)"
        )
    return ENCODERS[chosen](task, progress)
