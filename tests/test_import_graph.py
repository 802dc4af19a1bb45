"""Imports go one way and stay public [issue 25 §3]: no import cycle in ``referee/``, and no
module imports another module's private (``_name``) names.

Every module of ``referee/`` is read as Python (never imported) and its imports listed.

* **Module-level imports** (those that run when the module is loaded: the top level, also
  inside ``if``/``try``, but not ``if TYPE_CHECKING:``, which never runs) must form no cycle:
  a cycle makes the import order matter and hides a seam that was cut in the wrong place.
* **Lazy imports** (inside a function) are allowed where they keep a command's start fast or
  load a heavy or optional library only when needed; they must not close a cycle either,
  except the ones listed in :data:`LAZY_CYCLES`, each with why it is still there. The list may
  only shrink: a new lazy cycle fails the test.
* **Type-checking imports** (``if TYPE_CHECKING:``) never run: they name a type for a hint.
  Two types that refer to each other (a module source carries its ruleset's schema, whose
  functions take that module) are one data model, not an import order, so such imports are
  left out of the cycle checks; a module's runtime dependencies are all the others.
* A name starting with one underscore imported from another module of ``referee`` (``from
  referee.x import _y``) fails: make it public where it is defined, or move it to its user.
"""

from __future__ import annotations

import ast
import functools
import gc
from collections.abc import Iterator
from pathlib import Path

REFEREE = Path(__file__).resolve().parents[1] / "referee"

# Cycles closed only by a lazy import, each a seam still to cut (the pbem ones,
# charts/tablechart, module_writer, naval air/combat and ruleset/scripted, DTP carriers/landing
# and the module model's lookup of its ruleset's schema were cut). Empty: keep it so.
LAZY_CYCLES: dict[frozenset[str], str] = {}


def _parse(path: Path) -> ast.Module:
    """A tree holds no cycles, so the collector need not chase its nodes while it is built
    (with it on, parsing the package costs several times as much CPU)."""
    gc.disable()
    try:
        return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    finally:
        gc.enable()


@functools.cache
def _trees() -> dict[str, tuple[Path, ast.Module]]:
    """Every module of ``referee/`` reduced to its import statements (a module whose body
    holds only them), parsed once per test session. Keeping only the imports keeps the
    session's memory (and the garbage collector's work) small."""
    out: dict[str, tuple[Path, ast.Module]] = {}
    for name, path in _modules().items():
        tree = _parse(path)
        loaded = list(_loaded_imports(tree.body))
        hints = list(_type_checking_imports(tree.body))
        ids = {id(n) for n in loaded} | {id(n) for n in hints}
        lazy = [n for n in _all_imports(tree) if id(n) not in ids]
        # the loaded imports at the top, the lazy ones inside a function, as in the source,
        # the type-checking ones under ``if TYPE_CHECKING:``
        fn = ast.FunctionDef(name="lazy", body=lazy or [ast.Pass()], decorator_list=[])
        typing = ast.If(test=ast.Name(id="TYPE_CHECKING"), body=hints or [ast.Pass()], orelse=[])
        out[name] = (path, ast.Module(body=[*loaded, fn, typing], type_ignores=[]))
    return out


@functools.cache
def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in sorted(REFEREE.rglob("*.py")):
        parts = path.relative_to(REFEREE.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _loaded_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that run when the module is loaded."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _loaded_imports(node.body)
                yield from _loaded_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                yield from _loaded_imports(block)


def _type_checking_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements under ``if TYPE_CHECKING:`` at the module's level (hints only)."""
    for node in body:
        if isinstance(node, ast.If):
            if _is_type_checking(node.test):
                yield from _all_imports(ast.Module(body=node.body, type_ignores=[]))
            else:
                yield from _type_checking_imports(node.body)
                yield from _type_checking_imports(node.orelse)


def _all_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, also inside functions and classes (only statements hold
    imports, so only statement bodies are searched)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
            continue
        for key in ("body", "orelse", "finalbody", "handlers", "cases"):
            todo.extend(n for n in getattr(node, key, ()) if isinstance(n, ast.AST))


def _targets(node: ast.Import | ast.ImportFrom, mods: dict[str, Path]) -> Iterator[str]:
    """The modules of ``referee`` an import statement loads (the longest known prefix)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    elif node.level:  # a relative import: the package uses none, so one shows here
        raise AssertionError(f"line {node.lineno}: a relative import; write it absolute")
    elif node.module is None:
        return
    else:
        names = [f"{node.module}.{a.name}" for a in node.names]
    for name in names:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        if name:
            yield name


@functools.cache
def graph(*, lazy: bool) -> dict[str, set[str]]:
    mods = _modules()
    edges: dict[str, set[str]] = {}
    for name, (_, tree) in _trees().items():
        found = _loaded_imports(tree.body)
        if lazy:
            hints = {id(n) for n in _type_checking_imports(tree.body)}
            found = (n for n in _all_imports(tree) if id(n) not in hints)
        edges[name] = {t for node in found for t in _targets(node, mods) if t != name}
    return edges


@functools.cache
def lazy_cycles() -> list[frozenset[str]]:
    return cycles(graph(lazy=True))


def cycles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[frozenset[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.add(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(frozenset(comp))
    return out


@functools.cache
def private_imports() -> tuple[str, ...]:
    mods = _modules()
    bad: list[str] = []
    for path, tree in _trees().values():
        for node in _all_imports(tree):
            if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith(
                "referee"
            ):
                continue
            for a in node.names:
                private = a.name.startswith("_") and not a.name.startswith("__")
                if private and f"{node.module}.{a.name}" not in mods:
                    rel = path.relative_to(REFEREE.parent)
                    bad.append(f"{rel}:{node.lineno}: imports {node.module}.{a.name}")
    return tuple(bad)


def test_no_import_cycle_when_modules_load() -> None:
    assert [sorted(c) for c in cycles(graph(lazy=False))] == []


# Packages in which a lazy import may close a cycle: a ruleset's schema names its ruleset
# object, which the registry loads lazily, while the ruleset's modules read the schema.
LAZY_CYCLE_PACKAGES: dict[str, str] = {
    "referee.rules.carrier_battlegroup.": "the schema loads the ruleset object lazily",
}


def _allowed(cycle: frozenset[str]) -> bool:
    if cycle in LAZY_CYCLES:
        return True
    return any(all(m.startswith(p) for m in cycle) for p in LAZY_CYCLE_PACKAGES)


def test_lazy_imports_close_no_new_cycle() -> None:
    new = [sorted(c) for c in lazy_cycles() if not _allowed(c)]
    assert new == [], "a lazy import closes a cycle: cut the seam (or say why in LAZY_CYCLES)"


def test_the_pbem_package_has_no_cycle_even_lazily() -> None:
    """The referee's PBEM pipeline is one path with no lazy way round (issue 25 §3)."""
    pbem = [c for c in lazy_cycles() if any(m.startswith("referee.pbem") for m in c)]
    assert pbem == []


def test_no_private_name_is_imported_across_modules() -> None:
    assert private_imports() == ()


def test_the_scans_would_catch_a_cycle_and_a_private_import() -> None:
    """The checks can fail: a two-module cycle and a type-checking-only import."""
    edges = {"a": {"b"}, "b": {"a"}, "c": {"a"}}
    assert cycles(edges) == [frozenset({"a", "b"})]
    tree = ast.parse(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import referee.x\n"
        "try:\n    import referee.y\nexcept ImportError:\n    pass\n"
        "def f():\n    import referee.z\n"
    )
    loaded = {a.name for n in _loaded_imports(tree.body) for a in n.names}
    assert "referee.y" in loaded and "referee.x" not in loaded and "referee.z" not in loaded
    every = {a.name for n in _all_imports(tree) for a in n.names}
    assert {"referee.x", "referee.y", "referee.z"} <= every
    hints = {a.name for n in _type_checking_imports(tree.body) for a in n.names}
    assert hints == {"referee.x"}
