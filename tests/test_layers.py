"""The package's shape: each pipeline stage imports only the stages before it (read from the source,
every import statement, also those inside functions), and no module outgrows its job; inside
counting, a method is entered only by its package or its backend and imports no other method, and
an engine is what several methods share."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest
from support import REPO

PACKAGE = REPO / "rscount"
FOUNDATION = {
    "errors",
    "progress",
    "version",
    "outputs",
    "limits",
    "sat",
    "cnf",
    "sinks",
}  # importable by every stage
STAGES = ["task", "formats", "knowledge", "encoding", "counting", "insight", "report", "cli"]
TOP = {"__init__", "__main__", "api", "pytest_plugin"}  # the public faces: may import any stage
MAX_MODULE_LINES = 400


def rank(module: str) -> int:
    """Where a module (dotted, below rscount) sits: foundation 0, the stages from 1, the public faces last."""
    head = module.split(".")[0]
    if head in FOUNDATION:
        return 0
    if head in STAGES:
        return 1 + STAGES.index(head)
    if head in TOP or module == "":
        return len(STAGES) + 1
    raise AssertionError(f"rscount.{module} belongs to no stage; add it to test_layers.py")


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, root: Path = PACKAGE) -> set[str]:
    """The rscount modules a file imports (dotted, below rscount; '' for the package itself); in
    `from package import name`, also the module package.name where there is one."""
    here = module_name(path, root).split(".") if module_name(path, root) else []
    package = here if path.name == "__init__.py" else here[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names if a.name.split(".")[0] == "rscount"]
            found |= {name.removeprefix("rscount").lstrip(".") for name in names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            elif node.module and node.module.split(".")[0] == "rscount":
                target = node.module.removeprefix("rscount").lstrip(".")
            else:
                continue
            if node.module:
                found.add(target)
                found |= {f"{target}.{a.name}".lstrip(".") for a in node.names} & modules(root)
            else:  # `from . import dimacs`: the names are modules
                found |= {".".join([*base, a.name]) for a in node.names}
    return found


@functools.cache
def modules(root: Path = PACKAGE) -> frozenset[str]:
    """Every module and package of the source tree at `root` (dotted, below rscount)."""
    return frozenset(module_name(path, root) for path in root.rglob("*.py"))


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_the_scan_sees_every_stage():
    assert {module_name(p).split(".")[0] for p in SOURCES} >= set(STAGES) | FOUNDATION | {"api"}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_imports_a_later_stage(path):
    assert not upward_imports(path), f"rscount.{module_name(path)} imports later stages"


def upward_imports(path: Path, root: Path = PACKAGE) -> list[str]:
    me = module_name(path, root)
    return sorted(m for m in imported(path, root) if rank(m) > rank(me))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_is_over_the_size_limit(path):
    assert len(path.read_text().splitlines()) <= MAX_MODULE_LINES


def write_tree(root: Path, files: dict[str, str]) -> None:
    """Files of a made-up package tree below `root` (path -> text), for the rules' self-tests."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_upward_imports_are_caught_in_every_spelling(tmp_path):
    root = tmp_path / "rscount"
    (root / "knowledge").mkdir(parents=True)
    spellings = {
        "relative.py": "from ..cli import options\n",
        "package.py": "from .. import report\n",
        "absolute.py": "import rscount.counting.dispatch\n",
        "inner.py": "def f():\n    from rscount.insight.check import check\n",
        "fine.py": "from ..task.model import Task\nfrom .circuit import CNFBuilder\nfrom .. import errors\n",
    }
    for name, text in spellings.items():
        (root / "knowledge" / name).write_text(text)
    found = {name: upward_imports(root / "knowledge" / name, root) for name in spellings}
    assert found == {
        "relative.py": ["cli"],
        "package.py": ["report"],
        "absolute.py": ["counting.dispatch"],
        "inner.py": ["insight.check"],
        "fine.py": [],
    }


COUNTING = PACKAGE / "counting"


def part(module: str) -> str:
    """Which part of counting a module belongs to: `methods.<name>`, `engines`, `processes`, or the
    top (settings, budgets, tables); '' outside counting."""
    parts = module.split(".")
    if parts[0] != "counting":
        return ""
    if len(parts) > 2 and parts[1] == "methods" and parts[2] != "protocol":
        return f"methods.{parts[2]}"
    return parts[1] if len(parts) > 1 and parts[1] in ("engines", "processes") else "top"


METHOD_SOURCES = sorted((COUNTING / "methods").rglob("*.py"))
SHARED_SOURCES = sorted((COUNTING / "engines").rglob("*.py")) + sorted((COUNTING / "processes").rglob("*.py"))


@pytest.mark.parametrize("path", METHOD_SOURCES, ids=lambda p: str(p.relative_to(COUNTING)))
def test_a_method_imports_engines_never_another_method(path):
    me = part(module_name(path))
    if path.parent.name == "methods":  # the registry and the protocol
        return
    others = {m for m in imported(path) if part(m).startswith("methods.") and part(m) != me}
    assert not others, f"rscount.{module_name(path)} imports other methods: {sorted(others)}"


@pytest.mark.parametrize("path", SHARED_SOURCES, ids=lambda p: str(p.relative_to(COUNTING)))
def test_engines_and_processes_import_no_method(path):
    methods = {m for m in imported(path) if part(m).startswith("methods")}
    assert not methods, f"rscount.{module_name(path)} imports methods: {sorted(methods)}"


def side_doors(path: Path, root: Path = PACKAGE) -> list[str]:
    """The modules of a method that a module outside it imports, other than the method's package
    (its __init__.py, which names what the method offers outside) and its backend.py; the registry
    methods/__init__.py and methods/protocol.py sit outside every method."""
    me = part(module_name(path, root))
    return sorted(
        m
        for m in imported(path, root)
        if part(m).startswith("methods.")
        and part(m) != me
        and m not in {f"counting.{part(m)}", f"counting.{part(m)}.backend"}
    )


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_method_is_entered_only_by_its_package_or_its_backend(path):
    assert not side_doors(path), f"rscount.{module_name(path)} imports a method's parts"


def test_side_doors_into_a_method_are_caught_in_every_spelling(tmp_path):
    root = tmp_path / "rscount"
    (root / "counting" / "methods" / "jrs").mkdir(parents=True)
    for name in ("__init__", "backend", "kernels"):
        (root / "counting" / "methods" / "jrs" / f"{name}.py").write_text("")
    spellings = {
        "insight/relative.py": "from ..counting.methods.jrs.kernels import count_jrs\n",
        "insight/module.py": "from ..counting.methods.jrs import kernels\n",
        "insight/absolute.py": "import rscount.counting.methods.jrs.kernels\n",
        "insight/inner.py": "def f():\n    from rscount.counting.methods.jrs.kernels import count_jrs\n",
        "counting/methods/search/backend.py": "from ..jrs.kernels import count_jrs\n",
        "insight/package.py": "from ..counting.methods.jrs import count_jrs\n",
        "insight/backend.py": "import rscount.counting.methods.jrs.backend\n",
        "counting/methods/__init__.py": "from .jrs.backend import JrsBackend\n",
        "counting/methods/jrs/fine.py": "from .kernels import count_jrs\nfrom . import kernels\n",
    }
    write_tree(root, spellings)
    found = {name: side_doors(root / name, root) for name in spellings}
    kernels = ["counting.methods.jrs.kernels"]
    assert found == {
        "insight/relative.py": kernels,
        "insight/module.py": kernels,
        "insight/absolute.py": kernels,
        "insight/inner.py": kernels,
        "counting/methods/search/backend.py": kernels,
        "insight/package.py": [],
        "insight/backend.py": [],
        "counting/methods/__init__.py": [],
        "counting/methods/jrs/fine.py": [],
    }


def engine(module: str) -> str:
    """The engine a module belongs to: `counting.engines.<name>` (a module or a subpackage directly
    under engines/), '' outside them."""
    parts = module.split(".")
    return ".".join(parts[:3]) if parts[:2] == ["counting", "engines"] and len(parts) > 2 else ""


def engine_users(name: str, root: Path = PACKAGE, via: frozenset[str] = frozenset()) -> set[str]:
    """Who uses the engine `name`: `methods.<method>` for a module of a method, `outside` for one
    outside counting/methods/ and counting/engines/, and for another engine, whoever uses that one."""
    users = set()
    for path in sorted(root.rglob("*.py")):
        me = module_name(path, root)
        if engine(me) == name or name not in {engine(m) for m in imported(path, root)}:
            continue
        if part(me).startswith("methods."):
            users.add(part(me))
        elif not engine(me):
            users.add("outside")
        elif engine(me) not in via:  # through another engine, each followed once (no cycles)
            users |= engine_users(engine(me), root, via | {name})
    return users


ENGINES = sorted({engine(module_name(p)) for p in (COUNTING / "engines").rglob("*.py")} - {""})


@pytest.mark.parametrize("name", ENGINES)
def test_an_engine_is_shared_by_two_methods_or_used_outside_the_methods(name):
    """An engine (a module or subpackage directly under counting/engines/) is imported, directly or
    through other engines, by modules of at least two methods, or by a module outside
    counting/methods/ and counting/engines/; one that a single method uses belongs in that method."""
    users = engine_users(name)
    assert "outside" in users or len(users) >= 2, f"rscount.{name} is used only by {sorted(users)}"


def test_an_engine_of_one_method_is_caught_also_through_another_engine(tmp_path):
    root = tmp_path / "rscount"
    files = {
        "counting/engines/lonely.py": "",
        "counting/engines/helper.py": "",
        "counting/engines/shared.py": "from . import helper\n",
        "counting/engines/used.py": "",
        "counting/methods/a/backend.py": "from ...engines import lonely, shared\n",
        "counting/methods/b/backend.py": "def f():\n    from rscount.counting.engines.shared import g\n",
        "insight/explain.py": "from ..counting.engines.used import h\n",
    }
    write_tree(root, files)
    found = {name: engine_users(f"counting.engines.{name}", root) for name in ("lonely", "helper", "used")}
    assert found == {"lonely": {"methods.a"}, "helper": {"methods.a", "methods.b"}, "used": {"outside"}}


def test_every_method_is_a_package_named_as_on_the_command_line_with_a_backend():
    """Each registered through the guard that declines the extractors it does not count."""
    from rscount.counting.methods import BACKENDS, ExtractorGuard

    for method, guarded in BACKENDS.items():
        folder = COUNTING / "methods" / str(method).replace("-", "_")
        assert (folder / "backend.py").is_file(), method
        assert isinstance(guarded, ExtractorGuard), method
        assert type(guarded.backend).__module__ == f"rscount.counting.methods.{folder.name}.backend"


def test_a_modes_own_counter_is_registered_by_mode_in_a_package_named_after_the_mode():
    """The jrs mode is counted by its own sum, chosen by the mode (MODE_COUNTERS), not by a method
    of that name: its package is named after the mode, and no method shares the name."""
    from rscount.counting.methods import BACKENDS, MODE_COUNTERS, ExtractorGuard

    for mode, counter in MODE_COUNTERS.items():
        assert (COUNTING / "methods" / str(mode) / "backend.py").is_file(), mode
        assert isinstance(counter, ExtractorGuard), mode
        assert type(counter.backend).__module__ == f"rscount.counting.methods.{mode}.backend"
        assert str(mode) not in {str(method) for method in BACKENDS}


def test_test_files_have_distinct_names():
    """pytest imports test files as top-level modules (no __init__.py), so two files of one name in
    different folders stop the whole collection."""
    names = [path.name for path in (REPO / "tests").rglob("test_*.py")]
    assert sorted({name for name in names if names.count(name) > 1}) == []


FORMATS = PACKAGE / "formats"


def _module_globals(folder: Path) -> list[tuple[str, dict[str, object]]]:
    import importlib

    names = sorted({module_name(p) for p in folder.glob("*.py")})
    return [(name, vars(importlib.import_module(f"rscount.{name}"))) for name in names]


def test_every_row_format_defined_is_registered_by_name_and_for_detection():
    from rscount.formats.rows import DETECTION, ROW_FORMATS, RowFormat

    defined = {
        value.name: value
        for module, names in _module_globals(FORMATS / "rows")
        for value in names.values()
        if isinstance(value, RowFormat) and value.read.__module__ == f"rscount.{module}"
    }
    assert defined == ROW_FORMATS and set(DETECTION) == set(defined.values())


def test_every_program_reader_defined_is_registered_by_extension():
    from rscount.formats.programs import PROGRAM_READERS

    defined = {
        value
        for module, names in _module_globals(FORMATS / "programs")
        for name, value in names.items()
        if name.startswith("read_")
        and callable(value)
        and getattr(value, "__module__", "") == f"rscount.{module}"
        and module != "formats.programs"
    }
    assert defined == set(PROGRAM_READERS.values())
