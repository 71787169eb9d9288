"""The task model: ordered finite-domain concepts, labels given by knowledge, a training support.

A Task is immutable: training code and the insight commands change one through `with_support`,
`with_supervision`, `with_labels` (and `renamed`, `with_expect`), which check the new rows and
labels as a task file's are checked and keep everything else, `expect:` included.
"""

from __future__ import annotations

import dataclasses
import keyword
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from functools import cached_property
from typing import Any

from ..errors import TaskError, quote, short
from ..limits import VALUES
from .constraints import Constraints
from .expressions import OPS, Expr, free_names, interned, normalise, parse
from .functions import LabelFunction, tabulated
from .modes import Extractor as Extractor  # re-exported: the model names its modes
from .modes import Mode as Mode
from .support import Support
from .tables import table_rows
from .vectorized import Array, TooLarge, evaluate_shared, on_all_vectors, strides, tabulate, value_array

Value = int | str  # a concept value (Booleans are 0/1)


@dataclass(frozen=True)
class Concept:
    """A ground-truth concept: a name and its ordered, distinct values (0/1 for Booleans)."""

    name: str
    values: tuple[Value, ...]

    @cached_property
    def index(self) -> dict[Value, int]:
        """Position of each value in the domain."""
        return {v: i for i, v in enumerate(self.values)}

    @property
    def is_words(self) -> bool:
        """Whether some value is a word (arrays of its values then hold Python objects)."""
        return any(isinstance(v, str) for v in self.values)


def make_concept(name: Any, values: Any, where: str = "concepts") -> Concept:
    """Validate a concept name and domain (identifier, not an operator name, >= 1 distinct value)."""
    if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name) or name in OPS:
        raise TaskError(where, f"concept name {quote(name)} is not a usable identifier")
    if not isinstance(values, list | tuple) or not values:
        raise TaskError(f"{where}.{name}", "expected a non-empty list of values")
    VALUES.check(len(values), f"{where}.{name}")
    if any(isinstance(v, bool) for v in values) and set(values) != {0, 1}:
        raise TaskError(
            f"{where}.{name}", "true and false are values of Boolean domains only ([false, true] or [0, 1])"
        )
    vals = tuple(normalise(v) for v in values)
    for v in vals:
        if not isinstance(v, int | str):
            raise TaskError(f"{where}.{name}", f"value {quote(v)} is not an integer or a string")
    if len(set(vals)) != len(vals):
        raise TaskError(f"{where}.{name}", "values are not distinct")
    return Concept(name, vals)


@dataclass(frozen=True)
class Objects:
    """Several objects with the same attributes: concept `<attribute>_<object>` (objects from 1),
    object by object, each object's attributes in the order given."""

    count: int
    attributes: tuple[tuple[str, tuple[Value, ...]], ...]

    def concepts(self) -> tuple[Concept, ...]:
        """The concepts of all objects, object-major."""
        return tuple(
            Concept(f"{name}_{n}", values)
            for n in range(1, self.count + 1)
            for name, values in self.attributes
        )


NO_ANSWER = "no answer"  # the label of a vector on which a program's query has no answer


@dataclass(frozen=True)
class QueryAnswers:
    """A program's query with variables: the query as written, its variables (a label each), and its
    ground answers, each the variables' values and the condition over the concepts under which it
    holds. The knowledge stage decides whether one answer holds at a time (a label per variable, `no
    answer` where none holds) or several (the label is the set of answers: a 0/1 label per answer)."""

    query: str
    variables: tuple[str, ...]
    answers: tuple[tuple[tuple[Value, ...], Expr], ...]
    set_labels: tuple[str, ...] = ()  # set-valued: the 0/1 label of each answer, in order

    def empty(self, labels: Mapping[str, Any]) -> bool:
        """Whether no answer holds, given a vector's label values."""
        if self.set_labels:
            return not any(labels[name] for name in self.set_labels)
        return bool(labels[self.variables[0]] == NO_ANSWER)


@dataclass(frozen=True)
class Task:
    """A learning task: concepts, knowledge (label name -> expression) and training support.

    `mode` is the counting mode the task asks for (objects for a task with `objects`, else
    disentangled, unless given); `in_place` says that its extractor reads each concept (in the
    objects mode each object) where it stands, so the concept (object) permutation is the identity
    (Extractor). The support's domains are the concepts' ground-truth values: each concept's
    first values, fewer when its network predicts classes the data never shows (`predicts:`, so
    value maps send ground-truth values to predicted ones). `expect` holds expectations on its
    count (`expect:`), and `constraints` the constraints its labels were completed from, if it was
    given that way.
    """

    name: str
    concepts: tuple[Concept, ...]
    labels: Mapping[str, Expr]
    support: Support
    _: KW_ONLY  # the rest by name: most tasks give none of them
    description: str = ""
    objects: Objects | None = None
    mode: Mode = None  # type: ignore[assignment]  # None: the default for the task, set below
    in_place: bool = False
    expect: Mapping[str, int] = field(default_factory=dict)
    constraints: Constraints | None = None
    notes: tuple[str, ...] = ()  # what reading the task's file decided or left out, shown by `check`
    program: str | None = None  # the program file (`program:`) the concepts and labels were read from
    answers: tuple[QueryAnswers, ...] = ()  # a program's queries with variables, whose labels these are
    evidence: str | None = None  # the label that is a program's evidence (1 where it holds)

    def __post_init__(self) -> None:
        if self.mode is None:
            object.__setattr__(self, "mode", Mode.OBJECTS if self.objects else Mode.DISENTANGLED)
        else:
            object.__setattr__(self, "mode", Mode.parse(self.mode))
        object.__setattr__(self, "labels", dict(self.labels))
        names = [c.name for c in self.concepts]
        if len(set(names)) != len(names):
            raise TaskError("concepts", f"concept names of {quote(self.name)} are not distinct")
        if not self.labels:
            raise TaskError("labels", "the task has no labels")
        for label, expr in self.labels.items():
            unknown = free_names(expr) - set(names)
            if unknown:
                raise TaskError(f"labels.{label}", f"unknown concept {quote(sorted(unknown)[0])}")
        if len(self.support.domains) != len(self.concepts) or any(
            c.values[: len(d)] != d for c, d in zip(self.concepts, self.support.domains)
        ):
            raise TaskError("support", "its domains are not the concepts' ground-truth values")
        if (self.answers or self.evidence) and not self.support.exhaustive:
            rows = self.support.rows
            for row, labels in zip(rows, self.labels_of(rows)):
                why = self.unanswered(row, labels)
                if why:
                    raise TaskError(
                        "support", f"row {quote(list(row))}: {why}, so it has no label to train on"
                    )

    @property
    def names(self) -> list[str]:
        """Concept names in order."""
        return [c.name for c in self.concepts]

    @cached_property
    def shared_labels(self) -> dict[str, Expr]:
        """The labels with equal subexpressions as one object (interned), made once per task: a
        program's labels have a hundred thousand nodes."""
        return interned(dict(self.labels))

    def label_arrays(self) -> list[Array] | None:
        """The labels' values on every concept vector of D (on_all_vectors: None when D is too large;
        raises as it does), computed once per task."""
        if "_label_arrays" not in self.__dict__:
            found = on_all_vectors(list(self.labels.values()), self.domains, self.names)
            self.__dict__["_label_arrays"] = found
        arrays: list[Array] | None = self.__dict__["_label_arrays"]
        return arrays

    def tabulated_labels(self) -> list[Array] | None:
        """label_arrays if they were computed already (None otherwise: not computed here)."""
        arrays: list[Array] | None = self.__dict__.get("_label_arrays")
        return arrays

    def object_spec(self) -> Objects:
        """The task's objects (`objects:`); a TaskError for a task without them."""
        if self.objects is None:
            raise TaskError("objects", f"task {quote(self.name)} has no objects: section")
        return self.objects

    @property
    def domains(self) -> list[tuple[Value, ...]]:
        """Concept domains in order: the values the extractor predicts, which the knowledge reads."""
        return [c.values for c in self.concepts]

    @property
    def ground_truths(self) -> list[tuple[Value, ...]]:
        """Per concept, the values its ground truth takes (the support's domains): the concept's
        first values, all of them unless its network predicts more classes (`predicts:`)."""
        return self.support.domains

    def predicted_classes(self) -> dict[str, tuple[Value, ...]]:
        """Per concept (in an objects task, per attribute) whose network predicts classes its ground
        truth never takes, those classes: all its values, the ground truth's first (`predicts:`)."""
        owners = list(zip(self.concepts, self.ground_truths))
        if self.objects is not None:
            owners = [(Concept(a, c.values), t) for (a, _), (c, t) in zip(self.objects.attributes, owners)]
        return {c.name: c.values for c, truth in owners if len(c.values) > len(truth)}

    @property
    def predicts_more(self) -> bool:
        """Whether some concept's network predicts classes its ground truth never takes."""
        return any(len(c.values) > len(d) for c, d in zip(self.concepts, self.ground_truths))

    def label_of(self, row: Sequence[Any]) -> tuple[Any, ...]:
        """The label values the knowledge gives to one concept vector."""
        assignment: Mapping[str, Any] = dict(zip(self.names, row))
        try:
            return tuple(evaluate_shared(list(self.labels.values()), assignment))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            pass
        for name, expr in self.labels.items():  # which label: each alone
            try:
                evaluate_shared([expr], assignment)
            except (TypeError, ValueError, ZeroDivisionError, OverflowError) as exc:
                shown = short(str(exc))
                raise TaskError(f"labels.{name}", f"undefined on {quote(list(row))}: {shown}") from None
        raise AssertionError("the labels failed together but not one by one")

    def labels_of(self, rows: Sequence[Sequence[Any]]) -> list[tuple[Any, ...]]:
        """label_of of many rows at once (read off the labels on D where those were tabulated, else
        arrays over the rows, each shared node once; row by row where the arrays cannot hold the
        values or some row is undefined, to name it)."""
        tabulated = self.tabulated_labels()
        if tabulated is not None and rows:
            read = _read_off(self.concepts, tabulated, rows)
            if read is not None:
                return read
        try:
            columns = {c.name: value_array([row[i] for row in rows]) for i, c in enumerate(self.concepts)}
            found = tabulate(list(self.labels.values()), columns, len(rows))
        except (TooLarge, TypeError, ValueError, ZeroDivisionError, OverflowError):
            return [self.label_of(row) for row in rows]
        if not found:
            return [()] * len(rows)
        return [tuple(map(normalise, values)) for values in zip(*(column.tolist() for column in found))]

    def unanswered(self, row: Sequence[Any], labels: tuple[Any, ...] | None = None) -> str | None:
        """Why the knowledge gives `row` (whose `labels` may be given) no label (a program's query
        has no answer there, or its evidence does not hold), or None."""
        values = dict(zip(self.labels, self.label_of(row) if labels is None else labels))
        if self.evidence is not None and values[self.evidence] == 0:
            return "the program's evidence does not hold"
        for query in self.answers:
            if query.empty(values):
                return f"query {short(query.query)} has no answer"
        return None

    def with_support(
        self, rows: Iterable[Sequence[Any]] | None, supervised: Iterable[Any] | None = None
    ) -> Task:
        """This task with the support `rows` (None: exhaustive), each a list in concept order or a
        mapping concept -> value; the supervision is `supervised` (rows, or {row, concepts} entries
        for some concepts only), or when None the task's own on the rows the new support keeps."""
        support = Support(self.names, self.ground_truths, None if rows is None else list(rows))
        if supervised is None:
            members = None if support.exhaustive else set(support.rows)
            supervised = [
                entry
                for entry in self.support.supervision()
                if members is None or tuple(entry["row"] if isinstance(entry, dict) else entry) in members
            ]
        support = Support(self.names, self.ground_truths, support.given_rows(), list(supervised))
        return dataclasses.replace(self, support=support)

    def with_annotations(self, data: Any, indices: bool = False) -> Task:
        """This task with the support a training pipeline's annotations give: a numpy array (examples
        x concepts, concept order) or a pandas DataFrame (a column per concept), of values, or of
        value positions with `indices`; values outside a domain are named with their row."""
        return self.with_support(table_rows(data, self.names, self.ground_truths, indices))

    def with_supervision(self, rows: Iterable[Any]) -> Task:
        """This task with exactly `rows` concept-supervised (rows of its support, or {row, concepts}
        entries supervising some concepts of a row)."""
        support = Support(self.names, self.ground_truths, self.support.given_rows(), list(rows), "support")
        return dataclasses.replace(self, support=support)

    def with_labels(self, labels: Mapping[str, Expr | str | LabelFunction]) -> Task:
        """This task with the labels `labels` added (or replacing those of the same name); a label
        may be an expression, its text in the task-file syntax, or a Python function of the
        concepts (called by their names, tabulated on every concept vector)."""
        values = [v for c in self.concepts for v in c.values]

        def read(name: str, given: Expr | str | LabelFunction) -> Expr:
            if isinstance(given, Expr):
                return given
            if callable(given):
                return tabulated(given, self.concepts, f"labels.{name}")
            return parse(given, self.names, values, f"labels.{name}")

        parsed = {name: read(name, given) for name, given in labels.items()}
        return dataclasses.replace(self, labels={**self.labels, **parsed})

    def renamed(self, name: str) -> Task:
        """This task under another name."""
        return dataclasses.replace(self, name=name)

    def with_expect(self, expect: Mapping[str, int]) -> Task:
        """This task with the expectations `expect` on its count (replacing its own)."""
        return dataclasses.replace(self, expect=dict(expect))

    def with_mode(self, mode: Mode | str) -> Task:
        """This task counted in another mode by default."""
        return dataclasses.replace(self, mode=Mode.parse(mode))

    @property
    def extractor(self) -> Extractor | None:
        """The extractor the task's own mode assumes (None in the joint and jrs modes)."""
        return Extractor.of(self.mode, self.in_place)

    def extractor_name(self, mode: Mode) -> str | None:
        """The name of the extractor a count in `mode` assumes, as records state it (None in the
        joint and jrs modes)."""
        found = Extractor.of(mode, self.in_place)
        return None if found is None else str(found)

    def unmapped_in(self, mode: Mode) -> str | None:
        """Why the task's extractor has no maps in `mode` (one in place, or one predicting more
        classes than the data shows, in the joint or jrs mode), or None."""
        if self.in_place and Extractor.of(mode, True) is None:
            return (
                "an extractor in place fixes the concept permutation of the disentangled and objects "
                f"modes; the {mode} mode's maps have none"
            )
        if self.predicts_more and Extractor.of(mode, False) is None:
            return (
                "predicted classes beyond the ground truth's values (predicts:) are counted in the "
                f"disentangled and objects modes, whose value maps they widen; the {mode} mode's are not"
            )
        return None

    def with_extractor(self, extractor: Extractor | str) -> Task:
        """This task learned by another extractor (counted in the mode whose maps it learns)."""
        chosen = Extractor.parse(extractor)
        if chosen.mode == Mode.OBJECTS and self.objects is None:
            raise TaskError("extractor", f"{chosen} needs a task with an objects: section")
        return dataclasses.replace(self, mode=chosen.mode, in_place=chosen.in_place)


def _read_off(
    concepts: Sequence[Concept], tabulated: list[Array], rows: Sequence[Sequence[Any]]
) -> list[tuple[Any, ...]] | None:
    """The labels of `rows` read off their values on D (None where a row has a value outside its
    concept's domain: evaluating it names the problem)."""
    places = strides([len(c.values) for c in concepts])
    try:
        index = [sum(c.index[v] * s for c, v, s in zip(concepts, row, places)) for row in rows]
    except (KeyError, TypeError):
        return None
    if not tabulated:
        return [()] * len(rows)
    picked = [array[index].tolist() for array in tabulated]
    return [tuple(map(normalise, values)) for values in zip(*picked)]
