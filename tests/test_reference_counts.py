"""The references themselves: brute_force_seen (only the seen values searched, the unseen ones a
factor) equals the plain brute force, so tests may use it where domains are large."""

from __future__ import annotations

import pathlib
import sys

from hypothesis import given, reject, settings

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bruteforce import brute_force_count, brute_force_seen  # noqa: E402
from randomtasks import SETTINGS, Spec, offset_specs, specs  # noqa: E402


def _both(spec: Spec) -> tuple[int, int]:
    support = [spec.vector(r) for r in spec.support]
    supervised = {spec.vector(r) for r in spec.supervised}
    return (
        brute_force_count(spec.domains, spec.label, support, supervised),
        brute_force_seen(spec.domains, spec.label, support, supervised),
    )


@settings(max_examples=60, **SETTINGS)
@given(specs(max_space=12) | offset_specs(boolean=False, max_space=12, max_rows=3))
def test_searching_only_the_seen_values_counts_as_the_plain_brute_force(spec: Spec) -> None:
    try:
        plain, seen = _both(spec)
    except ZeroDivisionError:  # a label undefined somewhere (x % 0): no count to compare
        reject()
    assert seen == plain


def test_the_unseen_values_of_mnadd_are_a_factor_of_ten_each():
    # d1 + d2 on one example (0, 0): (0, 0) must map to a pair summing to 0 (only (0, 0)), under
    # either permutation; the 9 unseen values of each digit go anywhere: 2 * 10**18.
    assert brute_force_seen([range(10)] * 2, sum, [(0, 0)], set()) == 2 * 10**18
