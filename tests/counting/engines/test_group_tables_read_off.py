"""A group's label table read off the task's labels on all of D (where they were computed already)
equals the table tabulated for the group itself, on groups over all concepts and over some."""

from __future__ import annotations

import numpy as np
import pytest
from support import REPO

from rscount.counting.engines.group_tables import GroupTables
from rscount.encoding.value_codes import ValueMapCoding
from rscount.knowledge.loading import load_task


@pytest.mark.parametrize("name", ["mnadd-n2", "hwf3", "markov-chain", "alarm", "mnlogic-3cnf-6"])
def test_a_label_table_read_off_d_equals_the_groups_own(name):
    task = load_task(REPO / "tasks" / f"{name}.yaml")
    coding = ValueMapCoding(task, shared=False)
    groups = coding.label_groups()
    arrays = task.label_arrays()  # reading a program may have tabulated D already
    assert arrays is not None
    task.__dict__.pop("_label_arrays")
    assert task.tabulated_labels() is None
    own = [GroupTables(coding, groups)._label_table(group) for group in groups]
    task.__dict__["_label_arrays"] = arrays
    read = [GroupTables(coding, groups)._label_table(group) for group in groups]
    for (table, ids), (again, same_ids) in zip(own, read):
        assert table is not None and again is not None
        assert np.array_equal(table, again) and ids == same_ids
