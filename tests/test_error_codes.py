"""Every problem `code` the service and the rules can send is in docs/api.md "Errors" (a code missing there is one a
frontend author meets with no word on what it means or what to do), and the table lists none that nothing sends."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
# codes that never reach an HTTP answer; docs/api.md names them below the table, and says where each is met
NOT_HTTP = {"bundle-unverified", "replay", "not-on-the-clock", "invalid-game-id"}


def errors_section() -> str:
    return (ROOT / "docs" / "api.md").read_text(encoding="utf-8").split("## Errors", 1)[1].split("\n## ", 1)[0]


def documented() -> set[str]:
    """The codes of the table's rows (`| <status> | <codes> | <when> |`)."""
    rows = [line.split("|")[2] for line in errors_section().splitlines() if re.match(r"\| (\d{3}|\(as sent\)) \|", line)]
    return {c for row in rows for c in re.findall(r"`([a-z][a-z0-9-]*)`", row)}


def rejected_classes(trees: list[ast.Module]) -> set[str]:
    """Rejected and every class derived from it, by name, in the code read (to a fixpoint)."""
    names = {"Rejected"}
    while True:
        more = {
            node.name
            for tree in trees
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef)
            and any((b.id if isinstance(b, ast.Name) else getattr(b, "attr", None)) in names for b in node.bases)
        }
        if more <= names:
            return names
        names |= more


def literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def sent_codes() -> dict[str, str]:
    """code -> one place that sends it: the first argument of a Rejected (or subclass) raised, the code argument of
    `problem(status, code, …)` and of the raw server's `_response(status, title, code, …)`, the codes of the
    framework's errors (`{404: "not-found", …}.get(status, "http-error")`) and of a command's extras."""
    files = [p for d in ("service", "domain", "events") for p in sorted((ROOT / d).rglob("*.py"))]
    trees = [ast.parse(p.read_text(encoding="utf-8")) for p in files]
    classes = rejected_classes(trees) - {"IllegalCommand"}  # its first argument is the reason; its code is fixed
    found: dict[str, str] = {"illegal-command": "domain/engine.py IllegalCommand"}
    for path, tree in zip(files, trees):
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            picks: list[ast.AST] = []
            if name in classes and node.args:
                picks = [node.args[0]]
            elif name == "problem" and len(node.args) >= 2:
                picks = [node.args[1]]
            elif name == "_response" and len(node.args) >= 3:
                picks = [node.args[2]]
            elif name == "get" and isinstance(f, ast.Attribute) and isinstance(f.value, ast.Dict):
                if all(isinstance(k, ast.Constant) and k.value in range(100, 600) for k in f.value.keys):
                    picks = [*f.value.values, *node.args[1:]]  # an HTTP status's code, and the default
            for pick in picks:
                code = literal(pick)
                if code is not None and CODE.match(code):
                    found.setdefault(code, f"{where}:{node.lineno}")
    from service.models import COMMAND_EXTRAS

    for _, _, code in COMMAND_EXTRAS:
        found.setdefault(code, "service/models.py COMMAND_EXTRAS")
    return found


def test_every_code_the_server_sends_is_in_the_errors_table():
    sent = sent_codes()
    assert len(sent) > 60, sorted(sent)  # the scan finds them (a refactor that hides them fails here, not silently)
    missing = {code: where for code, where in sent.items() if code not in documented() and code not in NOT_HTTP}
    assert missing == {}, f'add these to docs/api.md "Errors" (status, code, when): {missing}'


def test_the_table_lists_no_code_nothing_sends_and_names_those_no_http_answer_carries():
    sent = sent_codes()
    assert sorted(documented() - set(sent)) == []
    assert NOT_HTTP <= set(sent) and not NOT_HTTP & documented()
    below = errors_section().split("\n\n")[-1] if "never an HTTP answer" in errors_section() else ""
    assert all(f"`{code}`" in below for code in NOT_HTTP), below
