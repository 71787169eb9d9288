"""The pair CNF (rscount.encoding.pair_images): the predictions made variables on a label's
holding rows are implied by the pairs' clauses, so the maps it admits are the same with every
holding row imaged as with none, on random tasks of two-concept tests (words, offset integers,
orderings, disjunctions, supervision)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from strategies.mixedtasks import Drawn, pairwise_tasks
from support import examples

from rscount import sat
from rscount.encoding.pair_images import pair_encoding
from rscount.knowledge.pairwise import pairwise_labels

MAPS_MAX = 2000  # maps listed per encoding; tasks with more are compared on their first ones' count


def admitted(drawn: Drawn, imaged_rows: int) -> set[tuple[int, ...]]:
    """The maps the pair CNF admits, as the true variables of their placements and images."""
    task = drawn.task()
    labels = pairwise_labels(task)
    assert labels is not None
    enc = pair_encoding(task, labels, task.in_place, imaged_rows)
    maps, projected = set(), set(enc.projection)
    with sat.solver(sat.CHECK, enc.clauses) as solver:
        for model in sat.projected_models(solver, enc.projection, one_hot=True):
            maps.add(tuple(x for x in model if x > 0 and x in projected))
            if len(maps) == MAPS_MAX:
                break
    return maps


@settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=examples(40))
@given(drawn=pairwise_tasks())
def test_imaging_the_holding_rows_keeps_every_map_and_adds_none(drawn: Drawn):
    without, imaged = admitted(drawn, 0), admitted(drawn, 1000)
    if len(without) < MAPS_MAX:
        assert imaged == without
    else:
        assert len(imaged) == MAPS_MAX
