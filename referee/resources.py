"""Where the bundled templates and example module sources live.

In a source checkout they are the top-level ``templates/`` and ``module_src/`` folders. In an
installed wheel they are shipped as package data under ``referee/_bundled/`` (see
``pyproject.toml``), so ``referee check --example sixth_fleet`` works from any directory.
"""

from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent


def _first_existing(*candidates: Path) -> Path:
    for c in candidates:
        if c.is_dir():
            return c
    return candidates[0]


def templates_dir() -> Path:
    return _first_existing(_PKG / "_bundled" / "templates", _PKG.parent / "templates")


def examples_dir() -> Path:
    return _first_existing(_PKG / "_bundled" / "module_src", _PKG.parent / "module_src")


def fonts_dir() -> Path:
    return _PKG / "fonts"


def example_names() -> list[str]:
    d = examples_dir()
    if not d.is_dir():
        return []
    return sorted(p.name for p in d.iterdir() if (p / "module.toml").is_file())


def example_path(name: str) -> Path | None:
    p = examples_dir() / name
    return p if (p / "module.toml").is_file() else None


def coverage_dir() -> Path:
    """The generated rules coverage pages (``docs/rules-coverage/`` in a checkout)."""
    return _first_existing(
        _PKG / "_bundled" / "rules-coverage", _PKG.parent / "docs" / "rules-coverage"
    )
