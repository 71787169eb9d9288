"""rscount: count the reasoning shortcuts of a neuro-symbolic learning task before training it.

The public API: `load_task`, `task_from_dict`, `count`, `check`, `explain`, `forecast`, `advise`, `sweep`
(rscount.api), the types they take and return, and the errors they raise (rscount.errors). Names
are imported on first use, so `import rscount` stays light (the pytest plugin relies on it).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import (
    CountsDisagree,
    InvalidInput,
    InvalidSetting,
    LimitReached,
    NotApplicable,
    OutputError,
    OutputExists,
    RscountError,
    TaskError,
    TaskFileError,
    TimeLimitExceeded,
    UnknownMethod,
    UnknownMode,
)
from .version import __version__

if TYPE_CHECKING:
    from .api import advise, check, count, explain, forecast, load_task, sweep, task_from_dict
    from .counting.result import CountResult
    from .counting.settings import CountSettings, Method
    from .insight.advise import Advice
    from .insight.explain import Explanation
    from .insight.forecast import Forecast
    from .insight.judging import Judgement, Status
    from .insight.sweep import Sweep
    from .insight.unidentified import Unidentified
    from .task.model import Concept, Mode, Objects, Task

_LAZY = {
    **dict.fromkeys(
        ("load_task", "task_from_dict", "count", "check", "explain", "forecast", "advise", "sweep"), "api"
    ),
    **dict.fromkeys(("Task", "Concept", "Objects", "Mode"), "task.model"),
    **dict.fromkeys(("CountSettings", "Method"), "counting.settings"),
    "CountResult": "counting.result",
    **dict.fromkeys(("Judgement", "Status"), "insight.judging"),
    "Unidentified": "insight.unidentified",
    "Explanation": "insight.explain",
    "Forecast": "insight.forecast",
    "Advice": "insight.advise",
    "Sweep": "insight.sweep",
}

__all__ = [
    "CountsDisagree",
    "__version__",
    "load_task",
    "task_from_dict",
    "count",
    "check",
    "explain",
    "forecast",
    "advise",
    "sweep",
    "Task",
    "Concept",
    "Objects",
    "Mode",
    "CountSettings",
    "Method",
    "CountResult",
    "Judgement",
    "Status",
    "Unidentified",
    "Explanation",
    "Forecast",
    "Advice",
    "Sweep",
    "RscountError",
    "InvalidInput",
    "InvalidSetting",
    "TaskError",
    "TaskFileError",
    "UnknownMethod",
    "UnknownMode",
    "NotApplicable",
    "OutputError",
    "OutputExists",
    "LimitReached",
    "TimeLimitExceeded",
]


def __getattr__(name: str) -> Any:
    """The API's functions and types, imported on first use."""
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'rscount' has no attribute {name!r}")
