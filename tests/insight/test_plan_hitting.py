"""advise's hitting sets: the choice over the kept steps (interchangeable supervisions and
annotations of one example left out) costs what a choice over every candidate step costs."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pysat.examples.rc2 import RC2
from pysat.formula import WCNF
from strategies.mixedtasks import object_tasks, plain_tasks
from support import examples

from rscount import count
from rscount.insight.plan_hitting import _Kills
from rscount.insight.plan_search import Costs, moves
from rscount.insight.simplest import Counted, listed_shortcuts
from rscount.insight.steps import ACTIONS, ADD, ANNOTATE_ONE, SUPERVISE, Step
from rscount.task.model import Mode


def _cheapest_over_every_step(kills: _Kills) -> int:
    """The cheapest choice with no step left out, written afresh: a soft clause per candidate step."""
    formula, top = WCNF(), len(kills.steps)
    for v, s in enumerate(kills.steps, start=1):
        formula.append([-v], weight=kills.costs.of(s))
        if s.action in (SUPERVISE, ANNOTATE_ONE) and s.row not in kills.present:
            formula.append([-v, kills.var[Step(ADD, s.row)]])
    for ways in kills.noted:
        clause = list(ways.single)
        for a, adds in ways.paired:
            top += 1
            clause.append(top)
            formula.extend([[-top, a], [-top, *adds]])
        formula.append(clause)
    with RC2(formula) as solver:
        assert solver.compute() is not None
        return int(solver.cost)


@settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=examples(100))
@given(
    drawn=st.one_of(plain_tasks(max_space=8, max_rows=6), object_tasks(max_rows=4)),
    costs=st.fixed_dictionaries({kind: st.integers(1, 3) for kind in ACTIONS}),
    chosen=st.lists(st.integers(0, 10_000), min_size=1, max_size=12),
)
def test_leaving_out_replaceable_steps_keeps_the_cheapest_choice(drawn, costs, chosen):
    task = drawn.task()
    mode = task.mode if drawn.problem.objects is None else Mode.OBJECTS
    shortcuts = count(task, "exact", mode).count - 1
    listed = listed_shortcuts(task, mode, Counted(shortcuts)) if 0 < shortcuts <= 200 else None
    steps = moves(task, ACTIONS)
    if not listed or steps is None:
        return
    kills = _Kills(task, steps, Costs.parse(",".join(f"{k}={v}" for k, v in costs.items())))
    for n in dict.fromkeys(chosen):
        ways = kills.ways(listed[n % len(listed)], [])
        if ways.single or ways.paired:
            kills.note(ways)
    if not kills.noted:
        return
    plan, cost = kills.choose()
    assert cost == kills.costs.total(plan) == _cheapest_over_every_step(kills)
    assert all(ways.through({kills.var[s] for s in plan}) for ways in kills.noted)
    lacking = {s.row for s in plan if s.action != ADD and s.row is not None and s.row not in kills.present}
    assert lacking <= {s.row for s in plan if s.action == ADD}
