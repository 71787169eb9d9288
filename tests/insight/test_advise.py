"""`rscount advise`: plans whose modified task, read back from the emitted file and counted here,
has no shortcut; counts that only fall along a plan; the task-file writer; refusing to overwrite."""

from __future__ import annotations

import glob
from itertools import combinations, product
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from references.bruteforce import brute_force_count, brute_force_maps
from strategies.mixedtasks import object_tasks, plain_tasks
from strategies.randomtasks import SETTINGS, specs
from support import REPO

from rscount import advise, count
from rscount.counting.settings import Method
from rscount.errors import TaskError, TimeLimitExceeded
from rscount.formats.task_files.writing import task_yaml
from rscount.insight import advise as advise_module
from rscount.insight.advise import SEARCH_BUDGET
from rscount.insight.plan_hitting import hitting_plan
from rscount.insight.plan_search import Costs, moves, plans_costing
from rscount.insight.simplest import LISTED_MAX, Counted
from rscount.insight.steps import ACTIONS, ANNOTATE, Step, addable, apply_steps
from rscount.knowledge.loading import load_task, task_from_dict
from rscount.task.families import builtin_task
from rscount.task.model import Mode


def _plan_recounts_to_one(cli, tmp_path: Path, *args: str) -> dict:
    out = tmp_path / "advised.yaml"
    run = cli("advise", *args, "--emit-task", out, "--json")
    assert run.code == 0, run.err
    record = run.json()
    counts = [record["start"]["count"]] + [step["count"] for step in record["plan"]]
    assert all(a >= b for a, b in zip(counts, counts[1:]))  # every step keeps or lowers the count
    assert counts[-1] == record["final_count"] == record["verified"]["count"] == 1
    emitted = load_task(out)  # the file a user gets, counted afresh here
    assert emitted.expect == {"count": 1}
    assert cli("check", out).code == 0
    result = count(emitted, "exact")
    assert result.count == 1 and result.exact
    return record


def test_mnadd_half_plan_recounts_to_one(cli, tmp_path):
    record = _plan_recounts_to_one(cli, tmp_path, REPO / "tasks" / "mnadd-half.yaml", "--candidates", "12")
    assert record["start"]["count"] == 720000000000
    added = [s["row"] for s in record["plan"] if s["action"] == "add"]
    digits = {d for row in added for d in row}
    assert {5, 6, 7, 8, 9} <= digits  # the support never shows these digits: only new examples pin them


def test_xor3_with_one_example_plan_recounts_to_one(cli, tmp_path):
    record = _plan_recounts_to_one(
        cli, tmp_path, REPO / "tasks" / "xor3.yaml", "--examples", "1", "--jobs", "1"
    )
    assert record["start"]["count"] == 192


def test_text_shows_the_count_after_each_step(cli):
    run = cli("advise", REPO / "tasks" / "xor3.yaml", "--actions", "annotate", "--jobs", "1")
    assert run.code == 0
    lines = run.out.splitlines()
    assert lines[0] == "task xor3 (disentangled count): 24 optimal maps as given"
    assert any(line.split()[-1] == "4" and "annotate concept" in line for line in lines)
    assert "counts 1 optimal map (exact" in run.out


def test_a_stall_is_reported_with_the_best_count(cli):
    # Exhaustive MNAdd: swapping the digits keeps every sum; adding examples cannot help (none left).
    run = cli("advise", REPO / "tasks" / "mnadd.yaml", "--actions", "add", "--jobs", "1")
    assert run.code == 0
    assert (
        "no plan removes every shortcut: the shortcut d1 <- d2; d2 <- d1 survives every candidate" in run.out
    )
    by_counts = cli("advise", REPO / "tasks" / "mnadd.yaml", "--actions", "add", "--jobs", "1", "--by-counts")
    assert "no plan reaches 1: with every step allowed the task still has 2" in by_counts.out


def test_annotating_a_concept_means_supervising_it_on_every_example():
    task = builtin_task("xor", 3, {"examples": 3, "seed": 4})
    annotated = apply_steps(task, [Step(ANNOTATE, concept="c2")])
    rows = list(task.support.rows)
    maps = brute_force_maps([[0, 1]] * 3, lambda c: c[0] ^ c[1] ^ c[2], rows, set())
    # predicted c2 (pi[i] == 1 for the concept i it reads) equals the true c2 on every example
    kept = [m for m in maps if all(_predicted(m, row)[1] == row[1] for row in rows)]
    assert count(annotated, "exact", "disentangled").count == len(kept) > 1


def _predicted(m: tuple, row: tuple) -> tuple:
    pi, f = m
    out = [None] * len(row)
    for i, value in enumerate(row):
        out[pi[i]] = f[i][value]
    return tuple(out)


def test_emitting_keeps_an_existing_file_without_force(cli, tmp_path):
    out = tmp_path / "taken.yaml"
    out.write_text("mine\n")
    run = cli("advise", REPO / "tasks" / "xor3.yaml", "--emit-task", out, "--jobs", "1")
    assert run.code == 2 and run.err.startswith(f"rscount: error: --emit-task {out}: exists")
    assert out.read_text() == "mine\n"
    assert cli("advise", REPO / "tasks" / "xor3.yaml", "--emit-task", out, "--force", "--jobs", "1").code == 0
    assert load_task(out).name == "xor3"  # the task file edited, not rewritten


def test_unknown_actions_are_refused(cli):
    run = cli("advise", REPO / "tasks" / "xor3.yaml", "--actions", "supervise,guess")
    assert run.code == 2 and "--actions: guess" in run.err


@pytest.mark.parametrize(
    "path",
    sorted(glob.glob(str(REPO / "tasks" / "*.yaml")))
    + sorted(glob.glob(str(REPO / "tests" / "configs" / "*.yaml"))),
)
def test_written_task_files_read_back_as_the_same_task(path):
    task = load_task(path)
    if task.program is not None:
        with pytest.raises(TaskError, match="only by editing its own task file"):
            task_yaml(task, [])
        return
    task = apply_steps(task, [])
    again = task_from_dict(yaml.safe_load(task_yaml(task, ["a comment"])), "x", Path("."))
    assert again.name == task.name and again.mode == task.mode and again.objects == task.objects
    assert again.expect == task.expect
    assert again.concepts == task.concepts and again.labels == task.labels
    assert again.support.exhaustive == task.support.exhaustive
    assert again.support.supervised == task.support.supervised
    if not task.support.exhaustive:
        assert again.support.rows == task.support.rows


def test_added_and_supervised_rows_count_like_the_brute_force():
    data = {"concepts": {"a": [0, 1, 2], "b": [0, 1, 2]}, "labels": {"s": "a + b"}, "support": [[0, 1]]}
    task = task_from_dict(data, "sum3", Path("."))
    steps = [Step("add", (2, 1)), Step("supervise", (2, 1)), Step("add", (1, 1))]
    changed = apply_steps(task, steps)
    rows = [(0, 1), (2, 1), (1, 1)]
    assert list(changed.support.rows) == rows and changed.support.supervised == {(2, 1)}
    expected = brute_force_count([[0, 1, 2]] * 2, sum, rows, {(2, 1)})
    assert count(changed, "exact", "disentangled").count == expected
    assert count(task, "exact", "disentangled").count == brute_force_count(
        [[0, 1, 2]] * 2, sum, [(0, 1)], set()
    )


# ---------------------------------------------------------------------------------------------
# The exact search: plans as short (or cheap) as a breadth-first search over every set of steps,
# counted by the brute force.


def _brute_count(spec, rows, supervised, annotated, partial=None) -> int:
    """Optimal maps of a random task after steps, by the brute force: annotating concept j keeps
    predicted j equal to the true j on every support row; `partial` (vector -> concept positions)
    does so on one vector."""
    domains, label_fn, _, _ = spec._reference()
    j_of = [spec.names.index(c) for c in annotated]
    maps = brute_force_maps(domains, label_fn, rows, set(supervised), partial)
    return sum(all(_predicted_values(m, r, domains)[j] == r[j] for r in rows for j in j_of) for m in maps)


def _predicted_values(m, row, domains):
    pi, f = m
    out = [None] * len(row)
    for i, value in enumerate(row):
        out[pi[i]] = f[i][list(domains[i]).index(value)]
    return tuple(out)


def _cheapest_by_brute_force(spec, costs, target=1, kinds=("add", "supervise", "annotate", "annotate-one")):
    """The lowest total cost of a set of steps (add a missing vector, supervise a vector of the
    support after the adds, annotate a concept everywhere, annotate a concept on one such vector)
    after which the brute force counts <= target."""
    support = [spec.vector(r) for r in spec.support]
    every = [spec.vector(r) for r in product(*(range(n) for n in spec.sizes))]
    missing = [r for r in every if r not in support]
    k = len(spec.sizes)
    moves = (
        [("add", r) for r in missing]
        + [("supervise", r) for r in every]
        + [("annotate", c) for c in spec.names]
    )
    moves += [("annotate-one", (r, j)) for r in every for j in range(k)]
    moves = [m for m in moves if m[0] in kinds]
    best = None
    for size in range(len(moves) + 1):
        if best is not None and best <= size * min(costs.values()):
            break
        for chosen in combinations(moves, size):
            cost = sum(costs[kind] for kind, _ in chosen)
            if best is not None and cost >= best:
                continue
            rows = support + [r for kind, r in chosen if kind == "add"]
            supervised = [r for kind, r in chosen if kind == "supervise"]
            partial: dict = {}
            for kind, what in chosen:
                if kind == "annotate-one":
                    partial.setdefault(what[0], set()).add(what[1])
            if any(r not in rows for r in [*supervised, *partial]):
                continue
            annotated = [c for kind, c in chosen if kind == "annotate"]
            if _brute_count(spec, rows, supervised, annotated, partial) <= target:
                best = cost
    return best


@settings(max_examples=12, **SETTINGS)
@given(
    specs(max_rows=2, supervision=False, shape=(2, 2)),
    st.sampled_from([(1, 1, 1, 1), (1, 3, 2, 2), (2, 1, 1, 3), (1, 1, 1, 9)]),
)
def test_advise_finds_a_plan_as_cheap_as_the_breadth_first_search(spec, prices):
    costs = dict(zip(("add", "supervise", "annotate", "annotate-one"), prices))
    _assert_as_cheap(spec, costs, list(costs))


@settings(max_examples=8, **SETTINGS)
@given(specs(max_rows=2, supervision=False, shape=(2, 2, 2)), st.sampled_from([(1, 1, 1), (1, 3, 2)]))
def test_advise_on_three_concepts_finds_a_plan_as_cheap_as_the_breadth_first_search(spec, prices):
    costs = dict(zip(("add", "supervise", "annotate"), prices))
    # a label that reads nothing, with one row, needs 2219 plans counted to prove its 5 steps minimal
    _assert_as_cheap(spec, costs, list(costs), budget=5000)


def test_plans_supervising_added_rows_are_all_listed():
    # Undoing a step that supervises an added row once made the row count as not added, so plans
    # supervising it after another such step were never counted: advise proved a 5-step plan
    # minimal where this 4-step one reaches a single map.
    task = task_from_dict(
        {
            "concepts": {n: [0, 1] for n in "abc"},
            "labels": {"y": "ITE((b < c), a, (2 != c))"},
            "support": [[1, 1, 1]],
        },
        "t",
        REPO,
    )
    steps = moves(task, ["add", "supervise", "annotate"])
    plans = {frozenset((s.action, s.row) for s in p) for p in plans_costing(task, steps, Costs(), 4)}
    assert (
        frozenset(
            {("add", (0, 0, 1)), ("add", (0, 1, 0)), ("supervise", (0, 1, 0)), ("supervise", (1, 1, 1))}
        )
        in plans
    )
    advice = advise(task, actions=["add", "supervise", "annotate"], jobs=1)
    assert advice.minimal and len(advice.plan) == 4 and advice.final_count == 1


def _assert_as_cheap(spec, costs, kinds, budget=SEARCH_BUDGET):
    advice = advise(spec.task(), actions=kinds, costs=costs, jobs=1, budget=budget)
    cheapest = _cheapest_by_brute_force(spec, costs, kinds=kinds)
    if advice.start["count"] <= 1:
        assert advice.plan == [] and advice.minimal
        return
    assert advice.minimal and advice.final_count == 1
    assert sum(step["cost"] for step in advice.plan) == cheapest == advice.bound
    assert advice.verified["count"] == 1


def test_xor3_with_one_example_gets_a_proved_minimal_plan_of_four_steps(cli, tmp_path):
    source = tmp_path / "xor3-one.yaml"
    source.write_text(
        (REPO / "tasks" / "xor3.yaml").read_text().replace("support: exhaustive", "support: [[0, 1, 1]]")
    )
    data = yaml.safe_load(source.read_text())
    data.pop("expect", None)
    source.write_text(yaml.safe_dump(data))
    out = tmp_path / "fixed.yaml"
    run = cli("advise", source, "--emit-task", out, "--jobs", "1", "--json")
    assert run.code == 0, run.err
    record = run.json()
    assert record["start"]["count"] == 192
    assert record["minimal"] and len(record["plan"]) == 4 and record["bound"] == 4
    assert record["final_count"] == 1 and record["verified"]["count"] == 1
    assert count(load_task(out), "exact").count == 1


def test_a_search_cut_by_its_budget_gives_the_best_plan_and_what_it_proved(cli, tmp_path):
    source = tmp_path / "xor3-one.yaml"
    data = yaml.safe_load((REPO / "tasks" / "xor3.yaml").read_text())
    data.update(support=[[0, 1, 1]])
    data.pop("expect", None)
    source.write_text(yaml.safe_dump(data))
    record = cli("advise", source, "--budget", "30", "--jobs", "1", "--by-counts", "--json").json()
    assert not record["minimal"] and record["bound"] == 2  # every single step was counted: none suffices
    assert "budget of 30" in record["search"]["why"] and record["search"]["counted"] == 30


def test_no_plan_is_said_when_a_shortcut_survives_every_step(cli):
    run = cli(
        "advise", REPO / "tasks" / "xor3.yaml", "--examples", "1", "--actions", "annotate", "--jobs", "1"
    )
    assert run.code == 0
    assert "survives every candidate step (every step allowed)" in run.out
    by_counts = cli(
        "advise", REPO / "tasks" / "xor3.yaml", "--examples", "1", "--actions", "annotate", "--by-counts"
    )
    assert "no plan reaches 1: with every step allowed the task still has" in by_counts.out


def test_a_time_limit_stops_the_search_with_the_best_plan_and_exit_code_3(cli):
    # a budget of plans no machine counts in 4 s (plans of 5 steps over 160 candidates: about 10^9)
    args = ("--budget", "1000000000", "--timeout", "4", "--jobs", "1", "--by-counts", "--json")
    run = cli("advise", REPO / "tasks" / "mnadd-half.yaml", *args)
    assert run.code == 3, run.err
    record = run.json()
    assert record["stopped"] and not record["minimal"] and record["verified"] is None
    assert record["search"]["why"] == "stopped by the time limit"
    assert record["plan"] and record["final_count"] < record["start"]["count"]  # greedy steps kept


def test_the_emitted_file_is_the_original_with_only_rows_labels_and_pin_added(cli, tmp_path):
    source = tmp_path / "traffic.yaml"
    source.write_text(
        "# traffic rules as constraints\n"
        "name: traffic\n"
        "concepts:\n  red: [0, 1]\n  ped: [0, 1]\n  green: [0, 1]\n"
        "labels:\n  stop: [0, 1]\n"
        "knowledge:\n  - Implies(red | ped, stop)   # the rule as stated\n"
        "  - Implies(green & ~red & ~ped, ~stop)\n"
        "completion:\n  stop: 0\n"
        "support:\n  - [1, 0, 0]\n  - [0, 0, 1]\n"
    )
    out = tmp_path / "fixed.yaml"
    run = cli("advise", source, "--actions", "annotate,add", "--emit-task", out, "--jobs", "1")
    assert run.code == 0, run.err
    original, emitted = source.read_text().splitlines(), out.read_text().splitlines()
    kept = iter(emitted)
    assert all(any(line == other for other in kept) for line in original)  # every line, in order
    added = [line for line in emitted if line not in original]
    assert all(
        line.startswith("#") or "_annotated" in line or line.startswith(("  - [", "expect:", "  count: 1"))
        for line in added
    )
    assert cli("check", out).code == 0


def test_a_program_task_is_advised_by_editing_its_file_which_keeps_the_program(cli, tmp_path):
    for name in ("coins.yaml", "coins.pl"):
        (tmp_path / name).write_text((REPO / "tasks" / name).read_text())
    source = tmp_path / "coins.yaml"
    record = _plan_recounts_to_one(cli, tmp_path, source, "--jobs", "1")
    assert record["start"]["count"] == 4
    written = yaml.safe_load((tmp_path / "advised.yaml").read_text())
    assert written["program"] == "coins.pl" and "labels" not in written


ROUTES = settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=20)


@ROUTES
@given(
    drawn=st.one_of(plain_tasks(max_space=8, max_rows=6), object_tasks(max_rows=4)),
    actions=st.sets(st.sampled_from(ACTIONS), min_size=1),
    costs=st.fixed_dictionaries({kind: st.integers(1, 3) for kind in ACTIONS}),
)
def test_the_sat_plan_removes_every_shortcut_and_costs_what_counting_every_plan_proves(drawn, actions, costs):
    task = drawn.task()
    mode = "disentangled" if drawn.problem.objects is None else "objects"
    asked = {"actions": sorted(actions), "costs": costs, "mode": mode, "jobs": 1}
    by_sat = advise(task, **asked)
    by_counts = advise(task, **asked, by_counts=True, budget=400)
    if by_sat.final_count is None:  # a shortcut survives every step: so counting says too
        assert by_counts.final_count is None or by_counts.final_count > 1
        assert by_counts.search.get("fewest_reachable", 2) > 1
        return
    assert by_sat.minimal and by_sat.verified["count"] == 1
    plan = [
        Step(p["action"], None if p["row"] is None else tuple(p["row"]), p["concept"]) for p in by_sat.plan
    ]
    assert count(apply_steps(task, plan), "exact", mode).count == 1  # independent of the emitted file
    cost = sum(p["cost"] for p in by_sat.plan)
    assert by_counts.bound <= cost  # what counting proved of every plan holds of SAT's
    if by_counts.reached:
        assert cost <= sum(p["cost"] for p in by_counts.plan)
        assert cost == sum(p["cost"] for p in by_counts.plan) or not by_counts.minimal


@ROUTES
@given(
    drawn=st.one_of(plain_tasks(max_space=8, max_rows=6), object_tasks(max_rows=4)),
    costs=st.fixed_dictionaries({kind: st.integers(1, 3) for kind in ACTIONS}),
    method=st.sampled_from([None, Method.SOURCE_TUPLES]),
)
def test_survivors_from_every_shortcut_listed_or_from_sat_calls_give_plans_of_one_cost(drawn, costs, method):
    """Listed by search or SAT, or (when source tuples counted, disentangled) from its factors."""
    task = drawn.task()
    mode = task.mode if drawn.problem.objects is None else Mode.OBJECTS
    steps, prices = moves(task, ACTIONS), Costs.parse(",".join(f"{k}={v}" for k, v in costs.items()))
    shortcuts = count(task, "exact", mode).count - 1
    assume(shortcuts <= LISTED_MAX)  # listed whichever way counted (more: only from source tuples)
    by_sat = hitting_plan(task, mode, steps, prices)
    listed = hitting_plan(task, mode, steps, prices, counted=Counted(shortcuts, method=method))
    assert listed.listed and not by_sat.listed
    assert (listed.unkillable is None) == (by_sat.unkillable is None)
    if listed.unkillable is None:
        assert listed.minimal and by_sat.minimal
        assert prices.total(listed.plan) == prices.total(by_sat.plan)
        assert count(apply_steps(task, listed.plan), "exact", mode).count == 1


def test_a_plan_is_not_searched_for_when_the_task_has_no_shortcut(cli):
    run = cli("advise", REPO / "tasks" / "hwf3-nodiv.yaml", "--json", "--jobs", "1")
    assert run.code == 0, run.err
    record = run.json()
    assert record["start"]["count"] == 1 and record["plan"] == [] and record["minimal"]
    assert "route" not in record["search"]


@pytest.mark.parametrize("name", ["xor3", "mnadd-half", "vlol-numerical-2", "mnadd-evenodd"])
def test_past_its_settling_time_the_sat_search_returns_a_plan_that_works_and_a_true_bound(name):
    task = load_task(REPO / "tasks" / f"{name}.yaml")
    steps = moves(task, ACTIONS)
    settled = hitting_plan(task, task.mode, steps, Costs(), settle_by=0.0)
    proved = hitting_plan(task, task.mode, steps, Costs())
    assert proved.minimal and count(apply_steps(task, proved.plan), "exact").count == 1
    assert count(apply_steps(task, settled.plan), "exact").count == 1
    assert settled.bound <= len(proved.plan) <= len(settled.plan)
    assert settled.minimal == (len(settled.plan) == settled.bound)


def test_a_time_limit_stops_the_sat_search_with_what_it_proved_and_exit_code_3(cli):
    # MNMath's eight digits read each other: no solver answers its first question in 3 s
    run = cli("advise", REPO / "tasks" / "mnmath-disentangled.yaml", "--timeout", "3", "--json")
    assert run.code == 3, run.err
    record = run.json()
    assert record["stopped"] and not record["minimal"] and record["verified"] is None
    assert record["search"]["route"] == "sat" and record["search"]["why"] == "stopped by the time limit"


def test_rows_without_a_label_are_not_added_and_a_value_no_row_can_show_is_said_to_survive(cli):
    # alarm's evidence (mary does not call, john does) holds on no row where mary hears the alarm
    path = REPO / "tasks" / "alarm.yaml"
    task = load_task(path)
    mary = task.names.index("hears_mary")
    assert all(row[mary] == 0 for row in addable(task, list(product(*task.domains))))
    run = cli("advise", path, "--jobs", "1")
    assert run.code == 0, run.err
    assert (
        "no plan removes every shortcut: the shortcut hears_mary: 1->0 survives every candidate step"
        in run.out
    )


def test_a_sat_search_stopped_by_the_time_limit_states_the_count_after_the_whole_plan_only(monkeypatch):
    """The counts after each step are not taken once the search was stopped: the verifying count
    belongs to the last step, never to the first (it was shown after step 1 of an 11-step plan)."""
    task = task_from_dict(
        {"concepts": {n: [0, 1] for n in "abc"}, "labels": {"y": "a ^ b ^ c"}, "support": [[0, 0, 0]]}
    )
    found = hitting_plan(task, task.mode, moves(task, ACTIONS), Costs())
    assert len(found.plan) > 1

    def stopped(advisor, settings, state, info, shortcuts):
        state.plan, state.count, state.bound = list(found.plan), 1, 1
        raise TimeLimitExceeded(60.0, "the SAT search")

    monkeypatch.setattr(advise_module, "_plan_by_sat", stopped)
    record = advise(task)
    assert record.stopped and record.verified["count"] == record.final_count == 1
    assert [s["count"] for s in record.plan] == [None] * (len(found.plan) - 1) + [1]
