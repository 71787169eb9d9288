"""Label classes, the choices an inference layer has in the jrs mode: the values a label takes on D,
with both truth values for a label whose values are truth values, constant or not."""

from __future__ import annotations

import pytest

from rscount.knowledge.labels import label_classes
from rscount.knowledge.loading import task_from_dict


@pytest.mark.parametrize(
    "label, classes",
    [
        ("(a == a)", (0, 1)),  # constant true: still a Boolean label
        ("a - a", (0, 1)),  # constant 0
        ("a * b", (0, 1)),
        ("a + b", (0, 1, 2)),
        ("a + b + 5", (5, 6, 7)),
        ("ITE(a == 1, 'x', 'x')", ("x",)),  # a constant word has one class
    ],
)
def test_a_label_has_the_classes_of_its_values_and_a_boolean_one_has_two(label, classes):
    task = task_from_dict(
        {"concepts": {"a": [0, 1], "b": [0, 1]}, "labels": {"y": label}, "support": [[0, 0]]}
    )
    assert tuple(label_classes(task)["y"]) == classes
