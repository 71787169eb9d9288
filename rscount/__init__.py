"""rscount: count the reasoning shortcuts of a neuro-symbolic learning task before training it.

The Python API (`load_task`, `count`, `check`) is in rscount.api and importable from here.
"""

from typing import Any

__version__ = "0.1.0"
__all__ = ["__version__", "load_task", "count", "check"]


def __getattr__(name: str) -> Any:
    """The API functions, imported on first use (the package's modules import __version__ from here)."""
    if name in ("load_task", "count", "check"):
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'rscount' has no attribute {name!r}")
