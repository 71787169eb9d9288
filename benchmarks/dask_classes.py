"""One count's permutation classes on a Dask cluster (`rscount count --dask`), against the local run:
decompose on one task in this process, and on LocalClusters of 1, 2 and 4 worker processes (one
thread each) started here. Medians of --repeat runs.

Run from anywhere:  python benchmarks/dask_classes.py [--task tasks/sdd-oia.yaml] [--repeat 3]
                    [--out benchmarks/dask_classes.md]
On a 2-core machine the cluster's workers share the two cores with the class search of this process,
so 4 workers cannot beat 2: the run measures Dask's overhead per class (scheduling, pickling the
counter once per worker) and that the count is the same; on a cluster of separate machines each
worker brings its own cores and memory (the counter is built once per worker and kept).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from report import header_lines, seconds_text
from suite import BENCH, REPO, environment

sys.path.insert(0, str(REPO))
import rscount  # noqa: E402
from rscount.knowledge.loading import load_task  # noqa: E402


def timed(task: object, repeat: int, dask: str | None = None) -> tuple[int, float, dict[str, object]]:
    """(count, median wall seconds, details of the last run) of decompose on `task`, `repeat` times."""
    seconds, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = rscount.count(task, method="decompose", dask=dask)  # type: ignore[arg-type]
        seconds.append(time.perf_counter() - start)
    assert result is not None
    return result.count, statistics.median(seconds), result.details


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default=str(REPO / "tasks" / "sdd-oia.yaml"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", default=str(BENCH / "dask_classes.md"))
    args = parser.parse_args(argv)
    from distributed import LocalCluster

    task = load_task(args.task)
    header, _ = environment(f"decompose on {Path(args.task).name}, median of {args.repeat} runs")
    rows = []
    count, here, details = timed(task, args.repeat)
    rows.append(("this process", count, here, details.get("classes")))
    for workers in (1, 2, 4):
        with LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster:
            count, seconds, details = timed(task, args.repeat, cluster.scheduler_address)
        rows.append(
            (f"Dask LocalCluster, {workers} worker processes", count, seconds, details.get("classes"))
        )
    lines = ["# One count's classes on Dask", "", *header_lines(header), ""]
    lines += ["| where | count | classes | median s | over this process |", "|---|---:|---:|---:|---:|"]
    for where, counted, seconds, classes in rows:
        lines.append(f"| {where} | {counted} | {classes} | {seconds_text(seconds)} | {seconds / here:.2f} |")
    same = len({r[1] for r in rows}) == 1
    lines += ["", f"Every run counts the same: {'yes' if same else 'NO (a bug)'}."]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
