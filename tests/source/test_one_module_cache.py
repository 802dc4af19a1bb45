"""One module cache [issue 25 §1]: what is computed from a loaded module alone is kept by
``referee.source.memo.per_module``; no other module keeps a cache keyed by a module's
identity."""

from __future__ import annotations

import re
from pathlib import Path

REFEREE = Path(__file__).resolve().parents[2] / "referee"
KEYED_BY_MODULE = re.compile(r"\bid\((?:module|mod|self\.module|\w+\.module)\)")


def test_only_the_memo_keys_a_cache_by_a_module_object() -> None:
    found = [
        f"{path.relative_to(REFEREE.parent)}:{n}"
        for path in sorted(REFEREE.rglob("*.py"))
        if path.name != "memo.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if KEYED_BY_MODULE.search(line)
    ]
    assert found == [], "keep it with referee.source.memo.per_module instead"


def test_the_scan_would_catch_one() -> None:
    assert KEYED_BY_MODULE.search("    hit = _NAMES.get(id(module))")
    assert not KEYED_BY_MODULE.search("    hit = _PARSED.get(id(doc))")
