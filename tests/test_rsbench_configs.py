"""rsbench generator configs (seed 004, appendix C) read as tasks, with the appendix's own examples."""

from __future__ import annotations

import pytest
import yaml
from bruteforce import brute_force_objects
from conftest import REPO

from rscount import count
from rscount.errors import RscountError
from rscount.knowledge.loading import load_task

CONFIGS = REPO / "tests" / "configs"


def test_mnlogic_example_gives_the_label_of_table_25():
    task = load_task(CONFIGS / "mnlogic-appendix-c8.yaml")
    assert task.names == ["a", "b", "c"] and task.support.exhaustive
    assert task.label_of((1, 0, 0)) == (1,)  # concepts [True, False, False] -> label True
    assert task.label_of((0, 0, 1)) == (0,)
    assert count(task, "exact").count == count(task, "enumerate").count


def test_mnmath_example_gives_the_labels_of_table_24():
    task = load_task(CONFIGS / "mnmath-appendix-c7.yaml")
    assert task.names == ["a_1", "b_1", "a_2", "b_2"]
    assert task.label_of((2, 2, 3, 4)) == (6, 7)  # concepts [[2, 2], [3, 4]] -> label [6, 7]


def test_mnmath_combinations_in_distribution_are_digit_groups(tmp_path):
    data = yaml.safe_load((CONFIGS / "mnmath-appendix-c7.yaml").read_text())
    data["combinations_in_distribution"] = "0234023402340234"
    path = tmp_path / "mnmath.yaml"
    path.write_text(yaml.safe_dump(data))
    task = load_task(path)
    assert task.support.rows == ((0, 2, 3, 4),)
    exact = count(task, "exact").count
    assert exact == count(task, "enumerate").count > 1


def test_kandlogic_example_labels_each_figure_and_aggregates():
    task = load_task(CONFIGS / "kandlogic-appendix-c9.yaml")
    assert task.objects is not None and task.objects.count == 6 and len(task.concepts) == 12
    two_equal = ("square", "red", "square", "red", "circle", "blue")
    all_equal = ("square", "red", "square", "red", "square", "red")
    assert task.label_of(two_equal + two_equal) == (1,)
    assert task.label_of(two_equal + all_equal) == (0,)
    assert task.support.size == 2


def test_kandlogic_config_counts_like_a_brute_force_over_object_maps(tmp_path):
    data = yaml.safe_load((CONFIGS / "kandlogic-appendix-c9.yaml").read_text())
    data.update(
        n_figures=1,
        colors=["red", "blue"],
        shapes=["circle", "square"],
        aggregator_symbols=["pattern_1"],
        aggregator_logic="pattern_1",
        combinations_in_distribution=["red, square", "red, square", "blue, circle"],
    )
    path = tmp_path / "kand1.yaml"
    path.write_text(yaml.safe_dump(data))
    task = load_task(path)
    attributes = [list(values) for _, values in task.objects.attributes]
    expected = brute_force_objects(3, attributes, task.label_of, list(task.support.rows), set())
    assert count(task, "exact", "objects").count == expected
    assert count(task, "sdd", "objects").count == expected


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"symbols": ["a", "b"]}, "symbols: expected a list of 3 names"),
        ({"combinations_in_distribution": "0101"}, "groups of 3"),
        ({"colour": "red"}, "unknown field 'colour'"),
    ],
)
def test_malformed_configs_name_the_field(tmp_path, change, message):
    data = {**yaml.safe_load((CONFIGS / "mnlogic-appendix-c8.yaml").read_text()), **change}
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(RscountError, match=message):
        load_task(path)
