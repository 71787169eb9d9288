"""advise's SAT route run within the time left (rscount.insight.plan_hitting's search, in a child
process): the plan it proves cheapest, or the best plan and the bound it proved when the time limit
stops it, as the SearchState advise reports."""

from __future__ import annotations

import time
from collections.abc import Sequence

from ..counting.processes.isolation import run_stoppable
from ..errors import LimitReached, TimeLimitExceeded
from ..progress import Progress
from .plan_counts import Advisor
from .plan_hitting import Hitting, hitting_plan
from .plan_search import Costs, SearchState
from .simplest import Counted
from .steps import Step

WRITING_SHARE = 0.15  # of the time left, kept from the search for writing the task file (large supports)
SETTLE_SHARE = 0.6  # of the time left, after which a plan that works ends the search unproved


def sat_search(
    advisor: Advisor,
    steps: Sequence[Step],
    costs: Costs,
    state: SearchState,
    info: dict[str, object],
    counted: Counted | None = None,
) -> None:
    """Fill `state` (target 1) from hitting_plan, run in a child within 85% of the time left (the
    rest writes the modified task file, seconds for thousands of rows): the cheapest
    plan (its count 1, proved by SAT; the caller recounts it), or that none exists. Past 60% of the
    time left a plan that works ends the search, leaving time to verify it; stopped then or by the
    limit, `state` holds the best plan known and the bound, and TimeLimitExceeded follows. `info`
    gets the search's figures."""
    progress = advisor.progress or Progress(enabled=False)
    left = advisor.remaining()
    settle_by = None if left is None else time.time() + SETTLE_SHARE * left
    limit = {} if left is None else {"timeout": (1 - WRITING_SHARE) * left, "elapsed": 0.0}
    args = (advisor.task, advisor.mode, steps, costs, progress, settle_by, counted)
    try:
        found = run_stoppable(hitting_plan, *args, **limit, what="advise", progress=progress)
    except LimitReached as exc:
        best = exc.partial.get("best")
        found = Hitting(plan=list(best) if isinstance(best, list) else None)
        found.bound = int(exc.partial.get("bound", 0))  # type: ignore[call-overload]
        found.maps, found.choices = exc.partial.get("maps", 0), exc.partial.get("choices", 0)  # type: ignore[assignment]
        found.listed = bool(exc.partial.get("listed", False))
        found.minimal = found.plan is not None and costs.total(found.plan) <= found.bound
    info.update(route="sat", shortcuts_listed=found.listed, shortcuts_noted=found.maps, choices=found.choices)
    if found.unkillable is not None:
        state.plan, state.count, state.bound, state.complete = None, None, costs.total(steps) + 1, True
        state.why = "a shortcut survives every candidate step"
        info["unkillable"] = found.unkillable
        return
    state.plan, state.minimal, state.complete = found.plan, found.minimal, found.minimal
    state.count = None if found.plan is None else 1
    state.exact = found.plan is not None
    if found.minimal and found.plan is not None:
        state.bound = costs.total(found.plan)
        return
    state.bound = max(found.bound, 1)
    state.why = "stopped by the time limit"
    raise TimeLimitExceeded(advisor.settings.timeout or 0, "advise")
