"""The floors of ``tournament/`` hold: no module of it imports another in a circle, none reaches
into another's private names, and every package and management command says what it is.

import-linter (``make test`` runs ``lint-imports``) checks the layers and independence contracts
in ``pyproject.toml``; this test checks what a contract cannot: that no import at all, at the top
of a module, inside a function or under ``TYPE_CHECKING``, closes a circle between two modules.
It builds the import graph with grimp, the library import-linter uses. A name with a leading
underscore belongs to its module: another module of ``tournament`` or ``scoring`` that needs it
needs a public, documented function (read from the source with ``ast``).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return grimp.build_graph("tournament", cache_dir=None)


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), migrations left out."""
    modules = {m for m in graph.modules if ".migrations" not in m}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # iterative, so that a long chain of imports needs no deep recursion
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start) & modules)))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append(
                    (child, iter(sorted(graph.find_modules_directly_imported_by(child) & modules)))
                )
            elif child in on_stack:
                low[node] = min(low[node], index[child])

    for module in sorted(modules):
        if module not in index:
            visit(module)
    return found


def test_no_module_of_tournament_imports_another_in_a_circle(graph: grimp.ImportGraph) -> None:
    found = circles(graph)
    assert not found, "import circles: " + "; ".join(" <-> ".join(group) for group in found)


def test_the_check_finds_a_circle_where_there_is_one() -> None:
    made_up = grimp.ImportGraph()
    for name in ("tournament", "tournament.a", "tournament.b", "tournament.c"):
        made_up.add_module(name)
    made_up.add_import(importer="tournament.a", imported="tournament.b")
    made_up.add_import(importer="tournament.b", imported="tournament.c")
    made_up.add_import(importer="tournament.c", imported="tournament.a")
    assert circles(made_up) == [["tournament.a", "tournament.b", "tournament.c"]]


def test_the_graph_counts_an_import_inside_a_function(graph: grimp.ImportGraph) -> None:
    # tournament.apps imports the system checks inside AppConfig.ready: grimp sees it
    assert "tournament.checks" in graph.find_modules_directly_imported_by("tournament.apps")


# --- private names stay in their module ---------------------------------------------------------

PROJECT = ("tournament", "scoring")


def project_modules() -> dict[str, Path]:
    """Every module of ``tournament`` and ``scoring`` by its dotted name (a package by its own)."""
    found = {}
    for package in PROJECT:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def private_uses(source: str, module: str, is_package: bool, modules: set[str]) -> list[str]:
    """Where ``module``'s source takes a private name from another module of the project:
    ``from x import _name`` (absolute or relative), and ``x._name`` where ``x`` is a module of
    the project bound by an import (``import a.b as x``, ``from a import b``). Dunder names
    (``__version__``) are Python's, not a module's own."""

    def private(name: str) -> bool:
        return name.startswith("_") and not name.startswith("__")

    here = module if is_package else module.rpartition(".")[0]
    tree = ast.parse(source)
    found = []
    bound: dict[str, str] = {}  # a name in this module -> the project module it is
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            if base.split(".")[0] not in PROJECT:
                continue
            for alias in node.names:
                if private(alias.name):
                    found.append(f"{module}:{node.lineno} from {base} import {alias.name}")
                if f"{base}.{alias.name}" in modules:
                    bound[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] not in PROJECT:
                    continue
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:  # ``import a.b`` binds ``a``
                    bound[alias.name.split(".")[0]] = alias.name.split(".")[0]
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and private(node.attr)):
            continue
        chain, value = [], node.value
        while isinstance(value, ast.Attribute):
            chain.append(value.attr)
            value = value.value
        if isinstance(value, ast.Name) and value.id in bound:
            dotted = ".".join([bound[value.id], *reversed(chain)])
            if dotted in modules and dotted != module:
                found.append(f"{module}:{node.lineno} {dotted}.{node.attr}")
    return found


def test_no_module_imports_a_private_name_of_another() -> None:
    modules = project_modules()
    found = [
        use
        for name, path in modules.items()
        for use in private_uses(
            path.read_text(encoding="utf-8"), name, path.name == "__init__.py", set(modules)
        )
    ]
    assert not found, "private names used across modules: " + "; ".join(found)


def test_the_check_finds_each_way_of_taking_a_private_name() -> None:
    modules = {"tournament", "tournament.a", "tournament.a.b", "tournament.c", "scoring"}
    source = """
from tournament.a.b import _hidden, shown
from . import _sibling
from .b import _relative
import tournament.a.b
import tournament.c as c
from tournament.a import b
from scoring import __version__
from django.utils.translation import gettext as _

tournament.a.b._deep()
c._aliased()
b._bound()
shown._attribute_of_a_function
b.__name__
_(b.shown)
"""
    assert private_uses(source, "tournament.a.x", False, modules) == [
        "tournament.a.x:2 from tournament.a.b import _hidden",
        "tournament.a.x:3 from tournament.a import _sibling",
        "tournament.a.x:4 from tournament.a.b import _relative",
        "tournament.a.x:11 tournament.a.b._deep",
        "tournament.a.x:12 tournament.c._aliased",
        "tournament.a.x:13 tournament.a.b._bound",
    ]


def test_every_package_and_command_says_what_it_is() -> None:
    """A reader opening a folder or a command finds what it holds in its first lines."""
    modules = project_modules()
    silent = [
        name
        for name, path in modules.items()
        if (path.name == "__init__.py" and ".migrations" not in name)
        or (".management.commands." in name)
        if not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not silent, "no docstring: " + ", ".join(silent)


def views_importing_views(graph: grimp.ImportGraph) -> list[str]:
    """Each import of a module of ``tournament.views`` by another of its modules but of
    ``common``, the glue they share (the package itself, which may name them all, is no view
    module)."""
    modules = graph.find_descendants("tournament.views")
    views = modules - {"tournament.views.common"}
    return sorted(
        f"{module} imports {imported}"
        for module in modules
        for imported in graph.find_modules_directly_imported_by(module) & views
    )


def test_no_view_module_imports_another_but_common(graph: grimp.ImportGraph) -> None:
    # what two views share is request/response glue in views.common, or domain work on a floor
    # below (issue 44): a view importing another hides where a page's logic lives
    found = views_importing_views(graph)
    assert not found, "; ".join(found)


def test_the_view_check_finds_a_view_that_imports_another() -> None:
    made_up = grimp.ImportGraph()
    for name in ("tournament", "tournament.views", "tournament.play", "tournament.play.sheets"):
        made_up.add_module(name)
    for view in ("common", "link", "sheets", "public"):
        made_up.add_module(f"tournament.views.{view}")
    made_up.add_import(importer="tournament.views", imported="tournament.views.link")
    made_up.add_import(importer="tournament.views.link", imported="tournament.views.common")
    made_up.add_import(importer="tournament.views.link", imported="tournament.play.sheets")
    made_up.add_import(importer="tournament.views.sheets", imported="tournament.views.common")
    assert views_importing_views(made_up) == []
    made_up.add_import(importer="tournament.views.link", imported="tournament.views.sheets")
    made_up.add_import(importer="tournament.views.common", imported="tournament.views.public")
    assert views_importing_views(made_up) == [
        "tournament.views.common imports tournament.views.public",
        "tournament.views.link imports tournament.views.sheets",
    ]
