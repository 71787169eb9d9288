"""parallel.run_jobs: the same results, in input order, in this process, on a local process pool and
on a Dask LocalCluster started here; `rscount sweep --dask` writes the same CSV as a local run."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from support import REPO

from rscount.counting.dispatch import count_task
from rscount.counting.jobs import CountJob, run_count
from rscount.counting.processes.isolation import run_stoppable
from rscount.counting.processes.parallel import processors, run_jobs
from rscount.counting.settings import CountSettings, Method
from rscount.errors import InvalidSetting
from rscount.knowledge.loading import load_task
from rscount.task.families import builtin_task


@pytest.fixture(scope="module")
def dask_address():
    # dask[distributed] is in the `test` extra (pyproject.toml): missing, these tests fail, not skip
    import distributed

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def _jobs() -> list[CountJob]:
    """Counts of different sizes and methods (their results differ, so order mistakes show)."""
    tasks = [builtin_task("xor", 3, {"examples": n, "seed": 5}) for n in (1, 2, 3, 8)]
    tasks += [builtin_task("and", 4), load_task(REPO / "tasks" / "mnadd-half.yaml")]
    jobs = [CountJob(t, CountSettings(mode="disentangled")) for t in tasks]
    approx = CountSettings("approx", "disentangled", epsilon=0.5, delta=0.1, seed=3)
    jobs.append(CountJob(builtin_task("xor", 4), approx))
    jobs.append(CountJob(builtin_task("and", 3, {"examples": 1, "seed": 2}), CountSettings("exact", "joint")))
    return jobs


def _results(outcomes) -> list[tuple]:
    """What must not depend on where a job ran (which method of auto's race answers first may)."""
    return [(o.count, o.exact, o.error) for o in outcomes]


def test_in_process_local_pool_and_dask_give_the_same_results_in_order(dask_address):
    jobs = _jobs()
    here = _results(run_jobs(run_count, jobs, jobs=1))
    assert [r[0] for r in here[:4]] == [192, 96, 48, 24]  # XOR3 with 1, 2, 3, 8 examples (seed 5)
    assert all(r[2] is None for r in here)
    assert _results(run_jobs(run_count, jobs, jobs=2)) == here
    assert _results(run_jobs(run_count, jobs, dask=dask_address)) == here


def test_time_limits_hold_inside_dask_workers(dask_address):
    slow = CountJob(builtin_task("xor", 7), CountSettings("sdd", "disentangled", timeout=0.2))
    (outcome,) = run_jobs(run_count, [slow], dask=dask_address)
    assert outcome.count is None and "time limit" in outcome.error


def _processors_seen(_: int) -> tuple[int, int]:
    """processors() in a job and in the child it forks (run_count counts in one)."""
    return processors(), run_stoppable(processors)


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_each_job_of_a_pool_plans_for_its_share_of_the_processors_also_in_the_child_it_forks(jobs):
    # a race in a pool's worker holds at most its share (two races each holding a "steady"
    # processor on two cores would have every method slowed by the other race)
    mine = processors()
    seen = run_jobs(_processors_seen, list(range(4)), jobs)
    share = mine if jobs == 1 else max(1, mine // jobs)
    assert seen == [(share, share)] * 4
    assert processors() == mine  # the pool's share is its jobs', not this process's


def test_zero_jobs_is_a_user_error():
    with pytest.raises(InvalidSetting, match="jobs"):
        run_jobs(run_count, _jobs(), jobs=0)


def _csv_without_times(path: Path) -> list[dict]:
    """The rows without their times and methods (auto's race may be won by another method)."""
    with path.open() as f:
        return [{k: v for k, v in row.items() if k not in ("seconds", "method")} for row in csv.DictReader(f)]


def test_sweep_on_dask_writes_the_same_csv_as_locally(cli, tmp_path, dask_address):
    task = REPO / "tasks" / "mnadd-half.yaml"
    common = ["--seeds", "3", "--fractions", "0.2:1:0.2", "--supervision", "0,0.5"]
    local, remote = tmp_path / "local.csv", tmp_path / "dask.csv"
    assert cli("sweep", task, *common, "--csv", local, "--jobs", "2").code == 0
    run = cli("sweep", task, *common, "--csv", remote, "--dask", dask_address)
    assert run.code == 0, run.err
    rows = _csv_without_times(local)
    assert rows == _csv_without_times(remote) and len(rows) == 3 * 5 * 2


def _listening(reply: bytes | None):
    """A local TCP server that accepts and then says `reply` (None: nothing, ever); its address."""
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    kept = []

    def serve() -> None:
        while True:
            connection, _ = server.accept()
            kept.append(connection)
            if reply is not None:
                connection.sendall(reply)

    threading.Thread(target=serve, daemon=True).start()
    return f"tcp://127.0.0.1:{server.getsockname()[1]}"


def _closed_port() -> str:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as server:
        return f"tcp://127.0.0.1:{server.getsockname()[1]}"


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("tcp://127.0.0.1:99999", "is not a scheduler address"),
        ("garbage::", "is not a scheduler address"),
        (None, "cannot reach the scheduler"),  # a port nothing listens on: refused
    ],
)
def test_a_malformed_or_refusing_dask_address_is_one_setting_error_at_once(address, said):
    import time

    from rscount.counting.processes.parallel import dask_client

    start = time.monotonic()
    with pytest.raises(InvalidSetting, match=said):
        dask_client(address or _closed_port(), timeout=60)
    assert time.monotonic() - start < 30  # a hang guard: refused at once, not after distributed's retries


def test_a_silent_dask_peer_stops_at_the_commands_time_limit():
    from rscount.counting.processes.parallel import dask_client
    from rscount.errors import TimeLimitExceeded

    with pytest.raises(TimeLimitExceeded, match="connecting to the Dask scheduler"):
        dask_client(_listening(None), timeout=1.0)


def test_a_peer_that_is_no_dask_scheduler_is_one_setting_error():
    from rscount.counting.processes.parallel import dask_client

    with pytest.raises(InvalidSetting, match="no Dask scheduler answered"):
        dask_client(_listening(b"HTTP/1.1 200 OK\r\n\r\n" + b"hello" * 1000), timeout=10.0)


def test_the_commands_deadline_is_shared_by_every_count_of_a_batch(monkeypatch):
    """A batch's counts share the deadline `commanded` sets: once it has passed, a count waiting its
    turn stops at once as a limit, instead of getting the whole time limit again."""
    import time

    settings = CountSettings(timeout=10).commanded()
    assert 9 < settings.left() <= 10 and CountSettings(timeout=10).deadline is None
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + 11)
    assert settings.left() == 0 and settings.limits()["elapsed"] == 10
    outcome = run_count(CountJob(builtin_task("xor", 3), settings))
    assert outcome.limit and outcome.count is None and "time limit of 10 s" in (outcome.error or "")


@pytest.mark.parametrize("timeout", [None, 30.0])  # in this process, in a child
def test_an_outcome_keeps_the_classes_and_nodes_its_count_by_search_kept(timeout):
    """advise lists the shortcuts from the classes its first count kept, not walking them again."""
    task = builtin_task("xor", 3)
    settings = CountSettings(method=Method.SEARCH, timeout=timeout)
    result = count_task(task, settings)
    outcome = run_count(CountJob(task, settings))
    assert outcome.count == result.count == 24
    assert outcome.classes == result.classes and outcome.classes
    assert outcome.nodes == result.details["search_nodes"] > 0
