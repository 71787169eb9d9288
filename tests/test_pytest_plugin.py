"""The pytest plugin: `pytest DIR` collects the task files with expectations as test items (pass,
fail with the expectation and the count, error for an invalid file); `-p no:rscount` turns it off."""

from __future__ import annotations

XOR3 = """\
# a comment the plugin does not mind
concepts: {c1: [0, 1], c2: [0, 1], c3: [0, 1]}
labels: {y: c1 ^ c2 ^ c3}
expect: {count: %d}
"""


def write_tasks(pytester) -> None:
    pytester.makefile(".yaml", good=XOR3 % 24, wrong=XOR3 % 25)
    pytester.makefile(".yaml", invalid="concepts: {a: [0, 1]}\nlabels: {y: b}\nexpect: {count: 1}\n")
    pytester.makefile(".yml", unpinned="concepts: {a: [0, 1]}\nlabels: {y: a}\n")  # no expect: not collected
    pytester.makefile(".yaml", other="name: a workflow\nexpect: {count: 1}\n")  # not a task: not collected


def test_task_files_are_test_items_that_pass_fail_and_error(pytester):
    write_tasks(pytester)
    result = pytester.runpytest_subprocess("-v")
    result.assert_outcomes(passed=1, failed=1, errors=1)
    result.stdout.fnmatch_lines(
        [
            "*good.yaml::good PASSED*",
            "*invalid.yaml::invalid ERROR*",
            "*wrong.yaml::wrong FAILED*",
            "*invalid task file: *invalid.yaml: labels.y: unknown concept: 'b'*",
            "*wrong.yaml: FAIL: the count moved from 25 (pinned) to 24 (-1); concepts that may now be*",
        ]
    )
    assert "Traceback" not in result.stdout.str()


def test_the_plugin_can_be_turned_off(pytester):
    write_tasks(pytester)
    result = pytester.runpytest_subprocess("-p", "no:rscount")
    result.assert_outcomes()
    assert "no tests ran" in result.stdout.str()


def test_the_time_limit_applies_per_task_file(pytester):
    digits = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]"
    slow = (  # MNMath's 8 digits on 40 rows drawn uniformly: no exact answer within minutes
        "concepts: {" + ", ".join(f"d{i}: {digits}" for i in range(1, 9)) + "}\n"
        "labels:\n  y1: d1 + d2 == d3 + d4\n  y2: d5 * d6 == d7 * d8\n"
        "support: {examples: 40, seed: 1}\nexpect: {count: 8}\n"
    )
    pytester.makefile(".yaml", slow=slow)
    result = pytester.runpytest_subprocess("--rscount-timeout", "0.3")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*slow.yaml: error: slow: stopped after the time limit of 0.3 s*"])


def test_an_rsbench_config_with_a_pin_is_a_test_item(pytester):
    config = "n_digits: 3\nxor_rule: false\nsymbols: [a, b, c]\nlogic: Or(And(a, b), Not(c))\n"
    config += "expect: {count: %d}\n"
    pytester.makefile(".yaml", config_good=config % 2, config_wrong=config % 3)
    result = pytester.runpytest_subprocess("-v")
    result.assert_outcomes(passed=1, failed=1)
