"""The floors of ``tournament/`` hold: no module of it imports another in a circle.

import-linter (``make test`` runs ``lint-imports``) checks the layers and independence contracts
in ``pyproject.toml``; this test checks what a contract cannot: that no import at all, at the top
of a module, inside a function or under ``TYPE_CHECKING``, closes a circle between two modules.
It builds the import graph with grimp, the library import-linter uses.
"""

from __future__ import annotations

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
