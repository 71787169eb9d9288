"""The Python API for training code and notebooks: load a task, count its reasoning shortcuts,
check it, explain, advise and sweep, with the same checks and errors as the command line.

    import rscount
    task = rscount.load_task("tasks/xor3.yaml")
    rscount.count(task).count                    # 24
    rscount.check(task).status                   # Status.PASSED (its pin holds); .unidentified, .findings
    task = task.with_support([[0, 1, 1]])        # a training pipeline's own rows, checked
    rscount.count(task, method="exact").count    # 192
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from .counting.jobs import count as count_in_child
from .counting.processes.isolation import run_stoppable
from .counting.result import CountResult
from .counting.settings import DEFAULT_DELTA, DEFAULT_EPSILON, CountSettings, Method, parse_mode
from .errors import InvalidSetting, TaskError
from .insight import advise as advising
from .insight import sweep as sweeping
from .insight.advise import SEARCH_BUDGET, Advice, AdviseSettings, TaskOutput
from .insight.explain import Explanation
from .insight.explain import explain as explain_task
from .insight.forecast import Forecast
from .insight.forecast import forecast as forecast_task
from .insight.judging import CHECK_TIMEOUT, Judgement
from .insight.judging import check as check_task
from .insight.plan_counts import Advisor
from .insight.plan_search import Costs
from .insight.steps import ACTIONS
from .knowledge.loading import load_task, task_from_dict
from .task.model import Extractor, Mode, Task

__all__ = ["load_task", "task_from_dict", "count", "check", "explain", "forecast", "advise", "sweep"]

TaskLike = Task | str | os.PathLike[str]
TENTHS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def _task(task: TaskLike, extractor: Extractor | str | None = None, mode: Mode | str | None = None) -> Task:
    """The task of an API call (read when a path), learned by `extractor` when given, which the
    call's `mode` may not contradict."""
    if extractor is None:
        return task if isinstance(task, Task) else load_task(task)
    try:
        chosen = Extractor.parse(extractor)
    except TaskError as exc:
        raise InvalidSetting("extractor", exc.problem) from None
    contradiction = chosen.contradicts(None if mode is None else parse_mode(mode))
    if contradiction:
        raise InvalidSetting("extractor", f"{contradiction} (mode)")
    read = task if isinstance(task, Task) else load_task(task, chosen.mode)
    return read.with_extractor(chosen)


def _settings(method: Method | str, mode: Mode | str | None, **given: Any) -> CountSettings:
    """The count settings of an API call: its method and mode parsed, the rest by name."""
    return CountSettings(Method.parse(method), None if mode is None else parse_mode(mode), **given)


def count(
    task: TaskLike,
    method: Method | str = Method.AUTO,
    mode: Mode | str | None = None,
    extractor: Extractor | str | None = None,
    epsilon: float = DEFAULT_EPSILON,
    delta: float = DEFAULT_DELTA,
    seed: int = 1,
    timeout: float | None = None,
    memory: float | None = None,
    cross_check: bool = False,
    dask: str | None = None,
) -> CountResult:
    """Count the optimal concept maps of a task (or task file) as `rscount count` does, learned by
    `extractor` when given (permuting, in-place, shared, shared-in-place: Extractor); with a
    `timeout` (seconds) or `memory` (GB), the count runs in a child process stopped at that limit
    (TimeLimitExceeded, MemoryLimitExceeded); `cross_check` recounts an exact answer by an
    independent route (details["cross_check"]; CountsDisagree when they differ); `dask`, a Dask
    scheduler's address, has its workers count the permutation classes (decompose)."""
    limits = {"timeout": timeout, "memory": memory, "cross_check": cross_check, "dask": dask}
    settings = _settings(method, mode, epsilon=epsilon, delta=delta, seed=seed, **limits)
    return count_in_child(_task(task, extractor, mode), settings)


def check(
    task: TaskLike,
    method: Method | str = Method.AUTO,
    mode: Mode | str | None = None,
    extractor: Extractor | str | None = None,
    epsilon: float = DEFAULT_EPSILON,
    delta: float = DEFAULT_DELTA,
    seed: int = 1,
    timeout: float | None = CHECK_TIMEOUT,
    memory: float | None = None,
    cross_check: bool = False,
) -> Judgement:
    """The pre-training design check of a task (or task file): findings, count (recounted by an
    independent route with `cross_check`), expectations, the concepts whose meaning it does not
    identify (`unidentified`) and its `status`."""
    limits = {"timeout": timeout, "memory": memory, "cross_check": cross_check}
    return check_task(
        _task(task, extractor, mode),
        _settings(method, mode, epsilon=epsilon, delta=delta, seed=seed, **limits),
    )


def explain(
    task: TaskLike,
    mode: Mode | str | None = None,
    extractor: Extractor | str | None = None,
    show: int = 5,
    randomly: bool = False,
    seed: int = 1,
    timeout: float | None = None,
) -> Explanation:
    """`show` optimal maps other than the intended one, readably (the simplest first, or with
    `randomly` drawn uniformly with `seed`), the concepts involved and how often each concept keeps
    its meaning; a `timeout` leaves out what it stops (`stopped` names it)."""
    chosen = None if mode is None else parse_mode(mode)
    settings = _settings(Method.AUTO, None, timeout=timeout)
    return explain_task(_task(task, extractor, mode), chosen, show, randomly, seed, None, settings)


def forecast(
    task: TaskLike,
    mode: Mode | str | None = None,
    extractor: Extractor | str | None = None,
    test: Sequence[Sequence[object]] | None = None,
    timeout: float | None = None,
    memory: float | None = None,
    samples: int | None = None,
    seed: int = 1,
) -> Forecast:
    """Under a uniformly drawn optimal map: which ground-truth concept each predicted concept reads,
    where each value goes and the expected concept accuracy on the support, and with `test` (concept
    vectors, lists in concept order or mappings) the concept and label accuracy there; exact
    fractions, or with `samples` frequencies over that many uniform draws (seed `seed`). With a
    `timeout` or `memory`, it runs in a child process stopped at that limit."""
    task = _task(task, extractor, mode)
    rows = None if test is None else task.with_support(list(test)).support.rows
    chosen = None if mode is None else parse_mode(mode)
    return run_stoppable(
        forecast_task, task, chosen, rows, None, samples, seed, timeout=timeout, memory=memory
    )


def advise(
    task: TaskLike,
    *,
    actions: Sequence[str] = ACTIONS,
    candidates: int = 40,
    max_steps: int = 100,
    target: int = 1,
    costs: Mapping[str, int] | None = None,
    budget: int = SEARCH_BUDGET,
    by_counts: bool = False,
    method: Method | str = Method.AUTO,
    mode: Mode | str | None = None,
    extractor: Extractor | str | None = None,
    seed: int = 1,
    timeout: float | None = None,
    jobs: int | None = 1,
    emit: str | os.PathLike[str] | None = None,
    overwrite: bool = False,
) -> Advice:
    """The cheapest change of the training data that leaves at most `target` optimal maps (see
    `rscount advise`: for target 1 a SAT search proving the cheapest plan, else or with `by_counts`
    greedy, then an exact search of up to `budget` counted plans; `costs` per kind of step, e.g.
    {"add": 1, "supervise": 3}), verified; `emit` writes the modified task file (the task file
    itself edited, when `task` is its path). A `timeout` stops the search with the best plan found
    (`stopped`)."""
    plan_settings = AdviseSettings(
        actions=tuple(actions),
        candidates=candidates,
        max_steps=max_steps,
        target=target,
        costs=Costs.parse(",".join(f"{k}={v}" for k, v in (costs or {}).items())),
        budget=budget,
        by_counts=by_counts,
    )
    output = TaskOutput(
        path=None if emit is None else str(emit),
        overwrite=overwrite,
        source=None if isinstance(task, Task) else str(task),
    )
    count_settings = _settings(method, mode, seed=seed, timeout=timeout)
    return advising.advise(Advisor(_task(task, extractor, mode), count_settings, jobs), plan_settings, output)


def sweep(
    task: TaskLike,
    fractions: Sequence[float] = TENTHS,
    seeds: Sequence[int] = (1, 2, 3, 4, 5),
    supervision: Sequence[float] = (0.0,),
    method: Method | str = Method.AUTO,
    mode: Mode | str | None = None,
    extractor: Extractor | str | None = None,
    timeout: float | None = None,
    jobs: int | None = 1,
) -> sweeping.Sweep:
    """Counts over nested random supports (fractions of the task's support) and concept-supervision
    levels, with the robustness score (see `rscount sweep`); `timeout` applies per count."""
    settings = _settings(method, mode, seed=seeds[0] if seeds else 1, timeout=timeout)
    return sweeping.sweep(_task(task, extractor, mode), seeds, fractions, supervision, settings, jobs)
