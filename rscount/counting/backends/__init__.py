"""Counting backends behind one protocol (protocol.Backend), one module per counter, and the
explicit registry of them: adding a backend is a module, a Method and a line below."""

from __future__ import annotations

from ..settings import Method
from .approxmc import ApproxMCBackend
from .decompose import DecomposeBackend
from .decompose_approx import DecomposeApproxBackend
from .enumerate import EnumerateBackend
from .protocol import Backend
from .sdd import SddBackend
from .source_sets import SourceSetsBackend
from .source_tuples import SourceTuplesBackend

BACKENDS: dict[Method, Backend] = {
    backend.method: backend
    for backend in (
        EnumerateBackend(),
        SddBackend(),
        DecomposeBackend(),
        DecomposeApproxBackend(),
        SourceSetsBackend(),
        SourceTuplesBackend(),
        ApproxMCBackend(),
    )
}
