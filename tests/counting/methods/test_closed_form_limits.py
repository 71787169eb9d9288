"""The closed forms refuse a count too large to write out (more than MAX_COUNT_BITS = 2^27 bits,
about 40 million digits) and give every count below it exactly: exhaustive joint XOR on k bits is
(2^(k-1))^(2^k), a count of (k - 1) * 2^k bits."""

from __future__ import annotations

import pytest

from rscount.counting.budget import Unsuited
from rscount.counting.methods.closed_form.forms import MAX_COUNT_BITS, joint
from rscount.task.families import builtin_task


def test_the_largest_joint_xor_below_the_cap_is_given_exactly():
    assert 21 * 2**22 <= MAX_COUNT_BITS < 22 * 2**23
    result = joint(builtin_task("xor", 22))
    assert result.count == 1 << (21 * 2**22) and result.expression == f"2097152^{2**22}"


def test_the_smallest_joint_xor_above_the_cap_is_refused():
    with pytest.raises(Unsuited, match="too large to write out"):
        joint(builtin_task("xor", 23))
