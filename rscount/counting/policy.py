"""Choosing how to count a task: a closed form where its preconditions hold, else an encoding and a
backend: `auto` (the cheapest that will finish), `exact`, `approx`, or one backend by name."""

from __future__ import annotations

import time

from ..encoding.model import Encoding
from ..encoding.value_codes import ValueMapCoding
from ..errors import NotApplicable
from ..progress import Progress
from ..task.model import Mode, Task
from . import source_tuples
from .backends import BACKENDS
from .budget import Budget, BudgetExceeded, TooManyClasses
from .closed_forms import closed_form
from .jrs import count_jrs
from .problem import CountProblem
from .result import CountResult
from .settings import DEFAULT_SETTINGS, CountSettings, Method
from .source_sets import PROGRAMME_CONCEPTS

AUTO_ENUMERATE_LIMIT = 1000
# decompose costs about 1.5 ms per permutation class on 8 Boolean concepts (benchmarks/), so auto
# lets it count at most this many classes before it turns to ApproxMC.
AUTO_DECOMPOSE_MAX_CLASSES = 5000
# Past the class limit, source-sets counts unless a label group's programme holds more states than
# this and the SAT listing of its readings more models than that.
AUTO_SOURCE_SET_STATES = 1 << 18
AUTO_SOURCE_SET_MODELS = 20_000
# In the disentangled mode with a concept of more than two values, source-tuples goes first when its
# label groups have at most this many source tuples and no tuple's factor lists more value maps than
# that (MNMath, digits 0-9, 200 rows: 35 s against decomposition's 141).
AUTO_SOURCE_TUPLES = 2000
AUTO_TUPLE_MODELS = source_tuples.ENUMERATE_LIMIT
# decompose-approx runs ApproxMC once per permutation class (about 0.1 s at least), so `approx`
# uses it only when few classes survive pruning; plain ApproxMC otherwise.
APPROX_DECOMPOSE_MAX_CLASSES = 64
# The fastest exact backend measured for each mode (docs/performance.md).
EXACT_BACKEND = {Mode.DISENTANGLED: Method.DECOMPOSE, Mode.OBJECTS: Method.DECOMPOSE, Mode.JOINT: Method.SDD}


def _chosen(result: CountResult, why: str) -> CountResult:
    result.details["auto"] = why
    return result


def _source_sets(problem: CountProblem, settings: CountSettings, progress: Progress | None) -> CountResult:
    """source-sets within auto's budgets (NotApplicable or BudgetExceeded otherwise)."""
    budget = Budget(max_states=AUTO_SOURCE_SET_STATES, max_models=AUTO_SOURCE_SET_MODELS)
    return BACKENDS[Method.SOURCE_SETS].count(problem, settings, progress, budget)


def auto_count(
    problem: CountProblem, settings: CountSettings, progress: Progress | None = None
) -> CountResult:
    """auto: in the disentangled and objects modes, decompose by permutation when at most
    AUTO_DECOMPOSE_MAX_CLASSES classes survive pruning (the pruning runs first and costs SAT calls
    only); otherwise enumerate when the solver needs at most AUTO_ENUMERATE_LIMIT models, and use
    ApproxMC beyond. The joint mode's CNF (small by construction): enumeration, else SDD.
    When more classes survive, source-sets counts without walking them, where it applies (one
    domain size, label groups that can be tabulated; SDD-OIA with 32 rows: over a million classes,
    2 s). It goes first when a label group reads more than PROGRAMME_CONCEPTS concepts: it lists
    that group's readings by SAT with the label's conjuncts as tables, where decomposition's class
    search on the multiplexed CNF stalls (random 3-CNF on 14 bits, 8192 rows: 2 s against over 60).
    Else, when a SAT solver lists the classes (sampled supports), decompose counts them all,
    as it finds them, reporting a lower bound all along: there ApproxMC on the whole CNF did not
    finish in 300 s (SDD-OIA, 32 and 64 rows; benchmarks/reach.md). Before all of these, with
    concepts over more than two values, source-tuples sums over the sources feeding each label
    group when they are few (AUTO_SOURCE_TUPLES), each factor listed by SAT (MNMath).

    Decomposition goes first because a failed enumeration probe costs up to AUTO_ENUMERATE_LIMIT
    solver calls on the whole CNF (seconds on supports of thousands of vectors), while a count
    that enumeration could finish has at most that many classes (each kept class holds at least
    one solver model), which decompose counts quickly."""
    if problem.mode != Mode.JOINT:
        tried = ""  # why the sums tried before decompose did not count
        sets_tried = False
        if problem.mode == Mode.DISENTANGLED:
            if max(len(c.values) for c in problem.task.concepts) > 2:
                budget = Budget(max_classes=AUTO_SOURCE_TUPLES, max_models=AUTO_TUPLE_MODELS)
                try:
                    result = BACKENDS[Method.SOURCE_TUPLES].count(problem, settings, progress, budget)
                    return _chosen(result, "concepts over wide domains, few source tuples: summed over them")
                except (NotApplicable, BudgetExceeded) as why:
                    tried = f" (source tuples: {why})"
            widest = max(len(g[1]) for g in ValueMapCoding(problem.task).label_groups())
            if widest > PROGRAMME_CONCEPTS:
                sets_tried = True
                try:
                    result = _source_sets(problem, settings, progress)
                    return _chosen(
                        result, f"a label group reads {widest} concepts: source sets, listed by SAT"
                    )
                except (NotApplicable, BudgetExceeded) as why:
                    tried += f" (source sets: {why})"
        budget = Budget(max_classes=AUTO_DECOMPOSE_MAX_CLASSES)
        try:
            result = BACKENDS[Method.DECOMPOSE].count(problem, settings, progress, budget)
            return _chosen(result, f"at most {AUTO_DECOMPOSE_MAX_CLASSES} permutation classes survive{tried}")
        except TooManyClasses as exc:
            reason = str(exc) + tried
            if not sets_tried:
                try:
                    result = _source_sets(problem, settings, progress)
                    return _chosen(result, f"{reason}: summed over source sets instead")
                except (NotApplicable, BudgetExceeded) as why:
                    reason = f"{reason} (source sets: {why})"
            if exc.strategy == "sat":
                result = BACKENDS[Method.DECOMPOSE].count(problem, settings, progress, Budget())
                return _chosen(result, f"{reason}, found by SAT: counted as found")
    else:
        reason = "the joint mode"
    try:
        result = BACKENDS[Method.ENUMERATE].count(
            problem, settings, progress, Budget(max_models=AUTO_ENUMERATE_LIMIT)
        )
        return _chosen(result, f"{reason}; at most {AUTO_ENUMERATE_LIMIT} solver models, enumerated")
    except BudgetExceeded:
        pass
    if problem.mode == Mode.JOINT:
        result = BACKENDS[Method.SDD].count(problem, settings, progress, Budget())
        return _chosen(result, f"more than {AUTO_ENUMERATE_LIMIT} models; the joint CNF by SDD")
    result = BACKENDS[Method.APPROXMC].count(problem, settings, progress, Budget())
    return _chosen(result, f"{reason} and more than {AUTO_ENUMERATE_LIMIT} solver models")


def approx_count(
    problem: CountProblem, settings: CountSettings, progress: Progress | None = None
) -> CountResult:
    """approx: ApproxMC per permutation class when few classes survive pruning (disentangled and
    objects modes), else ApproxMC on the whole CNF; both with the settings' (epsilon, delta)."""
    if problem.mode != Mode.JOINT:
        budget = Budget(max_classes=APPROX_DECOMPOSE_MAX_CLASSES)
        try:
            result = BACKENDS[Method.DECOMPOSE_APPROX].count(problem, settings, progress, budget)
            return _chosen(result, "few permutation classes: ApproxMC per class")
        except BudgetExceeded as exc:
            reason = f"{exc}: ApproxMC on the whole CNF"
    else:
        reason = f"the {problem.mode} CNF by ApproxMC"
    return _chosen(BACKENDS[Method.APPROXMC].count(problem, settings, progress, Budget()), reason)


def count_problem(
    problem: CountProblem, settings: CountSettings, progress: Progress | None = None
) -> CountResult:
    """Count a problem in this process by the settings' method (a policy or a backend)."""
    start = time.perf_counter()
    method = settings.method
    if method == Method.AUTO:
        result = auto_count(problem, settings, progress)
    elif method == Method.APPROX:
        result = approx_count(problem, settings, progress)
    elif method == Method.EXACT:
        result = BACKENDS[EXACT_BACKEND[problem.mode]].count(problem, settings, progress, Budget())
    elif method in BACKENDS:
        result = BACKENDS[method].count(problem, settings, progress, Budget())
    else:
        raise NotApplicable(f"the method {method} counts tasks, not encodings")
    result.seconds = time.perf_counter() - start
    if problem.encoded:
        encoding = problem.encoding
        result.cnf_size = {
            "variables": encoding.cnf.num_vars,
            "clauses": len(encoding.cnf.clauses),
            "map_variables": len(encoding.projection),
        }
    return result


def count_encoding(
    encoding: Encoding, settings: CountSettings, progress: Progress | None = None
) -> CountResult:
    """Count a task's encoding (in its mode) in this process by the settings' method."""
    return count_problem(CountProblem(encoding.task, encoding.mode, progress, encoding), settings, progress)


def count_task(
    task: Task,
    settings: CountSettings = DEFAULT_SETTINGS,
    progress: Progress | None = None,
    encoding: Encoding | None = None,
) -> CountResult:
    """Count `task` in this process: by a closed form when the method is closed-form, or auto and
    one applies; otherwise encode (unless `encoding` is given) and run the backend. Why no closed
    form applied is in the result's details (`closed_forms_inapplicable`)."""
    mode = settings.mode_for(task)
    if mode == Mode.JRS:
        if settings.method not in (Method.AUTO, Method.CLOSED_FORM):
            raise NotApplicable(f"the jrs mode is counted by its own sum, not by {settings.method}")
        return count_jrs(task)
    reasons: list[str] = []
    if settings.method in (Method.AUTO, Method.CLOSED_FORM):
        start = time.perf_counter()
        found = closed_form(task, mode)
        if isinstance(found, tuple):
            name, form = found
            details = {"closed_form": name, "formula": form.formula, "expression": form.expression}
            if settings.method == Method.AUTO:
                details["auto"] = "a closed form applies"
            seconds = time.perf_counter() - start
            return CountResult(form.count, True, Method.CLOSED_FORM, seconds, details=details)
        reasons = found
        if settings.method == Method.CLOSED_FORM:
            raise NotApplicable("no closed form applies to this task: " + "; ".join(reasons))
    result = count_problem(CountProblem(task, mode, progress, encoding), settings, progress)
    if reasons:
        result.details["closed_forms_inapplicable"] = reasons
    return result
