"""`auto` as a portfolio (rscount/counting/auto.py, processes/race.py): quick methods first, then the
exact methods raced (search holding a processor, the others sharing the rest), ApproxMC last; a
method that stalls cannot starve one that answers, a method that declines leaves its turn, and
every answer is the brute force's."""

from __future__ import annotations

import pathlib
import time

import pytest
from references.bruteforce import brute_force_count

from rscount.counting import auto, dispatch
from rscount.counting.budget import Declined, Unsuited
from rscount.counting.methods import BACKENDS
from rscount.counting.processes import race as race_module
from rscount.counting.processes.race import Entrant, race
from rscount.counting.settings import CountSettings, Method
from rscount.knowledge.loading import task_from_dict
from rscount.task.model import Mode

# Two rows of a & ~b | c: no closed form, six permutation classes, 200 maps.
ROWS = [(0, 0, 1), (0, 1, 1)]
TASK = task_from_dict(
    {
        "concepts": {n: [0, 1] for n in "abc"},
        "labels": {"y": "a & ~b | c"},
        "support": [list(r) for r in ROWS],
    },
    "t",
    pathlib.Path("."),
)
COUNT = brute_force_count([[0, 1]] * 3, lambda c: int(c[0] and not c[1] or c[2]), ROWS, set())


class Stalls:
    """A backend that never answers (a method stuck on a task)."""

    def __init__(self, method: Method) -> None:
        self.method, self.exact, self.description = method, True, "stalls"

    def count(self, *args, **kwargs):
        while True:
            time.sleep(1)


class Declines:
    def __init__(self, method: Method) -> None:
        self.method, self.exact, self.description = method, True, "declines"

    def count(self, *args, **kwargs):
        raise Unsuited("not for this task")


def auto_count(task):
    return dispatch.count_task(task, CountSettings("auto"))


@pytest.fixture
def no_head_start(monkeypatch):
    """auto without its head start, so that the race itself is what a test watches."""
    tables = {mode: tuple(s for s in steps if s.phase != "head") for mode, steps in auto.AUTO.items()}
    monkeypatch.setattr(auto, "AUTO", tables)


def test_a_small_task_is_answered_by_the_head_start_without_a_race():
    result = auto_count(TASK)
    assert result.count == COUNT and result.method == "search" and "race" not in result.details
    assert "head start" in result.details["auto"]


def test_a_head_start_that_stalls_gives_way_to_the_race_after_its_seconds(monkeypatch):
    monkeypatch.setitem(BACKENDS, Method.SEARCH, Stalls(Method.SEARCH))
    start = time.monotonic()
    result = auto_count(TASK)
    assert result.count == COUNT and result.method != "search" and "race" in result.details
    assert time.monotonic() - start >= auto.HEAD_SECONDS


def test_the_race_answers_exactly_and_says_how_it_went(no_head_start):
    result = auto_count(TASK)
    assert result.count == COUNT == 200 and result.exact
    race_summary = result.details["race"]
    assert [e["method"] for e in race_summary] == [
        "decompose", "search", "source-sets", "upper bounds", "sampled estimate"
    ]  # fmt: skip
    assert sum(e["outcome"] == "answered" for e in race_summary) == 1
    assert result.method == next(e["method"] for e in race_summary if e["outcome"] == "answered")


@pytest.mark.parametrize("stuck", [Method.DECOMPOSE, Method.SEARCH])
def test_a_method_that_stalls_does_not_starve_the_others(no_head_start, monkeypatch, stuck):
    monkeypatch.setitem(BACKENDS, stuck, Stalls(stuck))
    result = auto_count(TASK)
    assert result.count == COUNT and result.method != stuck
    stalled = next(e for e in result.details["race"] if e["method"] == stuck)
    assert stalled["outcome"] in ("stopped", "running", "not started")


def test_a_method_that_declines_leaves_its_turn(no_head_start, monkeypatch):
    for method in (Method.DECOMPOSE, Method.SEARCH):
        monkeypatch.setitem(BACKENDS, method, Declines(method))
    result = auto_count(TASK)
    assert result.method == "source-sets" and result.count == COUNT
    outcomes = {e["method"]: e["outcome"] for e in result.details["race"]}
    # each declined, unless source-sets answered before its process ran at all (a loaded machine)
    declined = "declined: not for this task"
    assert {outcomes["decompose"], outcomes["search"]} <= {declined, "stopped", "not started"}
    assert declined in (outcomes["decompose"], outcomes["search"])


def test_search_holds_a_processor_throughout_the_race(no_head_start, monkeypatch):
    for method in (Method.DECOMPOSE, Method.SOURCE_SETS):
        monkeypatch.setitem(BACKENDS, method, Stalls(method))
    real = BACKENDS[Method.SEARCH]

    class Busy:  # search after a second of work, while two stalling methods share the other processor
        method, exact, description = Method.SEARCH, True, "busy"

        def count(self, *args, **kwargs):
            start = time.process_time()
            while time.process_time() - start < 1.0:
                pass
            return real.count(*args, **kwargs)

    monkeypatch.setitem(BACKENDS, Method.SEARCH, Busy())
    monkeypatch.setattr(auto, "processors", lambda: 2)
    result = auto_count(TASK)
    held = {e["method"]: e["seconds"] for e in result.details["race"]}
    assert result.method == "search" and result.count == COUNT
    # never paused, while the other two took turns on the other processor (in an equal share, the
    # three would each hold two thirds of the race: search half of what the other two held)
    assert held["search"] >= 0.9 * (held["decompose"] + held["source-sets"])


def test_approxmc_estimates_only_when_every_exact_method_declines(no_head_start, monkeypatch):
    for method in (Method.DECOMPOSE, Method.SEARCH, Method.SOURCE_SETS):
        monkeypatch.setitem(BACKENDS, method, Declines(method))
    result = auto_count(TASK)
    assert result.method == "approxmc" and not result.exact
    assert COUNT / 1.8 <= result.count <= COUNT * 1.8


def test_quick_steps_come_first_and_the_race_is_skipped_when_they_answer():
    xor3 = task_from_dict({"concepts": {n: [0, 1] for n in "abc"}, "labels": {"y": "a ^ b ^ c"}}, "x", ".")
    result = auto_count(xor3)
    assert result.method == "closed-form" and result.count == 24 and "race" not in result.details


def busy(seconds: float, answer: int | None = None) -> int | None:
    """Work the processor for `seconds` of this process's own time (a stopped process gets none)."""
    while time.process_time() < seconds:
        pass
    return answer


def test_a_race_shares_the_processors_equally():
    """Three entrants on one processor: the one needing 1.2 s of processor answers once the two
    stalling ones have each held it about as long (slices of auto's race, short at first)."""
    entrants = [
        Entrant("slow", lambda reports: busy(3600)),
        Entrant("answers", lambda reports: busy(1.2, 42)),
        Entrant("also slow", lambda reports: busy(3600)),
    ]
    outcome = race(entrants, cores=1)
    assert outcome.result == 42 and outcome.winner is entrants[1]
    held = {e.name: e.seconds for e in entrants}
    assert held["answers"] >= 1.1  # its 1.2 s of processor, less the clocks' granularity
    assert held["slow"] >= 0.7 and held["also slow"] >= 0.7  # each had turns before the answer


def chatty(reports) -> None:
    """Stall while reporting a lower bound every millisecond (as a method counting many classes)."""
    n = 0
    while True:
        n += 1
        reports.known(lower_bound=n)
        time.sleep(0.001)


def test_an_entrant_reporting_often_keeps_its_share_of_the_processor():
    # reports are read as they come; they do not end the reporter's slice (they once did, and a
    # method reporting each class got a sixth of the machine where it was owed a third)
    entrants = [
        Entrant("chatty", chatty),
        Entrant("answers", lambda reports: busy(1.2, 42)),
    ]
    outcome = race(entrants, cores=1)
    assert outcome.winner is entrants[1]
    held = {e.name: e.seconds for e in entrants}
    assert held["chatty"] >= 0.5 * held["answers"] >= 0.55


def test_a_helper_holds_the_processor_only_its_share_of_the_time():
    # auto's helpers (bounds, sampled estimates) once took equal shares from the methods that answer
    entrants = [
        Entrant("answers", lambda reports: busy(3.0, 42)),
        Entrant("helper", lambda reports: busy(3600), delay=0.2),
    ]
    started = time.monotonic()
    outcome = race(entrants, cores=1)
    elapsed = time.monotonic() - started  # the race's own clock: the bound holds however busy the machine is
    assert outcome.winner is entrants[0]
    assert 0 < entrants[1].seconds <= race_module.HELPER_SHARE * elapsed + race_module.SLICE


def steps(reports, total: int = 30, each: float = 0.05) -> int:
    """Work `total` steps of `each` seconds of processor, reporting how many are done (as
    source-tuples reports its tuples)."""
    for done in range(1, total + 1):
        busy(done * each)
        reports.known(tuples_done=done, tuples_total=total)
    return 7


@pytest.fixture
def fine_slices(monkeypatch):
    """Slices a tenth of auto's, so that shares are measured over many turns: one turn more or less
    (the race ends within a round) once moved a staller's time by a slice of 0.5 s out of 0.66 s."""
    monkeypatch.setattr(race_module, "SLICE", 0.05)


def test_an_entrant_that_expects_to_finish_soon_gets_most_of_a_processor_it_shares_with_one_other(
    fine_slices,
):
    # markov-chain on one processor: search, which reports the share of its tree walked, and decompose
    entrants = [Entrant("stalls", lambda reports: busy(3600)), Entrant("reports", steps)]
    outcome = race(entrants, cores=1)
    assert outcome.winner is entrants[1] and outcome.result == 7
    held = {e.name: e.seconds for e in entrants}
    # equal shares until it expects to finish within the race's time (a third of its work), then
    # three quarters of the processor: about 1.5 s against 0.83 s (1.5 s each with equal shares)
    assert held["reports"] >= 1.3 * held["stalls"]
    assert held["stalls"] >= 0.25 * held["reports"]  # half of its share kept: a third of the other's


def test_an_entrant_that_expects_to_finish_soon_gets_longer_slices_than_the_others(fine_slices):
    # MNMath disentangled on one processor: source-tuples, which reports its tuples, held a third
    # of it beside decompose and search, which stall there (343 s; 236 s once favoured)
    entrants = [
        Entrant("stalls", lambda reports: busy(3600)),
        Entrant("reports", steps),
        Entrant("stalls too", lambda reports: busy(3600)),
    ]
    outcome = race(entrants, cores=1)
    assert outcome.winner is entrants[1] and outcome.result == 7
    held = {e.name: e.seconds for e in entrants}
    # equal shares until it expects to finish within the race's time (a quarter of its work), then
    # two thirds of the processor: about 1.5 s against 0.66 s each (1.5 s each with equal shares)
    assert held["reports"] >= 1.3 * max(held["stalls"], held["stalls too"])
    # half of their shares kept: a quarter of the favoured one's time at least, a fifth on a busy machine
    assert min(held["stalls"], held["stalls too"]) >= 0.2 * held["reports"]


def test_the_time_left_is_read_off_the_share_of_the_work_reported_done():
    e = Entrant("m", steps, seconds=2.0, known={"lower_bound": 5, "tuples_done": 1, "tuples_total": 4})
    assert e.remaining() == 6.0
    unknown_total = {"classes_done": 3, "classes_total": None}  # decompose still listing its classes
    assert Entrant("m", steps, seconds=2.0, known=unknown_total).remaining() is None
    assert Entrant("m", steps, seconds=2.0, known={"lower_bound": 5}).remaining() is None
    walked = {"lower_bound": 5, "classes_done": 2, "work_done": 0.25}  # search: a quarter of its tree
    assert Entrant("m", steps, seconds=2.0, known=walked).remaining() == 6.0
    held = {"lower_bound": 5, "classes_done": 2, "permutations_done": 10, "permutations_total": 40}
    assert Entrant("m", steps, seconds=2.0, known=held).remaining() == 6.0  # decompose's classes counted


def test_helpers_together_hold_a_lone_processor_only_their_share_of_the_time(fine_slices):
    # two helpers with a tenth each took a fifth of a lone processor (MNMath disentangled: 45 of 236 s);
    # short slices: a helper passes its share by a slice at most
    entrants = [
        Entrant("answers", lambda reports: busy(2.0, 42)),
        Entrant("bounds", lambda reports: busy(3600), delay=0.2),
        Entrant("samples", lambda reports: busy(3600), delay=0.2),
    ]
    started = time.monotonic()
    outcome = race(entrants, cores=1)
    elapsed = time.monotonic() - started
    assert outcome.winner is entrants[0]
    helped = entrants[1].seconds + entrants[2].seconds
    assert 0 < helped <= race_module.HELPER_SHARE * elapsed + 2 * race_module.SLICE


def test_helpers_take_their_share_from_the_processor_search_leaves_not_from_both(fine_slices):
    # with a tenth of both processors, the helpers took a fifth of the one search did not hold
    # (random 3-CNF on 8 bits: 13 s of 73, decompose answering after 30 s of its own)
    entrants = [
        Entrant("search", lambda reports: busy(3600), steady=True),
        Entrant("answers", lambda reports: busy(2.0, 42)),
        Entrant("bounds", lambda reports: busy(3600), delay=0.2),
        Entrant("samples", lambda reports: busy(3600), delay=0.2),
    ]
    started = time.monotonic()
    outcome = race(entrants, cores=2)
    elapsed = time.monotonic() - started
    assert outcome.winner is entrants[1]
    helped = entrants[2].seconds + entrants[3].seconds
    assert 0 < helped <= race_module.HELPER_SHARE * elapsed + 2 * race_module.SLICE


def test_a_helper_that_never_answers_waits_its_delay_and_does_not_keep_a_race_going():
    entrants = [
        Entrant("declines", lambda reports: (_ for _ in ()).throw(Unsuited("no"))),
        Entrant("helper", lambda reports: time.sleep(3600), delay=30.0),
    ]
    started = time.monotonic()
    with pytest.raises(Declined, match="every method declined"):
        race(entrants, cores=2)
    assert time.monotonic() - started < 25 and entrants[1].outcome == "not started"


def test_every_mode_has_a_table_whose_race_and_last_steps_need_no_earlier_step():
    for mode in Mode:
        assert auto.AUTO[mode], mode
        for step in auto.AUTO[mode]:
            assert step.phase in ("first", "head", "race", "last")
