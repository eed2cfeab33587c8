"""docs/architecture.md "Add a ruleset" can be followed literally: it shows every file of its toy ruleset
(tests/convoy_dash/ and tests/test_convoy_dash.py) whole, each block exactly the file as it is."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHOWN = re.compile(r"^`(tests/[\w/.]+)`:\n```\w+\n(.*?)^```$", re.M | re.S)  # a file's path, then its whole text


def _section() -> str:
    text = (ROOT / "docs" / "architecture.md").read_text()
    return text.split("\n## Add a ruleset\n", 1)[1].split("\n## ", 1)[0]


def test_the_section_shows_every_file_of_the_toy_as_it_is():
    shown = dict(SHOWN.findall(_section()))
    toy = [p for p in (ROOT / "tests" / "convoy_dash").rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    files = {p.relative_to(ROOT).as_posix() for p in toy} | {"tests/test_convoy_dash.py"}
    assert sorted(shown) == sorted(files)
    for path, text in shown.items():
        assert (ROOT / path).read_text() == text, f"{path} differs from what docs/architecture.md shows"
