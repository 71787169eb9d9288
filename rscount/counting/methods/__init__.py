"""The counting methods, one package each, named as on the command line (`--method source-sets` is
`source_sets/`): its `backend.py` is the door in for counting (one protocol, protocol.Backend), its
`__init__.py` names the little else it offers outside (to insight, to auto's policy), and its other
modules are its parts, imported by no module outside it. A method imports the shared engines
(rscount.counting.engines), never another method. The registry below is explicit: adding a method
is a package, a Method and a line.

A mode may have a counter of its own instead of methods, a package named after the mode: the jrs
mode's sum over value-map kernels (jrs/). It is chosen by the mode (MODE_COUNTERS), never by
`--method`; in its mode it answers to the method its results state (closed-form: the sum is stated
by its formula), which `auto` and `exact` name there too."""

from __future__ import annotations

from ...progress import Progress
from ...task.model import Mode
from ..budget import Budget, Unsuited
from ..problem import CountProblem
from ..result import CountResult
from ..settings import CountSettings, Method
from .approxmc.backend import ApproxMCBackend
from .closed_form.backend import ClosedFormsBackend
from .decompose.backend import DecomposeBackend
from .decompose_approx.backend import DecomposeApproxBackend
from .enumerate.backend import EnumerateBackend
from .equalities.backend import EqualitiesBackend
from .ganak.backend import GanakBackend
from .jrs.backend import JrsBackend
from .linear.backend import LinearBackend
from .pairwise.backend import PairwiseBackend
from .protocol import Backend
from .sdd.backend import SddBackend
from .search.backend import SearchBackend
from .source_sets.backend import SourceSetsBackend
from .source_tuples.backend import SourceTuplesBackend

# The methods that count the maps of an extractor in place (docs/closed-forms.md): those over the
# CNF, whose permutation the encoding fixes, and those over the class walk, which walks the identity
# alone. The others sum over every permutation in ways of their own, and decline it.
IN_PLACE = frozenset(
    {Method.ENUMERATE, Method.SDD, Method.DECOMPOSE, Method.DECOMPOSE_APPROX, Method.APPROXMC}
    | {Method.SEARCH, Method.GANAK, Method.LINEAR, Method.EQUALITIES, Method.PAIRWISE}
)
# The methods that count value maps from a concept's ground-truth values into more predicted
# classes (`predicts:`): the CNF's, which fix the images of the classes the data never shows, and
# the class walk's, which leaves them out of its free values.
WIDENED = IN_PLACE


class ExtractorGuard:
    """A backend that declines the tasks whose extractor it does not count: an extractor in place
    only by the IN_PLACE methods, one predicting more classes than the data shows only by the
    WIDENED ones, and either only in the disentangled and objects modes."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.method, self.exact, self.description = backend.method, backend.exact, backend.description

    def count(
        self, problem: CountProblem, settings: CountSettings, progress: Progress | None, budget: Budget
    ) -> CountResult:
        """The backend's count, or Unsuited for an extractor it does not count."""
        task = problem.task
        unmapped = task.unmapped_in(problem.mode)
        if unmapped:
            raise Unsuited(unmapped)
        if task.in_place and self.method not in IN_PLACE:
            raise Unsuited(f"{self.method} does not count the maps of an extractor in place")
        if task.predicts_more and self.method not in WIDENED:
            raise Unsuited(
                f"{self.method} does not count predicted classes beyond the ground truth (predicts:)"
            )
        return self.backend.count(problem, settings, progress, budget)


BACKENDS: dict[Method, Backend] = {
    backend.method: ExtractorGuard(backend)
    for backend in (
        ClosedFormsBackend(),
        EnumerateBackend(),
        SddBackend(),
        DecomposeBackend(),
        DecomposeApproxBackend(),
        SourceSetsBackend(),
        SourceTuplesBackend(),
        ApproxMCBackend(),
        SearchBackend(),
        GanakBackend(),
        LinearBackend(),
        EqualitiesBackend(),
        PairwiseBackend(),
    )
}
MODE_COUNTERS: dict[Mode, Backend] = {Mode.JRS: ExtractorGuard(JrsBackend())}


def backend_for(method: Method, mode: Mode) -> Backend:
    """The backend that counts as `method` in `mode`: the mode's own counter for the method it
    states, else the method's (which declines a mode it does not count)."""
    own = MODE_COUNTERS.get(mode)
    return own if own is not None and own.method == method else BACKENDS[method]
