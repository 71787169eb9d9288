"""One count on a Dask cluster (`count --dask`, processes/dask_classes.py): the permutation classes
counted by a LocalCluster of worker processes sum to the local count, also when workers die in the
middle of the count (Dask reruns their batches; the nanny restarts them), from the API and from the
command line."""

from __future__ import annotations

import json
import os
from functools import partial

import pytest
from support import REPO

import rscount
from rscount.counting.engines.class_counts import ClassCounter
from rscount.counting.engines.class_search.search import ClassSearch
from rscount.counting.problem import CountProblem
from rscount.counting.processes.dask_classes import RESUBMIT, DaskClassWorkers
from rscount.knowledge.loading import load_task

SDD_OIA = REPO / "tasks" / "sdd-oia.yaml"  # 684 permutation classes, each with optimal maps
SDD_OIA_AMBULANCE = REPO / "tasks" / "sdd-oia-ambulance.yaml"


def local_cluster():
    """A scheduler and two worker processes on this machine, its address yielded."""
    # dask[distributed] is in the `test` extra (pyproject.toml): missing, these tests fail, not skip
    import distributed

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


dask_address = pytest.fixture(local_cluster, scope="module", name="dask_address")
# a cluster of its own for a test that kills workers: the others never wait on their restart
dying_address = pytest.fixture(local_cluster, name="dying_address")


# the library's tasks with many permutation classes (benchmarks/library.md), with their pins
MANY_CLASSES = [(SDD_OIA, 684, 38172072960), (SDD_OIA_AMBULANCE, 3285, 108924190570473062400)]


@pytest.mark.parametrize(("path", "classes", "pinned"), MANY_CLASSES, ids=lambda v: getattr(v, "stem", v))
def test_a_count_on_dask_equals_the_local_count(dask_address, path, classes, pinned) -> None:
    task = load_task(path)
    local = rscount.count(task, method="decompose")
    on_dask = rscount.count(task, method="decompose", dask=dask_address)
    assert on_dask.count == local.count == pinned
    assert on_dask.details["classes"] == local.details["classes"] == classes
    assert on_dask.details["dask_workers"] == 2


@pytest.mark.parametrize("deaths", [1, 2], ids=["one worker", "both workers"])
def test_workers_killed_mid_count_cost_only_their_classes(dying_address, tmp_path, deaths) -> None:
    task = load_task(SDD_OIA)
    classes = list(ClassSearch(CountProblem(task, task.mode)))
    markers = [tmp_path / f"death {i}" for i in range(deaths)]

    def dying_counter():  # pickled by value: the first `deaths` classes counted kill their workers
        counter = ClassCounter(task, task.mode)

        class Dying:
            def count(self, pi):
                for marker in markers:
                    try:  # created atomically: each marker is one death, whichever worker gets it
                        os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
                    except FileExistsError:
                        continue
                    os._exit(1)
                return counter.count(pi)

        return Dying()

    with DaskClassWorkers(dying_counter, dying_address) as workers:
        total = sum(models * size for models, size, _ in workers.counts(classes))
    assert all(marker.exists() for marker in markers)  # the workers did die in the middle of the count
    assert total == 38172072960  # the pin of MANY_CLASSES


def test_every_batch_dask_cancels_is_sent_again(dask_address) -> None:
    # as when every worker is lost at once, with the only copies of the scattered counter maker:
    # all batches in flight are cancelled, more of them than the times one batch may be sent again
    import distributed

    task = load_task(SDD_OIA)
    classes = list(ClassSearch(CountProblem(task, task.mode)))
    with distributed.Client(dask_address) as client:  # both workers up: a loaded machine starts them late
        client.wait_for_workers(2, timeout=300)
    with DaskClassWorkers(partial(ClassCounter, task, task.mode), dask_address) as workers:
        submit, cancelled = workers.client.submit, []

        def cancelling_submit(*args, **kwargs):
            future = submit(*args, **kwargs)
            if len(cancelled) < workers.in_flight:
                cancelled.append(future.key)
                future.cancel()
            return future

        workers.client.submit = cancelling_submit
        total = sum(models * size for models, size, _ in workers.counts(classes))
    assert len(cancelled) == workers.in_flight > RESUBMIT and total == 38172072960


def test_the_command_line_counts_on_dask_as_here(cli, dask_address) -> None:
    here = cli("count", SDD_OIA, "--method", "decompose", "--json")
    there = cli("count", SDD_OIA, "--method", "decompose", "--dask", dask_address, "--json")
    assert here.code == there.code == 0
    assert json.loads(there.out)["count"] == json.loads(here.out)["count"] == 38172072960
