"""A second opinion on an exact count (`--cross-check`): the task counted again by another route,
the most independent first (ROUTES), within what is left of the time limit. The first second route
that answers is compared; a disagreement is an error that shows both figures, since one of them is
a bug."""

from __future__ import annotations

import time
from typing import Any

from ..errors import CountsDisagree
from ..progress import Progress
from ..task.model import Mode
from .budget import UNBOUNDED, Declined
from .engines import ganak
from .methods import BACKENDS
from .problem import CountProblem
from .processes.parallel import processors
from .processes.race import Entrant, race
from .result import CountResult
from .settings import CountSettings, Method

S = Method
# The routes that check an answer of each method, raced: the whole CNF's SDD and its enumeration
# share no code with the class-based methods; search and decompose share the permutation classes
# (the knowledge's symmetries), so each checks the other only with the independent ones beside it.
# The source methods sum over which concepts feed each label group, not over permutations (they
# share only the label tables with search): for knowledge no CNF holds (programs over ten thousand
# rows), they are search's second opinion. GANAK, where it is installed, joins every race but its
# own (it shares only the encoding).
MAP_ROUTES: dict[Method, tuple[Method, ...]] = {
    S.CLOSED_FORM: (S.SEARCH, S.SDD, S.ENUMERATE),
    S.DECOMPOSE: (S.SDD, S.ENUMERATE, S.SEARCH),
    S.SOURCE_SETS: (S.SDD, S.ENUMERATE, S.SEARCH, S.DECOMPOSE),
    S.SOURCE_TUPLES: (S.SDD, S.ENUMERATE, S.SEARCH, S.DECOMPOSE),
    S.SEARCH: (S.SDD, S.ENUMERATE, S.DECOMPOSE, S.SOURCE_SETS, S.SOURCE_TUPLES),
    S.SDD: (S.SEARCH, S.ENUMERATE),
    S.ENUMERATE: (S.SDD, S.SEARCH),
    S.GANAK: (S.SEARCH, S.SDD, S.ENUMERATE),
}
JOINT_ROUTES: dict[Method, tuple[Method, ...]] = {
    S.CLOSED_FORM: (S.SDD, S.ENUMERATE),
    S.SDD: (S.ENUMERATE,),
    S.ENUMERATE: (S.SDD,),
    S.GANAK: (S.SDD, S.ENUMERATE),
}
ROUTES = {Mode.DISENTANGLED: MAP_ROUTES, Mode.OBJECTS: MAP_ROUTES, Mode.JOINT: JOINT_ROUTES}


def routes_for(mode: Mode, method: Method) -> tuple[Method, ...]:
    """The routes that check `method`'s answer in `mode`: ROUTES', with GANAK first where it is
    installed (and not the method checked)."""
    routes = ROUTES.get(mode, {}).get(method, ())
    if routes and method != S.GANAK and ganak.available():
        return (S.GANAK, *routes)
    return routes


def cross_check(
    problem: CountProblem, settings: CountSettings, first: CountResult, progress: Progress | None = None
) -> dict[str, Any]:
    """Recount `problem` by the routes of ROUTES for the method that answered, raced (processes/race:
    one that stalls cannot starve another); CountsDisagree if the first to answer gives another
    count. Returns what the check found ({"method", "count", "agrees", "seconds"}), or why no second route
    answered ({"method": None, "why"})."""
    if not first.exact:
        return {"method": None, "why": "an estimate is not cross-checked (only exact counts are)"}
    routes = routes_for(problem.mode, first.method)
    if not routes:
        return {"method": None, "why": f"no second route for {first.method} in the {problem.mode} mode"}
    if progress is not None:  # what a time limit during the check leaves: the first route's count
        progress.known(lower_bound=first.count, upper_bound=first.count, counted_by=str(first.method))

    def route(method: Method) -> Entrant:
        return Entrant(
            str(method), lambda reports: BACKENDS[method].count(problem, settings, None, UNBOUNDED)
        )

    entrants = [route(m) for m in routes]
    start = time.perf_counter()
    try:
        outcome = race(entrants, processors())
    except Declined as exc:
        return {"method": None, "why": str(exc)}
    second: CountResult = outcome.result
    if second.count != first.count:
        raise CountsDisagree(str(first.method), first.count, str(second.method), second.count)
    seconds = round(time.perf_counter() - start, 3)
    return {"method": str(second.method), "count": second.count, "agrees": True, "seconds": seconds}
