"""`rscount check`: it flags invalid tasks (non-deterministic knowledge, label columns that
contradict the knowledge) with the offending vectors or rows, warns about concepts and labels that
carry no information, and names exactly the concepts some optimal map does not keep (checked
against a brute force over all maps)."""

from __future__ import annotations

from itertools import product
from unittest import mock

from hypothesis import given, settings
from references.bruteforce import brute_force_maps
from strategies.randomtasks import specs
from support import REPO

from rscount import check
from rscount.insight.simplest import Counted
from rscount.insight.unidentified import unidentified_concepts
from rscount.knowledge.labels import ignored_concepts
from rscount.task import vectorized


def write(tmp_path, text: str, name: str = "t.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_check_refuses_non_deterministic_knowledge_and_shows_the_vector(cli, tmp_path):
    path = write(
        tmp_path,
        "concepts: {ped: [0, 1], red: [0, 1]}\nlabels: {stop: [0, 1]}\n"
        "knowledge: ['Implies(ped | red, stop)']\nsupport: [[1, 0], [0, 1]]\n",
    )
    run = cli("check", path)
    assert run.code == 2
    assert "not deterministic: concept vector {ped: 0, red: 0} can have (stop = 0) or (stop = 1)" in run.out
    assert "on the 2 training rows it is deterministic" in run.out
    assert "verdict: invalid task" in run.out


def test_check_shows_the_rows_whose_label_column_contradicts_the_knowledge(cli, tmp_path):
    (tmp_path / "train.csv").write_text("a,b,y\n0,0,0\n1,1,0\n0,1,1\n1,0,1\n1,1,1\n")
    path = write(
        tmp_path, "concepts: {a: [0, 1], b: [0, 1]}\nlabels: {y: a & b}\nsupport: {file: train.csv}\n"
    )
    run = cli("check", path)
    assert run.code == 2
    assert "3 label cells contradict the knowledge" in run.out
    assert "line 3: y = 0 but the knowledge gives 1; line 4: y = 1 but the knowledge gives 0" in run.out
    assert "line 5: y = 1 but the knowledge gives 0" in run.out


def test_check_reports_where_a_file_support_came_from(cli, tmp_path):
    (tmp_path / "train.csv").write_text("a,b,y,path\n0,0,0,p\n1,1,1,q\n1,1,1,r\n")
    path = write(
        tmp_path, "concepts: {a: [0, 1], b: [0, 1]}\nlabels: {y: a & b}\nsupport: {file: train.csv}\n"
    )
    run = cli("check", path)
    assert "3 examples, 2 distinct concept vectors" in run.out
    assert "label columns checked against the knowledge: y; ignored columns: path" in run.out


def test_check_warns_about_concepts_no_label_depends_on_even_when_they_occur(tmp_path):
    path = write(
        tmp_path,
        "concepts: {a: [0, 1], b: [0, 1], c: [0, 1]}\nlabels: {y: (a & c) | (a & ~c) | b}\n",
    )
    found = check(path)
    warnings = [f.message for f in found.findings if f.level == "warning"]
    assert any(w.startswith("concept c affects no label") for w in warnings)
    assert not any(w.startswith(("concept a ", "concept b ")) for w in warnings)


def test_check_warns_about_concepts_and_labels_constant_on_the_support(tmp_path):
    path = write(
        tmp_path,
        "concepts: {a: [0, 1], b: [0, 1, 2]}\nlabels:\n  y: a | Eq(b, 2)\n  z: Eq(b, 1)\n"
        "support: [[1, 0], [1, 2]]\n",
    )
    warnings = [f.message for f in check(path).findings if f.level == "warning"]
    assert "concept a is 1 on every training row: its other values are never seen" in warnings
    assert "label y is 1 on every training row" in warnings
    assert "label z is 0 on every training row" in warnings


def test_a_task_free_of_shortcuts_passes_the_check(cli, tmp_path):
    path = write(
        tmp_path,
        "concepts: {a: [0, 1], b: [0, 1]}\nlabels: {y: a & b}\n"
        "concept_supervision: [[0, 0], [1, 1], [0, 1]]\n",
    )
    run = cli("check", path)
    assert run.code == 0, run.out
    assert "verdict: free of shortcuts" in run.out


def test_check_of_xor3_without_expectations_names_every_concept_and_fails(cli, tmp_path):
    text = (REPO / "tasks" / "xor3.yaml").read_text().split("expect:")[0]
    run = cli("check", write(tmp_path, text))
    assert run.code == 1
    assert "verdict: 23 shortcuts; concepts involved: c1, c2, c3" in run.out
    assert "c1: may read c2, c3; its values may be remapped" in run.out


def test_check_passes_a_task_whose_expectation_holds_despite_shortcuts(cli, tmp_path):
    text = (REPO / "tasks" / "xor3.yaml").read_text().split("expect:")[0] + "expect:\n  max_count: 30\n"
    run = cli("check", write(tmp_path, text))
    assert run.code == 0 and "expect max_count: 30 holds" in run.out


def test_check_of_an_unreadable_file_is_an_invalid_task(cli, tmp_path):
    run = cli("check", tmp_path / "missing.yaml")
    assert run.code == 2 and "cannot read" in run.out


@settings(max_examples=40, deadline=None)
@given(specs(max_rows=6))
def test_unidentified_concepts_are_those_some_brute_force_map_does_not_keep(spec):
    task = spec.task()
    expected = set()
    for pi, f in brute_force_maps(spec.domains, spec.label, list(spec.support), set(spec.supervised)):
        for j, domain in enumerate(spec.domains):
            if pi[j] != j or tuple(f[j]) != tuple(domain):
                expected.add(spec.names[j])
    assert set(unidentified_concepts(task, "disentangled")) == expected


@settings(max_examples=40, deadline=None)
@given(specs(max_rows=6))
def test_the_concepts_and_values_read_off_every_shortcut_are_those_sat_decides(spec):
    task = spec.task()
    shortcuts = (
        sum(1 for _ in brute_force_maps(spec.domains, spec.label, list(spec.support), set(spec.supervised)))
        - 1
    )
    listed = unidentified_concepts(task, "disentangled", counted=Counted(shortcuts))
    assert listed == unidentified_concepts(task, "disentangled")  # SAT on the CNF
    assert all(u.moved is not None for u in listed.values())


def test_a_program_on_ten_thousand_rows_is_checked_without_a_cnf(cli):
    run = cli("check", REPO / "tasks" / "mnadd-n2.yaml", "--memory", "2")
    assert run.code == 0
    assert "digit_a1: may read digit_b1" in run.out and "digit_b2: may read digit_a2" in run.out


@settings(max_examples=40, deadline=None)
@given(specs())
def test_ignored_concepts_are_those_whose_change_never_changes_a_label(spec):
    rows = list(product(*spec.domains))
    expected = [
        name
        for j, name in enumerate(spec.names)
        if all(spec.label(r) == spec.label(r[:j] + (v,) + r[j + 1 :]) for r in rows for v in spec.domains[j])
    ]
    task = spec.task()
    assert ignored_concepts(task) == expected  # D tabulated
    with mock.patch.object(vectorized, "SPACE_MAX", 0):  # D "too large": SAT on two copies
        assert ignored_concepts(task) == expected
