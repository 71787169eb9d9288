"""The counting modes and the extractor structures a task may ask for (docs/closed-forms.md)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, TypeVar

from ..errors import TaskError, quote

Named = TypeVar("Named", bound=StrEnum)


def _member(kind: type[Named], name: Any, where: str) -> Named:
    """The member of `kind` called `name`; a TaskError naming `where` and the choices otherwise."""
    try:
        return kind(name)
    except ValueError:
        raise TaskError(where, f"{quote(name)} is not one of {', '.join(kind)}") from None


class Mode(StrEnum):
    """What counts as a concept map (see docs/closed-forms.md)."""

    DISENTANGLED = "disentangled"  # maps (pi, f), as rsbench's countrss
    JOINT = "joint"  # any map D -> D (eq. 7 of the rsbench paper)
    OBJECTS = "objects"  # object and attribute permutations, value maps shared by all objects
    JRS = "jrs"  # pairs (concept map, learned inference layer): joint reasoning shortcuts

    @classmethod
    def parse(cls, name: Any, where: str = "mode") -> Mode:
        """The mode called `name`; a TaskError naming `where` otherwise."""
        return _member(cls, name, where)


class Extractor(StrEnum):
    """How the concept extractor is built, which decides which concept maps it can learn (see
    docs/closed-forms.md): whether predicted concepts may read any ground-truth concept (permuting)
    or each its own (in place), with one network per concept or one shared by the objects."""

    PERMUTING = "permuting"  # any concept may feed any predicted concept: rsbench's count
    IN_PLACE = "in-place"  # one network per input: predicted concept i reads concept i
    SHARED = "shared"  # one network for every object: objects and attributes may be exchanged
    SHARED_IN_PLACE = "shared-in-place"  # one network applied to each object where it stands

    @classmethod
    def parse(cls, name: Any, where: str = "extractor") -> Extractor:
        """The extractor called `name`; a TaskError naming `where` otherwise."""
        return _member(cls, name, where)

    @classmethod
    def of(cls, mode: Mode | None, in_place: bool) -> Extractor | None:
        """The extractor a count in `mode` assumes (None: the joint and jrs modes, whose maps are
        not built from an extractor's structure)."""
        if mode == Mode.OBJECTS:
            return cls.SHARED_IN_PLACE if in_place else cls.SHARED
        if mode == Mode.DISENTANGLED:
            return cls.IN_PLACE if in_place else cls.PERMUTING
        return None

    def contradicts(self, mode: Mode | None) -> str | None:
        """Why counting in `mode` contradicts this extractor (the other mode whose maps come from an
        extractor), or None."""
        if Extractor.of(mode, False) is not None and mode != self.mode:
            return f"{self} learns the maps of the {self.mode} mode, not the {mode} mode"
        return None

    @property
    def mode(self) -> Mode:
        """The counting mode whose maps this extractor learns."""
        return Mode.OBJECTS if self in (Extractor.SHARED, Extractor.SHARED_IN_PLACE) else Mode.DISENTANGLED

    @property
    def in_place(self) -> bool:
        """Whether each predicted concept (object) reads the ground-truth one where it stands."""
        return self in (Extractor.IN_PLACE, Extractor.SHARED_IN_PLACE)
