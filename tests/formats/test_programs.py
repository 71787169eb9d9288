"""Knowledge as ProbLog / DeepProbLog programs (`program:`, `query:`): the program route gives the
labels that problog itself computes per concept vector, and counts what the same task written as
expressions counts; hostile programs are refused in one line before anything runs."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from itertools import product
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from problog import get_evaluatable
from problog.program import PrologString
from references.bruteforce import brute_force_count, brute_force_objects
from strategies.randomtasks import SETTINGS
from support import REPO

from rscount import count
from rscount.errors import RscountError
from rscount.formats.programs import neurasp
from rscount.formats.programs.connectives import conjunction, disjunction
from rscount.knowledge.loading import load_task, task_from_dict
from rscount.task.expressions import call, const, evaluate, var

ADDITION = """
nn(mnist_net, [X], Y, [0, 1, 2, 3]) :: digit(X, Y).
addition(X, Y, Z) :- digit(X, X2), digit(Y, Y2), Z is X2 + Y2.
"""
TRAFFIC = """
0.5 :: red_light.
0.5 :: green_light.
0.3 :: pedestrian.
stop :- red_light, \\+ green_light.
stop :- pedestrian.
query(stop).
"""


def program_task(tmp_path: Path, program: str, task: str) -> Path:
    (tmp_path / "knowledge.pl").write_text(program)
    (tmp_path / "task.yaml").write_text("program: knowledge.pl\n" + task)
    return tmp_path / "task.yaml"


def exact(task) -> int:
    return count(task, "exact").count


def assert_twins(task, written: dict) -> None:
    """The program task labels every vector as the task written as `written` does, and counts the same."""
    twin = task_from_dict(written)
    for row in product(*twin.domains):
        assert task.label_of(row) == twin.label_of(row)
    assert exact(task) == exact(twin)


@pytest.mark.parametrize("support", ["exhaustive", "[[0, 1], [1, 2], [2, 2], [3, 0], [1, 1]]"])
def test_deepproblog_addition_counts_as_the_sum_written_as_an_expression(tmp_path, support):
    path = program_task(tmp_path, ADDITION, f"query: addition(a, b, Z)\nsupport: {support}\n")
    task = load_task(path)
    assert [(c.name, c.values) for c in task.concepts] == [
        ("digit_a", (0, 1, 2, 3)),
        ("digit_b", (0, 1, 2, 3)),
    ]
    assert list(task.labels) == ["Z"]
    concepts = {"concepts": {"digit_a": list(range(4)), "digit_b": list(range(4))}}
    assert_twins(task, {**concepts, "labels": {"Z": "digit_a + digit_b"}, "support": yaml.safe_load(support)})


def test_problog_facts_are_boolean_concepts_and_queries_boolean_labels(tmp_path):
    task = load_task(program_task(tmp_path, TRAFFIC, "support: exhaustive\n"))
    assert task.names == ["red_light", "green_light", "pedestrian"]
    stop = "(red_light & ~green_light) | pedestrian"
    assert_twins(
        task, {"concepts": {n: [0, 1] for n in task.names}, "labels": {"stop": stop}, "support": "exhaustive"}
    )


def test_list_predicates_of_library_lists_are_loaded_when_the_program_asks_for_them(tmp_path):
    program = """
    :- use_module(library(lists)).
    nn(net, [X], Y, [0, 1, 2]) :: digit(X, Y).
    total(Xs, S) :- findall_digits(Xs, Ds), sum_list(Ds, S).
    findall_digits([], []).
    findall_digits([X|Xs], [D|Ds]) :- digit(X, D), findall_digits(Xs, Ds).
    has_two(Xs) :- member(X, Xs), digit(X, 2).
    """
    queries = 'query: ["total([a, b], S)", "has_two([a, b])"]\nsupport: exhaustive\n'
    task = load_task(program_task(tmp_path, program, queries))
    concepts = {"concepts": {"digit_a": [0, 1, 2], "digit_b": [0, 1, 2]}}
    labels = {"S": "digit_a + digit_b", "has_two_a_b": "(digit_a == 2) | (digit_b == 2)"}
    assert list(task.labels) == list(labels)
    assert_twins(task, {**concepts, "labels": labels, "support": "exhaustive"})


def test_an_annotated_disjunction_is_one_categorical_concept_with_none_when_it_can_fail(tmp_path):
    program = """
    0.5::colour(red); 0.5::colour(blue).
    0.3::light(on); 0.3::light(off).
    warm :- colour(red), light(on).
    """
    task = load_task(program_task(tmp_path, program, "query: warm\nsupport: exhaustive\n"))
    assert [(c.name, c.values) for c in task.concepts] == [
        ("colour", ("red", "blue")),
        ("light", ("on", "off", "none")),
    ]
    assert [row for row in product(*task.domains) if task.label_of(row) == (1,)] == [("red", "on")]


@st.composite
def propositional_programs(draw):
    """A stratified program over probabilistic facts f0..: rules for h0.. with bodies of literals
    over facts and earlier heads (negation only on those), and queries on some heads."""
    facts = [f"f{i}" for i in range(draw(st.integers(1, 4)))]
    lines = [f"0.5::{f}." for f in facts]
    heads: list[str] = []
    for h in range(draw(st.integers(1, 4))):
        head = f"h{h}"
        for _ in range(draw(st.integers(1, 2))):
            atoms = draw(st.lists(st.sampled_from(facts + heads), min_size=1, max_size=3))
            body = ", ".join(("\\+ " if draw(st.booleans()) else "") + a for a in atoms)
            lines.append(f"{head} :- {body}.")
        heads.append(head)
    queries = draw(st.lists(st.sampled_from(heads), min_size=1, max_size=2, unique=True))
    return facts, "\n".join(lines), queries


def problog_labels(facts, program, queries, row) -> tuple[int, ...]:
    """The queries' truth on one fact vector, by problog on the program with the facts made certain."""
    certain = [f"{'1.0' if v else '0.0'}::{f}." for f, v in zip(facts, row)]
    rules = [line for line in program.splitlines() if not line.startswith("0.5::")]
    text = "\n".join([*certain, *rules, *(f"query({q})." for q in queries)])
    result = {str(k): v for k, v in get_evaluatable().create_from(PrologString(text)).evaluate().items()}
    return tuple(int(round(result[q])) for q in queries)


@settings(max_examples=25, **SETTINGS)
@given(propositional_programs())
def test_random_propositional_programs_label_every_vector_as_problog_does(tmp_path_factory, drawn):
    facts, program, queries = drawn
    tmp = tmp_path_factory.mktemp("program")
    path = program_task(tmp, program, f"query: [{', '.join(queries)}]\nsupport: exhaustive\n")
    try:
        task = load_task(path)
    except RscountError as exc:  # a query no fact reaches has no concept to count over
        assert "reach no probabilistic fact" in str(exc)
        return
    reached = [n for n in task.names]
    table = {}
    for row in product((0, 1), repeat=len(facts)):
        values = dict(zip(facts, row))
        got = task.label_of(tuple(values[n] for n in reached))
        assert got == problog_labels(facts, program, queries, row)
        table[tuple(values[n] for n in reached)] = got
    minterms = {
        q: " | ".join(
            "(" + " & ".join(n if v else f"~{n}" for n, v in zip(reached, row)) + ")"
            for row, labels in table.items() if labels[k]
        ) or "False"
        for k, q in enumerate(queries)
    }  # fmt: skip
    twin = task_from_dict(
        {"concepts": {n: [0, 1] for n in reached}, "labels": minterms, "support": "exhaustive"}
    )
    assert exact(task) == exact(twin)


@pytest.mark.parametrize(
    ("program", "message"),
    [
        (
            ":- initialization(main).\n0.5::a.\nq :- a.\n",
            r"knowledge.pl:1: directive 'initialization\(main\)' is not allowed",
        ),
        ("0.5::a.\nq :- a, call(a).\n", r"knowledge.pl:2: 'call/1' is neither defined"),
        ("0.5::a.\nq :- a, X.\n", r"knowledge.pl:2: a variable as a goal"),
        ("0.5::a.\nq :- a, open('f', read, S).\n", r"'open/3' is neither defined"),
        ("0.5::a.\nq :- a, consult('other.pl').\n", r"'consult/1' is neither defined"),
        ("0.5::a.\nq :- a, (b ; \\+ shell(ls)).\nb.\n", r"'shell/1' is neither defined"),
        ("q :- a(.\n", r"knowledge.pl"),
        ("nn(net, [X], Y) :: digit(X, Y).\nq :- digit(a, 1).\n", r"knowledge.pl:1: nn/3 declares a tensor"),
        ("s --> [a], !.\nq :- s([a], []).\n", r"knowledge.pl:1: grammar rule: a cut"),
    ],
)
def test_hostile_or_broken_programs_are_refused_in_one_line(tmp_path, cli, program, message):
    path = program_task(tmp_path, program, "query: q\nsupport: exhaustive\n")
    run = cli("count", path)
    assert run.code == 2
    assert len(run.err.strip().splitlines()) == 1
    assert str(path) in run.err
    assert re.search(message, run.err), run.err


def test_a_query_with_several_answers_is_a_set_valued_label_counted_as_the_brute_force(tmp_path):
    # digit_a = 0 also answers Z = 0: the label is the set of answers {0, digit_b} there
    program = ADDITION + "addition(X, Y, 0) :- digit(X, 0).\n"
    task = load_task(program_task(tmp_path, program, "query: addition(a, b, Z)\nsupport: exhaustive\n"))
    answers = lambda c: frozenset({c[0] + c[1]} | ({0} if c[0] == 0 else set()))  # noqa: E731
    rows = list(product(range(4), repeat=2))
    partition = {}
    for row, labels in zip(rows, task.labels_of(rows)):
        partition.setdefault(labels, set()).add(answers(row))
    assert all(len(found) == 1 for found in partition.values()) and len(partition) == len(
        set(map(answers, rows))
    )
    assert exact(task) == brute_force_count([range(4)] * 2, answers, rows, set())


def test_a_vector_without_an_answer_is_left_out_of_an_exhaustive_support_and_refused_as_a_row(tmp_path):
    program = (
        "nn(net, [X], Y, [0, 1, 2]) :: digit(X, Y).\n"
        "ratio(X, Y, Z) :- digit(X, A), digit(Y, B), B > 0, Z is A // B.\n"
    )
    task = load_task(program_task(tmp_path, program, "query: ratio(a, b, Z)\nsupport: exhaustive\n"))
    rows = [(a, b) for a in range(3) for b in range(1, 3)]
    assert sorted(task.support.rows) == rows
    assert "support: the 6 of 9 concept vectors where every query has an answer" in " ".join(task.notes)
    label = lambda c: c[0] // c[1] if c[1] else None  # noqa: E731
    assert exact(task) == brute_force_count([range(3)] * 2, label, rows, set())
    with pytest.raises(RscountError, match="no answer"):
        load_task(program_task(tmp_path, program, "query: ratio(a, b, Z)\nsupport: [[1, 0]]\n"))


def test_evidence_restricts_the_vectors_and_maps_must_keep_it(tmp_path):
    program = "0.5::a.\n0.5::b.\nq :- a.\nevidence(b, true).\n"
    task = load_task(program_task(tmp_path, program, "query: q\nsupport: exhaustive\n"))
    assert sorted(task.support.rows) == [(0, 1), (1, 1)]
    assert "support: the 2 of 4 concept vectors where the evidence holds" in " ".join(task.notes)
    label = lambda c: c[0] if c[1] else None  # noqa: E731
    assert exact(task) == brute_force_count([[0, 1]] * 2, label, [(0, 1), (1, 1)], set())


def test_programs_are_read_as_deepproblog_reads_them(tmp_path):
    # an unreached clause calling a variable, member/2 without loading the lists library, nn/2
    program = (
        "nn(net, [X]) :: heads(X).\n"
        "all_true([H | T]) :- H, all_true(T).\n"
        "q(X) :- heads(X), member(X, [a, b]).\n"
    )
    task = load_task(program_task(tmp_path, program, "query: q(a)\nsupport: exhaustive\n"))
    assert [(c.name, tuple(c.values)) for c in task.concepts] == [("heads_a", (0, 1))]
    assert any("left out" in note and "all_true/1" in note for note in task.notes)


@pytest.mark.parametrize(
    ("disjunction", "values"),
    [
        ("1/6::one; 1/6::two; 1/6::three; 1/6::four; 1/6::five; 1/6::six.", 6),
        ("0.15::one; 0.15::two; 0.15::three; 0.15::four; 0.15::five; 0.25::six.", 6),
        ("0.3::one; 0.3::two.", 3),
    ],
)
def test_a_disjunctions_probabilities_are_read_exactly(tmp_path, disjunction, values):
    task = load_task(program_task(tmp_path, disjunction + "\nq :- one.\n", "query: q\nsupport: exhaustive\n"))
    assert [len(c.values) for c in task.concepts] == [values]


def test_query_is_only_used_with_a_program(tmp_path):
    (tmp_path / "t.yaml").write_text("concepts: {a: [0, 1]}\nlabels: {y: a}\nquery: q\n")
    with pytest.raises(RscountError, match="only used with program"):
        load_task(tmp_path / "t.yaml")


TASKS = REPO / "tasks"
TWINS = {"sdd-oia-problog": "sdd-oia", "mnadd-deepproblog": "mnadd", "mnadd-half-deepproblog": "mnadd-half"}


@pytest.mark.parametrize("name", sorted(TWINS))
def test_bundled_program_twins_count_as_their_hand_written_expressions(name):
    program, written = load_task(TASKS / f"{name}.yaml"), load_task(TASKS / f"{TWINS[name]}.yaml")
    assert len(program.concepts) == len(written.concepts)
    assert [c.values for c in program.concepts] == [written.concepts[written.names.index(n)].values
                                                    for n in _same_order(program, written)]  # fmt: skip
    order = [written.names.index(n) for n in _same_order(program, written)]
    for row in written.support.rows:
        assert program.label_of(tuple(row[i] for i in order)) == written.label_of(row)
    assert exact(program) == exact(written) == written.expect["count"] == program.expect["count"]


def _same_order(program, written) -> list[str]:
    """The written task's concept names in the program's concept order (digit_a is d1, ...)."""
    if set(program.names) == set(written.names):
        return program.names
    return written.names  # the MNAdd twins: digit(a), digit(b) are d1, d2 in order


def test_queries_that_are_probabilistic_atoms_themselves_keep_their_concepts(tmp_path):
    """Grounding names a query's node after the query; the concept is still the fact or choice."""
    program = """
    0.5::colour(red); 0.5::colour(blue).
    warm :- colour(red).
    nn(net, [X], Y, [0, 1]) :: d(X, Y).
    z :- d(a, 1).
    0.5::e(X, Y).
    f :- e(p, q).
    0.5::g.
    h :- g.
    """
    task = load_task(program_task(tmp_path, program, "query: [warm, z, f, h]\nsupport: exhaustive\n"))
    assert task.names == ["colour", "d_a", "e_p_q", "g"]
    for row in product(*task.domains):
        colour, d, e, g = row
        assert task.label_of(row) == (int(colour == "red"), d, e, g)


def test_objects_mode_reads_each_neural_predicate_as_an_attribute_of_every_input(tmp_path):
    rows = "[[0, 1], [1, 2], [2, 2], [3, 0]]"
    path = program_task(tmp_path, ADDITION, f"query: addition(a, b, Z)\nmode: objects\nsupport: {rows}\n")
    task = load_task(path)
    assert task.objects is not None and task.names == ["digit_1", "digit_2"]
    objects = {"objects": {"count": 2, "attributes": {"digit": list(range(4))}}}
    assert_twins(task, {**objects, "labels": {"Z": "digit_1 + digit_2"}, "support": yaml.safe_load(rows)})


def test_objects_mode_refuses_a_concept_that_is_no_predicate_of_an_input(tmp_path):
    path = program_task(tmp_path, TRAFFIC, "mode: objects\nsupport: exhaustive\n")
    with pytest.raises(RscountError, match="objects mode: concept red_light is not one predicate"):
        load_task(path)


DOMAINS = {"a": (0, 1, 2), "b": ("red", "blue")}


@st.composite
def ground_formulas(draw, depth: int = 3):
    """Random and/or trees over `concept == value` literals and constants, as grounding leaves them."""
    if depth == 0 or draw(st.booleans()):
        if draw(st.integers(0, 5)) == 0:
            return const(draw(st.sampled_from([0, 1])))
        name = draw(st.sampled_from(sorted(DOMAINS)))
        return call("Eq", var(name), const(draw(st.sampled_from(DOMAINS[name]))))
    return (draw(st.sampled_from(["And", "Or"])), draw(st.lists(ground_formulas(depth - 1), max_size=4)))


def built(tree, simplify: bool):
    """The expression of a drawn tree, with the reader's simplifying connectives or plain And/Or."""
    if not isinstance(tree, tuple):
        return tree
    op, children = tree
    parts = [built(c, simplify) for c in children]
    if simplify:
        return conjunction(parts) if op == "And" else disjunction(parts, DOMAINS)
    return call(op, *parts) if parts else const(int(op == "And"))


@settings(max_examples=200, **SETTINGS)
@given(ground_formulas())
def test_simplified_connectives_keep_the_truth_of_every_concept_vector(tree):
    plain, simple = built(tree, False), built(tree, True)
    for a, b in product(*DOMAINS.values()):
        assert bool(evaluate(simple, {"a": a, "b": b})) == bool(evaluate(plain, {"a": a, "b": b}))


def eq(name: str, value) -> object:
    return call("Eq", var(name), const(value))


def test_a_conjunction_needing_two_values_of_a_concept_deep_inside_is_false():
    inner = conjunction([eq("b", "red"), conjunction([eq("a", 1), eq("b", "blue")])])
    assert conjunction([eq("a", 1), inner]) == const(0)


def test_a_disjunction_over_every_value_of_a_concept_keeps_only_the_rest():
    listed = [conjunction([eq("a", a), eq("b", b)]) for a in (0, 1) for b in DOMAINS["b"]]
    assert disjunction(listed, DOMAINS) == disjunction([eq("a", 0), eq("a", 1)], DOMAINS)
    assert disjunction([*listed, eq("a", 2)], DOMAINS) == const(1)
    # a conjunction one literal longer than another listed is implied by it
    assert disjunction([eq("a", 0), conjunction([eq("a", 0), eq("b", "red")])], DOMAINS) == eq("a", 0)


def test_check_names_every_concept_of_a_program_renamed_or_not(cli, tmp_path):
    path = program_task(tmp_path, TRAFFIC, "support: exhaustive\n")
    out = cli("check", path).out
    assert "concepts named as in the program: red_light, green_light, pedestrian" in out


def test_problogs_warnings_become_a_note_and_stay_off_the_terminal(tmp_path):
    differ = (
        "nn(net, [X], Y, [0, 1, 2]) :: digit(X, Y).\ndiffer(X, Y) :- digit(X, A), digit(Y, B), A \\== B.\n"
    )
    path = program_task(tmp_path, differ, "query: differ(a, b)\nsupport: exhaustive\n")
    for command in ("count", "check"):
        run = subprocess.run(
            [sys.executable, "-m", "rscount", command, str(path), "--quiet"], capture_output=True, text=True
        )
        assert run.returncode in (0, 1) and run.stderr == "", run.stderr
    assert "problog warns: The use of '\\==' might give unexpected results" in run.stdout


CHAIN = """
0.4::at(0, a); 0.6::at(0, b).
other(a, b). other(b, a).
0.7::at(T, S); 0.3::at(T, O) :- T > 0, P is T - 1, other(S, O), at(P, S).
"""


@pytest.mark.parametrize("seed", [None, 1, 2, 3])
def test_a_disjunction_whose_body_binds_a_variable_no_head_shows_is_a_concept_per_body_answer(tmp_path, seed):
    # as ProbLog's system test 12 (holidays) writes a Markov chain: each step from each state is a choice
    vectors = list(product("ab", repeat=5))
    rows = vectors if seed is None else random.Random(seed).sample(vectors, 6)
    support = (
        "exhaustive" if seed is None else yaml.safe_dump([list(r) for r in rows], default_flow_style=True)
    )
    task = load_task(program_task(tmp_path, CHAIN, f"query: at(2, S)\nsupport: {support}"))
    assert [(c.name, c.values) for c in task.concepts] == [
        ("at_0", ("a", "b")),
        ("at_1", ("a", "b")),
        ("at_1_2", ("b", "a")),
        ("at_2", ("a", "b")),
        ("at_2_2", ("b", "a")),
    ]
    assert "concept at_1_2 is at(1) for T=1, S=b, O=a" in task.notes
    step = {(int(c.name[3]), c.values[0]): n for n, c in enumerate(task.concepts) if c.name != "at_0"}

    def state_at_2(c: tuple) -> str:
        return c[step[2, c[step[1, c[0]]]]]

    assert [task.label_of(r) for r in rows] == [(state_at_2(r),) for r in rows]
    assert exact(task) == brute_force_count(task.domains, state_at_2, rows, set())


def test_a_scallop_program_is_refused_by_name_at_its_first_rule_saying_what_to_write(tmp_path, cli):
    (tmp_path / "sum.scl").write_text("// digits\ntype digit(i32)\nrel sum(a + b) = digit(a), digit(b)\n")
    (tmp_path / "task.yaml").write_text("program: sum.scl\nquery: sum\nsupport: exhaustive\n")
    run = cli("count", tmp_path / "task.yaml")
    assert run.code == 2 and len(run.err.strip().splitlines()) == 1
    assert re.search(r"sum\.scl:2: Scallop programs are not read: write its rules as labels:", run.err)


MEMBER = (  # NeurASP's member (examples/member3): which digits the images show, every digit checked
    "img(i1). img(i2). img(i3).\nnn(digit(1,X), [0,1,2]) :- img(X).\ncheck(0..2). check(9).\n"
    "absent(D) :- check(D), digit(0,i1,N1), digit(0,i2,N2), digit(0,i3,N3), D != N1, D != N2, D != N3.\n"
    "member(D,0) :- absent(D).\nmember(D,1) :- check(D), not absent(D).\n"
)


def member_task(tmp_path: Path, program: str, task: str = "") -> Path:
    (tmp_path / "member.lp").write_text(program)
    (tmp_path / "task.yaml").write_text("program: member.lp\nquery: member(D, M)\n" + task)
    return tmp_path / "task.yaml"


def shown(c: tuple) -> frozenset:
    """The reference label: the set of digits the images show."""
    return frozenset(c)


@pytest.mark.parametrize(
    "shows",
    [
        "",  # the model shows only what rscount asks for
        "#show img/1.\n#show absent/1.\n",  # the program's own atoms beside them
        "#show member(9, 1) : digit(0, i1, 0).\n#show.\n",  # a term that is no true atom; `#show.`
    ],
)
@pytest.mark.parametrize("split", [1, 10, 1000])  # slots fixed per grounding: 2, 1, none
def test_a_neurasp_programs_labels_are_the_same_however_it_is_ground_and_shown(
    tmp_path, monkeypatch, shows, split
):
    monkeypatch.setattr(neurasp, "SUFFIX_VECTORS", split)
    task = load_task(member_task(tmp_path, MEMBER + shows, "support: exhaustive\n"))
    rows = list(product(range(3), repeat=3))
    partition: dict[object, set[object]] = {}
    for row, labels in zip(rows, task.labels_of(rows)):
        partition.setdefault(labels, set()).add(shown(row))
    assert all(len(found) == 1 for found in partition.values())
    assert len(partition) == len(set(map(shown, rows)))
    assert exact(task) == brute_force_count([range(3)] * 3, shown, rows, set())


def test_a_neurasp_rule_whose_body_reads_a_neural_atom_is_ground_whole(tmp_path, monkeypatch):
    # the third image is read only where the first shows 0: that slot's body is no fact, and fixing
    # it as one would give vectors such as (1, 2, 0) a stable model they do not have
    program = MEMBER.replace("img(i3).", "img(i3) :- digit(0, i1, 0).")
    rows = list(product(range(3), repeat=3))
    labels = []
    for split in (1, 1000):  # each in a folder of its own: a program read again is not read afresh
        monkeypatch.setattr(neurasp, "SUFFIX_VECTORS", split)
        (tmp_path / str(split)).mkdir()
        task = load_task(member_task(tmp_path / str(split), program, "support: [[0, 1, 2], [0, 0, 0]]\n"))
        labels.append(task.labels_of(rows))
    assert labels[0] == labels[1]
    assert labels[0][rows.index((1, 2, 0))] == labels[0][rows.index((1, 2, 2))]  # neither has a model


@pytest.mark.parametrize("rows", [[(0, 1, 2), (1, 1, 0), (2, 2, 2)], [(0, 0, 1), (2, 1, 1)]])
def test_a_neurasp_query_with_several_answers_counts_in_the_objects_mode_as_the_brute_force(tmp_path, rows):
    support = "support: " + str([list(r) for r in rows]) + "\nmode: objects\n"
    task = load_task(member_task(tmp_path, MEMBER, support))
    assert task.objects is not None and task.names == ["digit_1", "digit_2", "digit_3"]
    assert count(task, "search").count == brute_force_objects(3, [range(3)], shown, rows, set())
