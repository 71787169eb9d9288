"""processes/isolation: a child's memory counts pages its forks share with it once, not once per
fork (a count's race forks several processes from one that may already hold gigabytes)."""

from __future__ import annotations

import os
import time

import pytest

from rscount.counting.processes.isolation import GB, run_stoppable, tree_memory
from rscount.errors import MemoryLimitExceeded

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/smaps_rollup"), reason="Linux PSS only")


def _forks_sharing(held: bytearray, forks: int) -> int:
    """Fork `forks` children that hold `held` without writing it; the tree's memory seen meanwhile."""
    children = []
    for _ in range(forks):
        pid = os.fork()
        if pid == 0:
            time.sleep(3)
            os._exit(0)
        children.append(pid)
    time.sleep(0.5)
    seen = tree_memory(os.getpid())
    for pid in children:
        os.waitpid(pid, 0)
    return seen


def test_forks_sharing_a_large_parent_stay_within_a_limit_their_sum_of_resident_sizes_passes():
    held = bytearray(os.urandom(1 << 20)) * 400  # 400 MB, resident in every fork
    seen = run_stoppable(_forks_sharing, held, 5, memory=1.0, timeout=120, what="forks")
    assert seen < 1.0 * GB  # six resident sets of 400 MB would be 2.4 GB


def test_memory_written_by_each_fork_still_counts_in_full():
    def write_each(forks: int) -> None:
        children = []
        for _ in range(forks):
            pid = os.fork()
            if pid == 0:
                own = bytearray(os.urandom(1 << 20)) * 300  # 300 MB of its own
                time.sleep(30)
                del own
                os._exit(0)
            children.append(pid)
        for pid in children:
            os.waitpid(pid, 0)

    start = time.monotonic()
    with pytest.raises(MemoryLimitExceeded):
        run_stoppable(write_each, 4, memory=1.0, timeout=120, what="writers")
    assert time.monotonic() - start < 60
