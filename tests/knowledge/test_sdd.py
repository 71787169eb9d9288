"""Weighted model counts of flattened SDDs (Circuit) against a brute force over every assignment,
and the value maps' marginals read off one weighted count against one conjunction per value."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from pysdd.sdd import SddManager, Vtree

from rscount.counting.engines.value_maps import ValueMapSdds
from rscount.encoding.value_codes import ValueMapCoding
from rscount.knowledge.loading import task_from_dict
from rscount.knowledge.sdd import Circuit, model_count
from rscount.task.model import Mode


def random_cnf(rng: random.Random, n: int, clauses: int) -> list[list[int]]:
    return [[v if rng.random() < 0.5 else -v for v in rng.sample(range(1, n + 1), 3)] for _ in range(clauses)]


def brute_weighted(n: int, cnf: list[list[int]], weights: dict[int, tuple[int, int]]) -> int:
    total = 0
    for bits in itertools.product((False, True), repeat=n):
        if all(any(bits[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in cnf):
            weight = 1
            for x, (pos, neg) in weights.items():
                weight *= pos if bits[x - 1] else neg
            total += weight
    return total


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("vtree_type", ["balanced", "right"])
def test_circuit_weighted_count_matches_brute_force(seed, vtree_type):
    rng = random.Random(seed)
    n = rng.randint(3, 9)
    cnf = random_cnf(rng, n, rng.randint(0, 3 * n))
    order = rng.sample(range(1, n + 1), n)
    manager = SddManager.from_vtree(Vtree(var_count=n, var_order=order, vtree_type=vtree_type))
    root = manager.true()
    for clause in cnf:
        gate = manager.false()
        for lit in clause:
            gate = gate.disjoin(manager.literal(lit))
        root = root.conjoin(gate)
    circuit = Circuit(manager, root)
    chosen = rng.sample(range(1, n + 1), rng.randint(0, n))
    weighted = {x: (rng.randint(0, 9), rng.randint(0, 9)) for x in chosen}
    assert circuit.count() == brute_weighted(n, cnf, {}) == model_count(manager, root)
    assert circuit.count(weighted) == brute_weighted(n, cnf, weighted)


def test_circuit_of_constants_counts_every_or_no_assignment():
    manager = SddManager.from_vtree(Vtree(var_count=4, var_order=[1, 2, 3, 4], vtree_type="balanced"))
    assert Circuit(manager, manager.true()).count({2: (3, 5)}) == 8 * 8
    assert Circuit(manager, manager.false()).count() == 0


@pytest.mark.parametrize("mode", [Mode.DISENTANGLED, Mode.OBJECTS])
def test_value_map_marginals_equal_one_conjunction_per_value(mode):
    """Values as words and offset integers, three and five of them (codes of 2 and 3 bits)."""
    data = {
        "mode": str(mode),
        "objects": {"count": 2, "attributes": {"c": ["red", "green", "blue"], "s": [3, 4, 5, 6, 7]}},
        "labels": {"y": "Eq(c_1, c_2)", "z": "s_1 < s_2"},
        "support": [
            ["red", 3, "red", 5],
            ["green", 7, "blue", 4],
            ["blue", 5, "blue", 5],
            ["red", 6, "green", 3],
        ],
    }
    task = task_from_dict(data, "marginals", Path("."))
    coding = ValueMapCoding(task, shared=mode == Mode.OBJECTS)
    sdds = ValueMapSdds(coding)
    checked = 0
    for pi in itertools.permutations(range(len(task.concepts))):
        if any(len(task.concepts[i].values) != len(task.concepts[j].values) for i, j in enumerate(pi)):
            continue
        total, fixed = sdds.tally(pi, set(coding.owner))
        root = sdds.compile(pi)
        for (o, v), row in fixed.items():
            expected = []
            for u in range(coding.sizes[pi[o]]):
                node = root & sdds._code(o, v, u)
                expected.append(model_count(sdds.manager, node))
            assert row == expected
            assert sum(row) == total
            checked += total > 0
        root.deref()
    assert checked  # some permutation has valid value maps
