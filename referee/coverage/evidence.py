"""What shows a case is applied: conformance cases that cite it, and tests that exist.

A conformance case is a JSON file with a ``cites`` list (every catalogue of the project has
one); the first case it cites is the case it is about, the others are the cases it also
exercises, and both count as evidence for their rows. A declared test is a path from the
repository root, optionally ``::test_name``; it exists when the file does and defines that
function.
"""

from __future__ import annotations

import json
import re
from pathlib import Path


def catalogue_cites(root: Path, globs: tuple[str, ...]) -> dict[str, list[str]]:
    """Case -> the conformance case files (paths from ``root``, sorted) citing it."""
    out: dict[str, set[str]] = {}
    for pattern in globs:
        for path in sorted(root.glob(pattern)):
            data = json.loads(path.read_text(encoding="utf-8"))
            cites = data.get("cites", []) if isinstance(data, dict) else []
            for case in cites:
                if isinstance(case, str):
                    out.setdefault(case, set()).add(path.relative_to(root).as_posix())
    return {k: sorted(v) for k, v in out.items()}


def test_exists(root: Path, ref: str) -> bool:
    """Is ``ref`` (``tests/x.py`` or ``tests/x.py::test_name``) a file, and the test in it?"""
    file, _, name = ref.partition("::")
    path = root / file
    if not path.is_file():
        return False
    if not name:
        return True
    name = name.split("[", 1)[0]
    pattern = re.compile(rf"^\s*def {re.escape(name)}\(", re.M)
    return bool(pattern.search(path.read_text(encoding="utf-8")))
