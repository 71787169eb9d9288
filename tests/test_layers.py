"""The package's shape: each pipeline stage imports only the stages before it (read from the source,
every import statement, also those inside functions), and no module outgrows its job."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from support import REPO

PACKAGE = REPO / "rscount"
FOUNDATION = {"errors", "progress", "version", "outputs", "limits", "sat"}  # importable by every stage
STAGES = ["task", "knowledge", "encoding", "counting", "insight", "report", "cli"]
TOP = {"__init__", "__main__", "api", "pytest_plugin"}  # the public faces: may import any stage
MAX_MODULE_LINES = 400


def rank(module: str) -> int:
    """Where a module (dotted, below rscount) sits: foundation 0, stages 1..7, the public faces 8."""
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
    """The rscount modules a file imports (dotted, below rscount; '' for the package itself)."""
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
            else:  # `from . import dimacs`: the names are modules
                found |= {".".join([*base, a.name]) for a in node.names}
    return found


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


def test_every_method_is_a_package_named_as_on_the_command_line_with_a_backend():
    from rscount.counting.methods import BACKENDS

    for method, backend in BACKENDS.items():
        folder = COUNTING / "methods" / str(method).replace("-", "_")
        assert (folder / "backend.py").is_file(), method
        assert type(backend).__module__ == f"rscount.counting.methods.{folder.name}.backend"


def test_a_modes_own_counter_is_registered_by_mode_in_a_package_named_after_the_mode():
    """The jrs mode is counted by its own sum, chosen by the mode (MODE_COUNTERS), not by a method
    of that name: its package is named after the mode, and no method shares the name."""
    from rscount.counting.methods import BACKENDS, MODE_COUNTERS

    for mode, counter in MODE_COUNTERS.items():
        assert (COUNTING / "methods" / str(mode) / "backend.py").is_file(), mode
        assert type(counter).__module__ == f"rscount.counting.methods.{mode}.backend"
        assert str(mode) not in {str(method) for method in BACKENDS}


def test_test_files_have_distinct_names():
    """pytest imports test files as top-level modules (no __init__.py), so two files of one name in
    different folders stop the whole collection."""
    names = [path.name for path in (REPO / "tests").rglob("test_*.py")]
    assert sorted({name for name in names if names.count(name) > 1}) == []
