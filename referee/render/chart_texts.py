"""The words a ruleset gives its charts: ``templates/charts/<ruleset>.toml`` (footnotes, the
sequence of play), read once per file version. The charts of module data
(:mod:`referee.render.charts`) and the charts of a module's own tables
(:mod:`referee.render.tablechart`) both read them.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from referee.errors import UserError
from referee.resources import templates_dir


@lru_cache(maxsize=16)
def _ruleset_texts_cached(path: str, mtime_ns: int) -> dict[str, Any]:
    from referee.safeio import read_text

    try:
        return tomllib.loads(read_text(Path(path)))
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: {exc}", hint="fix the chart text file's TOML") from None


def ruleset_texts(ruleset: str) -> dict[str, Any]:
    """``templates/charts/<ruleset>.toml``, or an empty table when the ruleset has none."""
    path = templates_dir() / "charts" / f"{ruleset}.toml"
    if not path.is_file():
        return {}
    return _ruleset_texts_cached(str(path), path.stat().st_mtime_ns)
