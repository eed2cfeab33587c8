"""The import graph (docs/architecture.md "The layers"): no import circle anywhere in `domain/`, `events/` and `service/`
(imports inside functions counted: a deferred import is still a dependency); no floor imports the one above it
(`events/` nothing of `domain/` or `service/`, `domain/` nothing of `service/`); and the fold does not depend on the
decide side: no ruleset's evolve (its `evolve` module or package, and the state module it folds into) imports any
module of its `rules/`, directly or through another module of the domain."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted(p.parent.name for p in (ROOT / "domain").glob("*/state.py"))


def _reached(start: str) -> dict[str, str]:
    """Every module reachable from `start` in the import graph, each with the module that imports it."""
    graph = _graph()
    seen, todo = {start: ""}, [start]
    while todo:
        name = todo.pop()
        for m in sorted(graph[name]):
            if m not in seen:
                seen[m] = name
                todo.append(m)
    return seen


def _evolve_modules(ruleset: str) -> list[str]:
    pkg = ROOT / "domain" / ruleset
    files = [pkg / "state.py", pkg / "evolve.py", *sorted((pkg / "evolve").glob("*.py"))]
    return [".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__") for p in files if p.exists()]


def test_every_served_ruleset_is_walked():
    from service.rulesets import RULESET_MODULES

    assert {m.removeprefix("domain.") for m in RULESET_MODULES} <= set(RULESETS)


def _all_modules() -> dict[str, Path]:
    found = {}
    for floor in FLOORS:
        for p in (ROOT / floor).rglob("*.py"):
            found[".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")] = p
    return found


FLOORS = ("events", "domain", "service")  # bottom up


@functools.cache
def _graph() -> dict[str, set[str]]:
    """Each module of the three floors and the modules of them it imports. An import of a module's own package is
    left out (Python runs a package's __init__ before any of its modules: that is not a dependency of the module's)."""
    modules = _all_modules()
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        named = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                named |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                subs = [f"{base}.{a.name}" for a in node.names]
                named |= {m for m in subs if m in modules}
                if not all(m in modules for m in subs):
                    named.add(base)
        deps = set()
        for m in named:
            while m and m not in modules:
                m = m.rpartition(".")[0]
            if m and m != name and not name.startswith(m + "."):
                deps.add(m)
        graph[name] = deps
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def test_no_import_circle():
    assert _circles(_graph()) == []


def test_the_walk_finds_a_circle_when_there_is_one():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_floor_imports_one_above_it():
    up = [
        (m, d)
        for m, deps in _graph().items()
        for d in deps
        if FLOORS.index(d.split(".")[0]) > FLOORS.index(m.split(".")[0])
    ]
    assert up == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_evolve_module_imports_a_rules_module(ruleset):
    rules = f"domain.{ruleset}.rules"
    for start in _evolve_modules(ruleset):
        reached = _reached(start)
        bad = sorted(m for m in reached if m == rules or m.startswith(rules + "."))
        assert not bad, f"{start} reaches {bad[0]} (imported by {reached[bad[0]]})"
