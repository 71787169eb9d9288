"""rsbench generator configs (seed 004, appendix C) read as tasks, with the appendix's own examples."""

from __future__ import annotations

import re

import pytest
import yaml
from references.bruteforce import brute_force_count, brute_force_objects
from support import REPO

from rscount import count
from rscount.errors import RscountError
from rscount.formats.rsbench import task_from_config
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


def _brute_force(task) -> int:
    rows = list(task.support.rows)
    return brute_force_count([c.values for c in task.concepts], task.label_of, rows, set())


@pytest.mark.parametrize("name", ["mnlogic-every-field", "mnmath-every-field"])
def test_configs_with_every_rsbench_field_count_like_the_brute_force(name):
    task = load_task(CONFIGS / f"{name}.yaml")
    assert any(note.startswith("not used by the count (data generation only): ") for note in task.notes)
    assert count(task, "exact").count == _brute_force(task)


def test_mnmath_combinations_hold_the_digits_of_every_equation_in_order():
    task = load_task(CONFIGS / "mnmath-every-field.yaml")
    assert task.names == ["a_1", "b_1", "a_2", "b_2"]
    assert task.support.rows == ((1, 0, 2, 1), (2, 2, 1, 0), (0, 1, 1, 2))
    assert task.label_of((1, 0, 2, 1)) == (1, 2)  # a + 2b with (1, 0); a * b with (2, 1)


@pytest.mark.parametrize("name", ["kandlogic-nested", "clevr-two-objects"])
def test_object_configs_count_like_a_brute_force_over_object_maps(name):
    task = load_task(CONFIGS / f"{name}.yaml")
    attributes = [list(values) for _, values in task.objects.attributes]
    rows = list(task.support.rows)
    expected = brute_force_objects(task.objects.count, attributes, task.label_of, rows, set())
    assert count(task, "exact", "objects").count == expected


def test_kandlogic_nested_combinations_are_figures_of_primitives():
    task = load_task(CONFIGS / "kandlogic-nested.yaml")
    assert task.support.rows[0] == ("circle", "red", "square", "red", "square", "blue", "square", "red")
    assert task.label_of(task.support.rows[0]) == (1,)  # figure 1: same colour, different shapes


def test_clevr_config_takes_objects_from_the_symbols_and_domains_from_the_generator(tmp_path):
    data = yaml.safe_load((CONFIGS / "clevr-two-objects.yaml").read_text())
    for key in ("colors", "shapes", "materials", "sizes", "combinations_in_distribution"):
        del data[key]
    path = tmp_path / "clevr.yaml"
    path.write_text(yaml.safe_dump(data))
    task = load_task(path)
    assert task.objects.count == 2
    assert [a for a, _ in task.objects.attributes] == ["color", "shape", "material", "size"]
    assert dict(task.objects.attributes)["shape"] == ("cube", "star", "toroid")
    assert task.support.exhaustive and task.support.size == (2 * 3 * 2 * 3) ** 2
    assert any("(the generator's)" in note for note in task.notes)
    assert any("no combinations_in_distribution" in note for note in task.notes)


def test_mnlogic_xor_rule_without_symbols_names_the_digits_as_the_generator():
    task = task_from_config({"n_digits": 28, "xor_rule": True}, "xor28")
    assert task.names[:3] == ["a", "b", "c"] and task.names[25:] == ["z", "aa", "ab"]


def test_check_lists_the_fields_not_used_by_the_count(cli):
    out = cli("check", str(CONFIGS / "mnlogic-every-field.yaml"))
    lines = [line for line in out.out.splitlines() if "not used by the count" in line]
    assert len(lines) == 1
    assert "mnist_path, ood_prop, prop_in_distribution, test_prop, use_mnist, val_prop" in lines[0]


def test_an_unknown_field_names_the_nearest_known_one(tmp_path):
    path = tmp_path / "typo.yaml"
    path.write_text("n_digits: 3\nxor_rule: true\nood_prpo: 0.2\n")
    with pytest.raises(RscountError, match=r"unknown field 'ood_prpo' .*did you mean 'ood_prop'\?"):
        load_task(path)


def test_a_config_carries_its_pin_which_report_judges_and_rewrites(cli, tmp_path):
    path = tmp_path / "mnlogic.yaml"
    path.write_text((CONFIGS / "mnlogic-appendix-c8.yaml").read_text() + "expect:\n  count: 3\n")
    assert load_task(path).expect == {"count": 3}
    failed = cli("report", path, "-q")
    assert failed.code == 1 and "the count moved from 3 (pinned) to 2" in failed.out
    assert cli("report", path, "--update-pins", "-q").code == 0
    assert path.read_text().endswith("expect:\n  count: 2\n")
    assert cli("check", path).code == 0


def test_check_of_a_config_without_combinations_names_options_that_exist(cli):
    out = cli("check", str(CONFIGS / "mnlogic-appendix-c8.yaml")).out
    note = next(line for line in out.splitlines() if "no combinations_in_distribution" in line)
    command = re.search(r"rscount (\w+) --", note)
    assert command, note
    help_text = cli(command[1], "--help").out
    for option in re.findall(r"--[a-z][a-z-]*", note):
        assert f"{option} " in help_text, option
