"""What rscount hands to ApproxMC: the (epsilon, delta, seed) asked for (delta split over the classes
by decompose-approx), and the self-check that refuses a pyapproxmc that miscounts.

pyapproxmc.Counter is replaced by a fake that records how it was made and counts exactly (a SAT
solver enumerates the projected models), so the tests see the arguments, not a random estimate.
The records go to a file: the command line counts in a forked child.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pytest
from pysat.solvers import Solver

import rscount
from rscount.counting.engines import approxmc
from rscount.errors import RscountError
from rscount.knowledge.loading import task_from_dict
from rscount.task.families import builtin_task

# pyapproxmc's positional order: Counter(verbosity=0, seed=1, epsilon=0.8, delta=0.2)
COUNTER_ARGS = ("verbosity", "seed", "epsilon", "delta")
SELF_CHECK = {"seed": 1, "epsilon": 0.8, "delta": 0.2}
XOR2 = [[1, 2], [-1, -2]]


@dataclass
class Made:
    """One Counter: its (seed, epsilon, delta) and the projection it counted."""

    seed: int
    epsilon: float
    delta: float
    clauses: list[list[int]] = field(default_factory=list)
    projection: list[int] = field(default_factory=list)


class ExactCounter:
    """A pyapproxmc.Counter stand-in: appends what it was given to the file `log` when it counts,
    and counts exactly."""

    log = Path("/nonexistent")
    miscount = 0  # added to every count: a broken counter

    def __init__(self, *args: object, **kwargs: object) -> None:
        given: dict[str, object] = dict(zip(COUNTER_ARGS, args)) | kwargs
        self.record = Made(given.get("seed", 1), given.get("epsilon", 0.8), given.get("delta", 0.2))  # type: ignore[arg-type]

    def add_clause(self, clause: Sequence[int]) -> None:
        self.record.clauses.append(list(clause))

    def count(self, projection: Sequence[int]) -> tuple[int, int]:
        self.record.projection = list(projection)
        known = max((abs(x) for c in self.record.clauses for x in c), default=0)
        free = sum(v > known for v in projection)  # in no clause: either value
        blocked = [v for v in projection if v <= known]
        models = 0
        with Solver(name="cadical153", bootstrap_with=self.record.clauses) as solver:
            while solver.solve():
                model = solver.get_model()
                models += 1
                if not blocked:
                    break
                solver.add_clause([-model[v - 1] for v in blocked])
        with type(self).log.open("a") as log:
            log.write(json.dumps(asdict(self.record)) + "\n")
        return models * 2**free + type(self).miscount, 0

    @classmethod
    def made(cls) -> list[Made]:
        """Every Counter that counted, in order."""
        text = cls.log.read_text() if cls.log.exists() else ""
        return [Made(**json.loads(line)) for line in text.splitlines()]


@pytest.fixture
def fake_counter(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[type[ExactCounter]]:
    """pyapproxmc.Counter replaced; self_check's cache cleared before and after, so that it runs
    against the fake here and against the real counter again later."""
    monkeypatch.setattr(ExactCounter, "log", tmp_path / "counters.jsonl")
    monkeypatch.setattr(ExactCounter, "miscount", 0)
    monkeypatch.setattr(approxmc.pyapproxmc, "Counter", ExactCounter)
    approxmc.self_check.cache_clear()
    yield ExactCounter
    approxmc.self_check.cache_clear()


def _estimates(made: list[Made]) -> list[Made]:
    """The Counters made for estimates (the self-check's one counts x1 xor x2)."""
    return [m for m in made if m.clauses != XOR2]


def test_approxmc_receives_the_epsilon_delta_and_seed_asked_for(fake_counter: type[ExactCounter]) -> None:
    result = rscount.count(builtin_task("xor", 3), "approxmc", epsilon=0.3, delta=0.05, seed=11)
    (made,) = _estimates(fake_counter.made())
    assert (made.epsilon, made.delta, made.seed) == (0.3, 0.05, 11)
    assert (result.epsilon, result.delta, result.seed) == (0.3, 0.05, 11)
    assert result.count == 24 and not result.exact  # the fake counts exactly


def test_approxmc_projects_on_the_map_variables_only(fake_counter: type[ExactCounter]) -> None:
    rscount.count(builtin_task("xor", 3), "approxmc", epsilon=0.3, delta=0.05, seed=11)
    (made,) = _estimates(fake_counter.made())
    assert sorted(made.projection) == list(range(1, 3 * 3 + 3 * 2 + 1))  # P[i][j] and F[i][v]


@pytest.mark.parametrize(("epsilon", "delta", "seed"), [(0.5, 0.1, 7), (0.2, 0.4, 2)])
def test_the_command_line_passes_its_flags_to_approxmc(
    cli, fake_counter: type[ExactCounter], epsilon: float, delta: float, seed: int
) -> None:
    record = cli(
        "xor", "--bits", "4", "--method", "approxmc",
        "--epsilon", epsilon, "--delta", delta, "--seed", seed, "--json",
    ).json()  # fmt: skip
    (made,) = _estimates(fake_counter.made())
    assert (made.epsilon, made.delta, made.seed) == (epsilon, delta, seed)
    assert record["count"] == 192


def test_decompose_approx_splits_delta_over_the_classes_and_keeps_epsilon_and_seed(
    fake_counter: type[ExactCounter],
) -> None:
    task = task_from_dict(
        {"concepts": {"a": [0, 1], "b": [0, 1], "c": [0, 1]}, "labels": {"y": "a & ~b | c"},
         "support": [[0, 0, 1], [0, 1, 1]]},
        "asymmetric", Path("."),
    )  # fmt: skip
    exact = rscount.count(task, "decompose")
    result = rscount.count(task, "decompose-approx", epsilon=0.6, delta=0.3, seed=5)
    made = _estimates(fake_counter.made())
    classes = exact.details["classes"]
    assert classes > 1 and len(made) == classes
    assert {(m.epsilon, m.seed) for m in made} == {(0.6, 5)}
    assert [m.delta for m in made] == [pytest.approx(0.3 / classes)] * classes
    assert result.count == exact.count and (result.epsilon, result.delta) == (0.6, 0.3)


def test_the_self_check_refuses_a_counter_that_miscounts(fake_counter: type[ExactCounter]) -> None:
    fake_counter.miscount = -1  # x1 xor x2 counted as 1, as pyapproxmc 4.3.0-4.4.0 do
    with pytest.raises(RscountError, match="counts 'x1 xor x2' as 1 .*pyapproxmc==4.1.24"):
        rscount.count(builtin_task("xor", 3), "approxmc")
    assert _estimates(fake_counter.made()) == []  # refused before any estimate


def test_the_self_check_refuses_an_overcount_and_every_count_after_it(
    fake_counter: type[ExactCounter],
) -> None:
    fake_counter.miscount = 1
    for _ in range(2):  # a failure is not cached: the next count is refused too
        with pytest.raises(RscountError, match="as 3 "):
            approxmc.estimate([[1, 2]], [1, 2], 0.8, 0.2, 1)


def test_the_self_check_uses_its_own_fixed_settings_and_passes_a_correct_counter(
    fake_counter: type[ExactCounter],
) -> None:
    assert approxmc.estimate([[1, 2], [-1, 2]], [1, 2], 0.4, 0.1, 9) == (2, 0)
    check, estimate = fake_counter.made()
    assert check.clauses == XOR2 and check.projection == [1, 2]
    assert (check.seed, check.epsilon, check.delta) == tuple(SELF_CHECK.values())
    assert (estimate.seed, estimate.epsilon, estimate.delta) == (9, 0.4, 0.1)


def test_an_empty_projection_counts_satisfiability_without_approxmc(fake_counter: type[ExactCounter]) -> None:
    assert approxmc.estimate([[1], [2]], [], 0.8, 0.2, 1) == (1, 0)
    assert approxmc.estimate([[1], [-1]], [], 0.8, 0.2, 1) == (0, 0)
    assert _estimates(fake_counter.made()) == []
