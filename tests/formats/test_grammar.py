"""Grammar rules (`-->`, as DeepStochLog writes them) read as Prolog's DCG translation makes them:
every label a grammar gives is the one a plain Python parser of the same language gives, on every
token vector, and a neural rule counts as the DeepProbLog declaration it stands for."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest
from references.bruteforce import brute_force_count

from rscount import count
from rscount.formats.programs.grammar import braces_as_calls
from rscount.knowledge.loading import load_task

SUM = """
digit_values(D) :- member(D, [0, 1, 2, 3]).
nn(classifier, [Img], D, digit_values) :: digit(D) --> [Img].
sum(S) --> digit(A), digit(B), {S is A + B}.
"""
PARENS = """
side(X) :- member(X, [open, close]).
nn(net, [T], K, side) :: paren(K) --> [T].
t(_) :: nest --> paren(open), paren(close).
t(_) :: nest --> paren(open), nest, paren(close).
t(_) :: nest --> nest, nest.
"""
CALCULATOR = """
value(V) :- member(V, [1, 2, 3]).
sign(plus). sign(times).
nn(n, [X], V, value) :: num(V) --> [X].
nn(o, [X], S, sign) :: op(S) --> [X].
0.5 :: expr(V) --> num(V).
0.25 :: expr(V) --> num(A), op(plus), expr(B), {V is A + B}.
0.25 :: expr(V) --> num(A), op(times), expr(B), {V is A * B}.
"""


def grammar_task(tmp_path: Path, program: str, query: str, support: str = "exhaustive") -> Path:
    (tmp_path / "grammar.pl").write_text(program)
    (tmp_path / "task.yaml").write_text(f"program: grammar.pl\nquery: {query}\nsupport: {support}\n")
    return tmp_path / "task.yaml"


def balanced(tokens: tuple[str, ...]) -> bool:
    depth = 0
    for t in tokens:
        depth += 1 if t == "open" else -1
        if depth < 0:
            return False
    return depth == 0 and bool(tokens)


def calculated(tokens: tuple) -> int:
    """Right-nested: num op expr."""
    if len(tokens) == 1:
        return tokens[0]
    rest = calculated(tokens[2:])
    return tokens[0] + rest if tokens[1] == "plus" else tokens[0] * rest


def test_a_neural_rule_counts_as_the_deepproblog_declaration_it_stands_for(tmp_path):
    task = load_task(grammar_task(tmp_path, SUM, "sum(S, [a, b], [])", "[[0, 1], [1, 0], [2, 2]]"))
    assert task.names == ["digit_a", "digit_b"] and task.domains == [(0, 1, 2, 3)] * 2
    (tmp_path / "twin.pl").write_text(
        "nn(classifier, [X], D, [0, 1, 2, 3]) :: digit(X, D).\n"
        "sum(X, Y, S) :- digit(X, A), digit(Y, B), S is A + B.\n"
    )
    (tmp_path / "twin.yaml").write_text(
        "program: twin.pl\nquery: sum(a, b, S)\nsupport: [[0, 1], [1, 0], [2, 2]]\n"
    )
    twin = load_task(tmp_path / "twin.yaml")
    assert count(task, "exact").count == count(twin, "exact").count
    for row in product(range(4), repeat=2):
        assert task.label_of(row) == twin.label_of(row) == (sum(row),)


@pytest.mark.parametrize("length", [2, 4])
def test_a_recursive_grammar_labels_every_token_vector_as_a_parser_does(tmp_path, length):
    tokens = ", ".join(f"t{n}" for n in range(length))
    task = load_task(grammar_task(tmp_path, PARENS, f"nest([{tokens}], [])"))
    assert any("weigh derivations" in note for note in task.notes)
    for row in product(["open", "close"], repeat=length):
        assert task.label_of(row) == (int(balanced(row)),), row


def test_terminals_and_braces_give_a_calculators_values(tmp_path):
    task = load_task(grammar_task(tmp_path, CALCULATOR, "expr(V, [x1, x2, x3], [])"))
    assert task.names == ["num_x1", "op_x2", "num_x3"]
    for row in product([1, 2, 3], ["plus", "times"], [1, 2, 3]):
        assert task.label_of(row) == (calculated(row),), row
    rows = list(product(*task.domains))
    expected = brute_force_count(task.domains, lambda c: calculated(c), rows, set())
    assert count(task, "exact").count == expected == 2  # the operands' exchange


def test_braces_become_calls_outside_quotes_comments_and_character_codes():
    text = "a --> {b}, ['{'], \"}\". % {c}\n/* { */ d --> {e, f}, [0'{].\n"
    written = braces_as_calls(text)
    assert written.count("\n") == text.count("\n")
    assert "'{}'((b))" in written and "'{}'((e, f))" in written
    assert "['{']" in written and '"}"' in written and "% {c}" in written and "/* { */" in written
    assert "0'{" in written


@pytest.mark.parametrize(
    ("program", "message"),
    [
        ("s, [x] --> [a].\n", r"grammar.pl:1: grammar rule: a pushback"),
        ('s --> "ab".\n', r"grammar.pl:1: grammar rule: the string"),
        ("nn(n, [X], Y, colours) :: c(Y) --> [X].\ns --> c(red).\n", r"grammar.pl:1: .*domain 'colours'"),
    ],
)
def test_a_grammar_construct_rscount_does_not_read_is_refused_naming_its_line(
    tmp_path, cli, program, message
):
    run = cli("count", grammar_task(tmp_path, program, "s([a], [])"))
    assert run.code == 2 and len(run.err.strip().splitlines()) == 1
    assert __import__("re").search(message, run.err), run.err
