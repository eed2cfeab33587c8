"""Issue 30: every refusal names the rule it applies. A scan of every ruleset's source finds each text a refusal is
built from (`IllegalCommand(...)`, `require(..., why)`, what a `why_not_*` returns) and holds it to name an id that its
ruleset's docs/rules page documents; the HTTP contract (tests/test_api_contract.py) checks the answers themselves."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULESETS = {  # package -> its page of ids
    "aa1942_convoy": "aa1942-convoy",
    "battlefleet_1900": "battlefleet-1900",
    "corvette_command": "corvette-command",
    "uboat_leader": "uboat-leader",
}
# an id as the pages write them: AA-R7, UL-21, UL-S3, CC-E5-1, BF-R12, BF:2.1
ID = re.compile(r"\b(?:AA|UL|CC|BF)-[A-Z]?\d+(?:-\d+)?\b|\bBF:\d\.\d\b")
# a refusal whose text comes whole from a variable or call (`IllegalCommand(why)`) is checked where that text is made;
# an f-string that carries such a reason (`{why}`) names its rule through it
REASONS = {"why", "reason", "detail"}


def documented(page: str) -> set[str]:
    """The ids a page names, with its ranges ("CC-R1 to CC-R10 are the project's first rulings") spelled out."""
    text = (ROOT / "docs" / "rules" / f"{page}.md").read_text()
    ranges = re.findall(r"\b([A-Z]{2}-R)(\d+) to \1(\d+)\b", text)
    return set(ID.findall(text)) | {f"{p}{n}" for p, a, b in ranges for n in range(int(a), int(b) + 1)}


def literal(node: ast.expr) -> str | None:
    """The text a refusal's argument writes itself, or None where it passes on a reason made elsewhere."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        names = {
            n.id
            for v in node.values
            if isinstance(v, ast.FormattedValue)
            for n in ast.walk(v)
            if isinstance(n, ast.Name)
        }
        if names & REASONS:
            return None
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        parts = [literal(node.left), literal(node.right)]
        return None if None in parts else "".join(p for p in parts if p)
    if isinstance(node, ast.IfExp):  # `"reason" if … else None`: a None branch refuses nothing
        parts = [literal(b) for b in (node.body, node.orelse) if not (isinstance(b, ast.Constant) and b.value is None)]
        return None if None in parts else " | ".join(p for p in parts if p)
    return None


def refusal_texts(tree: ast.AST):
    """(line, text) of every refusal text the module writes."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            args = {"IllegalCommand": node.args[:1], "require": node.args[2:3]}.get(name, [])
            for a in args:
                text = literal(a)
                if text is not None:
                    yield node.lineno, text
        if isinstance(node, ast.FunctionDef) and any(
            isinstance(n, ast.Call) and getattr(n.func, "id", None) == "IllegalCommand" for n in ast.walk(node)
        ):  # `why = "…"` in a function that refuses: a reason written for the refusal below
            for a in ast.walk(node):
                if isinstance(a, ast.Assign) and any(isinstance(t, ast.Name) and t.id in REASONS for t in a.targets):
                    text = literal(a.value)
                    if text is not None:
                        yield a.lineno, text
        if isinstance(node, ast.FunctionDef) and node.name.startswith("why_not"):
            for r in ast.walk(node):
                if isinstance(r, ast.Return) and r.value is not None:
                    text = literal(r.value)
                    if text is not None:
                        yield r.lineno, text


@pytest.mark.parametrize("package", sorted(RULESETS))
def test_every_refusal_text_names_a_documented_rule(package):
    ids = documented(RULESETS[package])
    missing, unknown = [], []
    for path in sorted((ROOT / "domain" / package).rglob("*.py")):
        for line, text in refusal_texts(ast.parse(path.read_text())):
            named = ID.findall(text)
            where = f"{path.relative_to(ROOT)}:{line}: {text!r}"
            if not named:
                missing.append(where)
            unknown += [
                f"{where} names {x}, which docs/rules/{RULESETS[package]}.md does not" for x in named if x not in ids
            ]
    assert not missing, "refusals that name no rule:\n" + "\n".join(missing)
    assert not unknown, "\n".join(unknown)


def test_the_scan_finds_a_refusal_without_an_id():
    """The scan would catch the next refusal written without its rule."""
    tree = ast.parse(
        "def f(s):\n    raise IllegalCommand(f'{s} may not')\n"
        "def why_not_x(s):\n    return 'no' if s else None\n"
        "def g(s, cmd):\n    require(cmd, [], f'{s} cannot')\n"
        "def h(why):\n    raise IllegalCommand(f'no raid: {why}')\n"
    )
    texts = [t for _, t in refusal_texts(tree)]
    assert sorted(texts) == ["no", "{} cannot", "{} may not"]
    assert not any(ID.search(t) for t in texts)
