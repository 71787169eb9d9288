"""Counting backends behind one interface; each module in this package defines `BACKEND`.

Adding a backend means adding a module here: discovery is by package scan, nothing else changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..encoding import Encoding
from ..progress import Progress


@dataclass
class CountOptions:
    """Settings a backend may use; approximate ones report epsilon/delta/seed back."""

    epsilon: float = 0.8
    delta: float = 0.2
    seed: int = 1
    progress: Progress | None = None


@dataclass
class CountResult:
    """A count of optimal concept maps (the estimate, for approximate methods)."""

    count: int
    exact: bool
    method: str
    seconds: float = 0.0
    epsilon: float | None = None
    delta: float | None = None
    seed: int | None = None
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def shortcuts(self) -> int:
        """Optimal maps other than the intended one (an estimate when the count is approximate)."""
        return max(self.count - 1, 0)


class Backend(Protocol):
    """What every backend module's BACKEND provides."""

    name: str
    exact: bool
    description: str

    def count(self, encoding: Encoding, options: CountOptions) -> CountResult:
        """Count the models of the encoding projected on its map variables."""


def backends() -> dict[str, Backend]:
    """All backends found in this package, by name."""
    found: dict[str, Backend] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        backend = getattr(module, "BACKEND", None)
        if backend is not None:
            found[backend.name] = backend
    return found
