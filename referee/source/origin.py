"""Where a fact of a module source came from: the one small type the model and the map kinds
share (:mod:`referee.source.model` re-exports it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a fact came from: a file relative to the source root, and a line."""

    file: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file
