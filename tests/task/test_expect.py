"""Expectations on counts: exact counts pass or fail saying by how much; approximate counts pass,
fail or stay inconclusive according to their epsilon interval."""

from __future__ import annotations

import pytest

from rscount.errors import RscountError
from rscount.task.expectations import PinStatus, judge_pins, parse_expect

PASS, FAIL, INCONCLUSIVE = PinStatus


@pytest.mark.parametrize(
    ("expect", "count", "status", "message"),
    [
        ({"shortcuts": 0}, 1, PASS, "shortcuts: 0 holds (count 1)"),
        ({"shortcuts": 0}, 24, FAIL, "expected 0 shortcuts, found 23 (+23)"),
        ({"count": 24}, 25, FAIL, "the count moved from 24 (pinned) to 25 (+1)"),
        ({"count": 24}, 20, FAIL, "the count moved from 24 (pinned) to 20 (-4)"),
        ({"max_count": 100}, 144, FAIL, "max_count 100 exceeded: count 144 (44 over, 1.44x)"),
        ({"max_count": 100}, 100, PASS, "max_count: 100 holds (count 100)"),
        ({"min_count": 10}, 4, FAIL, "min_count 10 not reached: count 4 (6 short)"),
    ],
)
def test_exact_counts_pass_or_fail_with_the_difference(expect, count, status, message):
    (outcome,) = judge_pins(expect, count, exact=True)
    assert (outcome.status, outcome.message) == (status, message)
    assert outcome.failed == (status != PASS)


def test_exact_judgement_works_beyond_64_bits():
    big = 2**80 + 5
    assert judge_pins({"count": big}, big, True)[0].status == PASS
    assert judge_pins({"max_count": big - 1}, big, True)[0].status == FAIL


def test_a_count_of_any_length_is_judged_and_named_by_its_digits():
    huge = 10**5000 + 7  # more digits than Python converts to text by default
    (moved,) = judge_pins({"count": 24}, huge, True)
    assert moved.status == FAIL
    assert moved.message == "the count moved from 24 (pinned) to a 5001-digit number (+a 5001-digit number)"
    (over,) = judge_pins({"max_count": 10}, huge, True)
    assert over.message.startswith("max_count 10 exceeded: count a 5001-digit number (")


def test_shortcuts_are_counted_beyond_the_intended_part():
    # in the jrs mode the intended pairs (48 on XOR3) are not shortcuts
    assert judge_pins({"shortcuts": 0}, 48, True, intended=48)[0].status == PASS
    (outcome,) = judge_pins({"shortcuts": 0}, 3840, True, intended=48)
    assert (outcome.status, outcome.message) == (FAIL, "expected 0 shortcuts, found 3792 (+3792)")
    assert judge_pins({"count": 48}, 48, True, intended=48)[0].status == PASS


@pytest.mark.parametrize(
    ("expect", "estimate", "epsilon", "status"),
    [
        ({"shortcuts": 0}, 1, 0.8, PASS),  # exact count in [ceil(1/1.8), floor(1.8)] = [1, 1]
        ({"shortcuts": 0}, 2, 0.8, FAIL),  # [2, 3]
        ({"shortcuts": 0}, 2, 1.5, INCONCLUSIVE),  # [1, 5]
        ({"max_count": 100}, 50, 0.8, PASS),  # [28, 90]
        ({"max_count": 100}, 100, 0.8, INCONCLUSIVE),  # [56, 180]
        ({"max_count": 100}, 200, 0.8, FAIL),  # [112, 360]
        ({"min_count": 100}, 200, 0.8, PASS),
        ({"count": 24}, 24, 0.8, INCONCLUSIVE),
    ],
)
def test_approximate_counts_are_judged_on_their_epsilon_interval(expect, estimate, epsilon, status):
    (outcome,) = judge_pins(expect, estimate, exact=False, epsilon=epsilon)
    assert outcome.status == status
    assert f"epsilon {epsilon}" in outcome.message


def test_parse_expect_refuses_unknown_and_negative_expectations():
    assert parse_expect({"shortcuts": 0, "max_count": 5}) == {"shortcuts": 0, "max_count": 5}
    with pytest.raises(RscountError, match="expect.shortcut: unknown expectation"):
        parse_expect({"shortcut": 0})
    with pytest.raises(RscountError, match="expect.max_count: expected a non-negative integer"):
        parse_expect({"max_count": -1})
    with pytest.raises(RscountError, match="min_count 5 exceeds max_count 2"):
        parse_expect({"min_count": 5, "max_count": 2})
