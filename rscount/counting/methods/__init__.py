"""The counting methods, one package each, named as on the command line (`--method source-sets` is
`source_sets/`): its `backend.py` is the door in for counting (one protocol, protocol.Backend), its
`__init__.py` names the little else it offers outside (to insight, to auto's policy), and its other
modules are its parts, imported by no module outside it. A method imports the shared engines
(rscount.counting.engines), never another method. The registry below is explicit: adding a method
is a package, a Method and a line."""

from __future__ import annotations

from ..settings import Method
from .approxmc.backend import ApproxMCBackend
from .closed_form.backend import ClosedFormsBackend
from .decompose.backend import DecomposeBackend
from .decompose_approx.backend import DecomposeApproxBackend
from .enumerate.backend import EnumerateBackend
from .ganak.backend import GanakBackend
from .jrs.backend import JrsBackend
from .protocol import Backend
from .sdd.backend import SddBackend
from .search.backend import SearchBackend
from .source_sets.backend import SourceSetsBackend
from .source_tuples.backend import SourceTuplesBackend

BACKENDS: dict[Method, Backend] = {
    backend.method: backend
    for backend in (
        ClosedFormsBackend(),
        EnumerateBackend(),
        SddBackend(),
        DecomposeBackend(),
        DecomposeApproxBackend(),
        SourceSetsBackend(),
        SourceTuplesBackend(),
        ApproxMCBackend(),
        JrsBackend(),
        SearchBackend(),
        GanakBackend(),
    )
}
