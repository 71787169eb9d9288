"""Knowledge written as a NeurASP program (`program: FILE.lp`), read with clingo.

A neural rule `nn(digit(K, T), [v1, ...]) :- Body.` declares, for each way Body holds, K neural
atoms `digit(k, T, V)` (k = 0..K-1), each one categorical concept (`digit_T`, or `digit_k_T` when K
> 1) whose values are v1, ... (`a..b` lists a range). The rest is answer-set programming, read as
written. rscount replaces each neural rule by the choice of exactly one value per atom and lets
clingo enumerate every stable model: each model is a concept vector (its neural atoms) with what
the program derives there. Where every neural rule's body is a fact (the inputs are given), the
program is ground once per choice of values of its first neural atoms, with those as facts, so the
grounder keeps only the rules those values fire. The query (`query: add2x2(R1, R2, C1, C2)`)
gives the labels: its variables' values over a vector's stable models; a vector with no stable
model, or no matching atom, has `no answer`; one whose models give several answers has the set of
them (a 0/1 label per answer); a ground query is a Boolean label (it must hold in all of a
vector's models or in none).

Programs are data: no `#script`, `#include`, `#external`, `#program`, or embedded Python or Lua."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterator, Sequence
from itertools import product
from pathlib import Path
from typing import Any

from ...errors import FormatError, TaskError, quote, short
from ...task.expressions import Expr
from ...task.functions import lookup
from ...task.model import NO_ANSWER, Concept, QueryAnswers
from .program import NAME_CHARS, Program, Reads, safe_name

FORBIDDEN = ("#script", "#include", "#external", "#program", "#python", "#lua", "#end")
NEURAL = re.compile(
    r"^\s*nn\(\s*(?P<name>[a-z]\w*)\s*\(\s*(?P<outputs>\d+)\s*,\s*(?P<term>[^\[\]]+?)\)\s*,\s*"
    r"\[(?P<values>[^\]]*)\]\s*\)\s*(?::-(?P<body>[^.]*(?:\.\.[^.]*)*))?\.\s*$",
    re.M,
)
MESSAGES = 20  # clingo messages kept (clingo stops sending more)
BLOCK_PLACE = re.compile(r"<block>:(?P<line>\d+):[\d-]+(?::[\d-]+)?:\s*")  # where clingo places a message
VECTORS_MAX = 1 << 17  # concept vectors (stable models) an ASP program's labels are tabulated over
SUFFIX_VECTORS = 1000  # stable models of one grounding when the program is ground by slot values (_split)


def read_neurasp(path: Path, text: str, query: Any) -> Program:
    """The concepts and labels of the NeurASP program of `path` (its `text`) for `query`; a TaskError
    naming the program where it is refused."""
    import clingo  # loaded only for .lp programs

    for directive in FORBIDDEN:
        if directive in text:
            raise FormatError(str(path), f"{directive} is not allowed (a program is data)")
    if not isinstance(query, str) or not query.strip():
        raise TaskError("query", "an ASP program needs query: ATOM, e.g. add2x2(R1, R2, C1, C2)")
    pattern = _pattern(query)
    neural = list(NEURAL.finditer(text))
    if not neural:
        raise FormatError(str(path), "no neural rule nn(name(K, T), [v1, ...]) :- ...")
    rules = NEURAL.sub(lambda found: "\n" * found[0].count("\n"), text)  # the other rules keep their lines
    # A model shows its neural atoms and the query's atoms (14 symbols a model of NeurASP's member5
    # instead of 50 atoms; walking every atom of its 10^5 models took 150 s). A program that shows
    # terms of its own may show one that is no true atom, so each is then checked in the model.
    shown = {f"{found['name']}/3" for found in neural} | {f"{pattern[0]}/{len(pattern[1])}"}
    own_show = "#show" in rules
    values = [_values(found["values"], path) for found in neural]
    facts = "".join(f"nn_value_{n}({v}).\n" for n, listed in enumerate(values) for v in listed)
    choices, bodies = [], []
    for n, found in enumerate(neural):
        body = f", {found['body'].strip()}" if found["body"] else ""
        last = int(found["outputs"]) - 1
        head = f"{found['name']}(K, {found['term']}, V) : nn_value_{n}(V)"
        choices.append(f"1 {{ {head} }} 1 :- K = 0..{last}{body}.")
        bodies.append(f"nn_slot_{n}(K, {found['term']}) :- K = 0..{last}{body}.")
    show = "\n".join(f"#show {s}." for s in sorted(shown))
    control = _grounded(clingo, [rules, facts, *choices, *bodies, show], path)
    return _tabulated(clingo, control, (rules, facts, show), neural, pattern, query, path, own_show)


def _grounded(clingo: Any, parts: Sequence[str], path: Path) -> Any:
    """A clingo Control with the program `parts` grounded; a FormatError naming the line clingo
    refuses."""
    said = ClingoMessages()
    control = clingo.Control(["--models=0", "--warn=none", "--project=no"], said, MESSAGES)
    try:
        control.add("base", [], "\n".join(parts))
        control.ground([("base", [])])
    except RuntimeError as exc:
        line, first = said.first()
        why = first or short(str(exc))
        raise FormatError(str(path), f"clingo could not ground it ({why})", line) from None
    return control


class ClingoMessages:
    """clingo's logger: its first MESSAGES messages kept (cut) instead of printed on stderr, where a
    hostile program made it write megabytes; the first one, with its line, explains a refusal."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def __call__(self, code: Any, text: str) -> None:
        if len(self.messages) < MESSAGES:
            self.messages.append(text)

    def first(self) -> tuple[int | None, str]:
        """The line of the program (clingo's `<block>:LINE:...`) and the text of the first message."""
        if not self.messages:
            return None, ""
        found = BLOCK_PLACE.match(self.messages[0])
        text = " ".join(part.strip() for part in self.messages[0].splitlines())
        if found is None:
            return None, short(text)
        return int(found["line"]), short(text[found.end() :].strip())


def _values(text: str, path: Path) -> list[str]:
    """The values of a neural rule's list: numbers, constants, `a..b` ranges."""
    found: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if re.fullmatch(r"-?\d+\.\.-?\d+", item):
            low, high = (int(x) for x in item.split(".."))
            found += [str(v) for v in range(low, high + 1)]
        elif re.fullmatch(r"-?\d+|[a-z]\w*", item):
            found.append(item)
        else:
            raise FormatError(str(path), f"{quote(item)} is not a value of a neural rule")
    if not found:
        raise FormatError(str(path), "a neural rule lists no values")
    return found


def _pattern(query: str) -> tuple[str, list[str | None], list[str]]:
    """(predicate, per argument its constant or None for a variable, the variables in order)."""
    match = re.fullmatch(r"\s*([a-z]\w*)\s*(?:\((.*)\))?\s*\.?\s*", query)
    if not match:
        raise TaskError("query", f"{quote(query)} is not an atom")
    args = [a.strip() for a in match[2].split(",")] if match[2] else []
    if any(not re.fullmatch(r"-?\d+|[a-z]\w*|[A-Z_]\w*", a) for a in args):
        raise TaskError("query", f"{quote(query)}: arguments are constants or variables")
    variables = [a for a in args if a[0].isupper() or a[0] == "_"]
    return match[1], [None if a in variables else a for a in args], variables


def _tabulated(
    clingo: Any,
    control: Any,
    program: tuple[str, str, str],
    neural: Sequence[re.Match[str]],
    pattern: Any,
    query: str,
    path: Path,
    own_show: bool,
) -> Program:
    """Every stable model enumerated: concepts from the neural atoms, labels tabulated per vector
    (`program`: the rules, value facts and show statements `control` was grounded with beside the
    neural choices; `own_show`: the program shows terms of its own, so a shown symbol is checked to
    be a true atom)."""
    predicate, constants, variables = pattern
    names = {found["name"]: int(found["outputs"]) for found in neural}
    values_of = {found["name"]: _values(found["values"], path) for found in neural}
    slots: dict[tuple[str, int, str], None] = {}
    for atom in control.symbolic_atoms:
        symbol = atom.symbol
        if symbol.name in names and len(symbol.arguments) == 3:
            slots.setdefault((symbol.name, symbol.arguments[0].number, str(symbol.arguments[1])), None)
    concepts, reads = [], []
    for slot in slots:
        label = slot[0] if names[slot[0]] == 1 else f"{slot[0]}_{slot[1]}"
        domain = tuple(int(v) if re.fullmatch(r"-?\d+", v) else v for v in values_of[slot[0]])
        concepts.append(Concept(safe_name(f"{label}_{slot[2]}")[:NAME_CHARS], domain))
        reads.append((slot[0], (slot[2],)) if names[slot[0]] == 1 else None)
    size = 1
    for c in concepts:
        size *= len(c.values)
    if size > VECTORS_MAX:
        raise FormatError(
            str(path),
            f"{size} concept vectors; rscount tabulates an ASP program over at most {VECTORS_MAX}",
        )
    index = {slot: n for n, slot in enumerate(slots)}
    decoded: dict[Any, tuple[int, Any] | tuple[None, tuple[Any, ...]] | None] = {}

    def decode(s: Any) -> tuple[int, Any] | tuple[None, tuple[Any, ...]] | None:
        """A shown symbol as (slot, value) for a neural atom, (None, answer) for a matching query
        atom, or None."""
        neural_atom = s.name in names and len(s.arguments) == 3
        key = (s.name, s.arguments[0].number, str(s.arguments[1])) if neural_atom else None
        if key in index:
            return index[key], _value(s.arguments[2])
        if s.name == predicate and len(s.arguments) == len(constants):
            args = [str(a) for a in s.arguments]
            if all(c is None or c == a for c, a in zip(constants, args)):
                return None, tuple(_value(a) for c, a in zip(constants, s.arguments) if c is None)
        return None

    numbers = {found["name"]: n for n, found in reversed(list(enumerate(neural)))}
    split = _split(control, list(slots), [len(values_of[slot[0]]) for slot in slots], numbers)
    answers: dict[tuple[Any, ...], set[tuple[Any, ...]]] = defaultdict(set)
    holds: dict[tuple[Any, ...], set[bool]] = defaultdict(set)
    for grounded in _controls(clingo, control, program, list(slots), split, values_of, numbers, path):
        with grounded.solve(yield_=True) as models:
            for model in models:
                vector: list[Any] = [None] * len(slots)
                matched = set()
                for s in model.symbols(shown=True):
                    if s not in decoded:
                        decoded[s] = decode(s)
                    found = decoded[s]
                    if found is None or (own_show and not model.contains(s)):
                        continue
                    if found[0] is None:
                        matched.add(found[1])
                    else:
                        vector[found[0]] = found[1]
                answers[tuple(vector)].update(matched)
                holds[tuple(vector)].add(bool(matched))
    return _program(concepts, tuple(reads), answers, holds, query, variables)


def _split(control: Any, slots: list[tuple[str, int, str]], sizes: list[int], numbers: dict[str, int]) -> int:
    """How many leading slots to fix, one grounding per choice of their values, so that each
    grounding leaves at most SUFFIX_VECTORS vectors to enumerate (0: the one grounding of
    `control`). Only where every neural rule's body is a fact for each of its slots, so a slot's
    choice is the same whatever else holds; else 0."""
    for number in set(numbers.values()):
        for atom in control.symbolic_atoms.by_signature(f"nn_slot_{number}", 2):
            if not atom.is_fact:
                return 0
    ruled = {
        (str(atom.symbol.arguments[0]), str(atom.symbol.arguments[1])) + (number,)
        for number in set(numbers.values())
        for atom in control.symbolic_atoms.by_signature(f"nn_slot_{number}", 2)
    }
    if any((str(k), t, numbers[name]) not in ruled for name, k, t in slots):
        return 0
    fixed, rest = 0, math.prod(sizes)
    while rest > SUFFIX_VECTORS:
        rest //= sizes[fixed]
        fixed += 1
    return fixed


def _controls(
    clingo: Any,
    control: Any,
    program: tuple[str, str, str],
    slots: list[tuple[str, int, str]],
    split: int,
    values_of: dict[str, list[str]],
    numbers: dict[str, int],
    path: Path,
) -> Iterator[Any]:
    """The groundings whose stable models are those of `control`: itself, or with the first `split`
    slots fixed as facts, one grounding per choice of their values, and a choice of one value for
    each other slot (the grounder then drops every rule a fixed slot's other values would fire:
    NeurASP's member with 5 images, 590565 rules, 83 s of clasp for its 10^5 models, reads in 3 s)."""
    if not split:
        yield control
        return
    rules, facts, show = program
    free = "\n".join(
        f"1 {{ {name}({k}, {t}, V) : nn_value_{numbers[name]}(V) }} 1." for name, k, t in slots[split:]
    )
    for values in product(*(values_of[name] for name, _, _ in slots[:split])):
        fixed = "".join(f"{name}({k}, {t}, {v}).\n" for (name, k, t), v in zip(slots, values))
        yield _grounded(clingo, [rules, facts, fixed, free, show], path)


def _value(symbol: Any) -> Any:
    return symbol.number if symbol.type.name == "Number" else str(symbol)


def _program(
    concepts: list[Concept],
    reads: tuple[Reads | None, ...],
    answers: dict[tuple[Any, ...], set[tuple[Any, ...]]],
    holds: dict[tuple[Any, ...], set[bool]],
    query: str,
    variables: list[str],
) -> Program:
    names_domains = ([c.name for c in concepts], [c.values for c in concepts])
    notes: list[str] = []
    every = list(product(*(c.values for c in concepts)))
    if not variables:
        mixed = next((v for v in every if len(holds.get(v, ())) > 1), None)
        if mixed is not None:
            raise TaskError(
                "query", f"{quote(query)} holds in some stable models of {list(mixed)} and not in others"
            )
        label = safe_name(query)
        table = {v: int(True in holds[v]) if v in holds else NO_ANSWER for v in every}
        asked = QueryAnswers(query, (label,), ())
        labelled = {label: lookup(*names_domains, table)}
        return Program(tuple(concepts), labelled, (asked,), tuple(notes), reads, None)
    several = any(len(found) > 1 for found in answers.values())
    labels: dict[str, Expr] = {}
    if several:
        holding: dict[tuple[Any, ...], list[tuple[Any, ...]]] = defaultdict(list)  # answer -> its vectors
        for v, found in answers.items():
            for a in found:
                holding[a].append(v)
        seen = sorted(holding, key=str)
        names = [",".join(f"{v}={x}" for v, x in zip(variables, a)) for a in seen]
        nowhere = dict.fromkeys(every, 0)
        for answer_label, a in zip(names, seen):
            where = {v: 1 for v in holding[a] if v in nowhere}  # a vector with a slot unshown is none of D
            labels[answer_label] = lookup(*names_domains, {**nowhere, **where})
        asked = QueryAnswers(query, tuple(variables), (), tuple(names))
        notes.append(
            f"query {short(query)} has several answers on some vectors: its label is the set of them"
        )
    else:
        for k, variable in enumerate(variables):
            table = {v: next(iter(answers[v]))[k] if answers.get(v) else NO_ANSWER for v in every}
            labels[variable] = lookup(*names_domains, table)
            notes.append(f"label {variable} is {variable} in query {short(query)}")
        asked = QueryAnswers(query, tuple(variables), ())
    return Program(tuple(concepts), labels, (asked,), tuple(notes), reads, None)
