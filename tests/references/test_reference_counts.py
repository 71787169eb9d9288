"""The references themselves: brute_force_seen (only the seen values searched, the unseen ones a
factor), concept by concept and vector by vector, equals the plain brute force, so tests may use it
where domains are large, and the random specs use it as their reference (Spec.brute_force)."""

from __future__ import annotations

from hypothesis import given, reject, settings
from strategies.randomtasks import SETTINGS, Spec, offset_specs, specs, string_specs

from references.bruteforce import brute_force_count, brute_force_seen


def _all(spec: Spec) -> tuple[int, int, int]:
    support = [spec.vector(r) for r in spec.support]
    supervised = {spec.vector(r) for r in spec.supervised}
    return (
        brute_force_count(spec.domains, spec.label, support, supervised),
        brute_force_seen(spec.domains, spec.label, support, supervised),
        brute_force_seen(spec.domains, spec.label, support, supervised, by_rows=True),
    )


@settings(max_examples=100, **SETTINGS)
@given(specs(max_space=12) | offset_specs(boolean=False, max_space=12, max_rows=3) | string_specs(max_rows=4))
def test_searching_only_the_seen_values_counts_as_the_plain_brute_force(spec: Spec) -> None:
    try:
        plain, seen, by_rows = _all(spec)
    except ZeroDivisionError:  # a label undefined somewhere (x % 0): no count to compare
        reject()
    assert seen == plain == by_rows


def test_the_unseen_values_of_mnadd_are_a_factor_of_ten_each():
    # d1 + d2 on one example (0, 0): (0, 0) must map to a pair summing to 0 (only (0, 0)), under
    # either permutation; the 9 unseen values of each digit go anywhere: 2 * 10**18.
    assert brute_force_seen([range(10)] * 2, sum, [(0, 0)], set()) == 2 * 10**18
