"""Diagnostics: the ``file:line:col: message`` lines that ``referee check`` prints.

Every problem found in a module source (or an orders file, or a VASSAL file) becomes one
:class:`Diagnostic`. Loaders collect them instead of raising, so one run reports every problem,
and nothing ever reaches the user as a Python traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem, with where it is and, when we can guess, how to fix it."""

    file: str
    line: int | None
    col: int | None
    message: str
    hint: str | None = None
    severity: Severity = "error"

    def location(self) -> str:
        out = self.file
        if self.line is not None:
            out += f":{self.line}"
            if self.col is not None:
                out += f":{self.col}"
        return out

    def __str__(self) -> str:
        text = f"{self.location()}: {self.severity}: {self.message}"
        if self.hint:
            text += f" (hint: {self.hint})"
        return text

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint,
        }


@dataclass(slots=True)
class Diagnostics:
    """An ordered collection of diagnostics, relative to one root folder."""

    root: Path | None = None
    items: list[Diagnostic] = field(default_factory=list)

    def rel(self, path: Path | str) -> str:
        p = Path(path)
        if self.root is not None:
            try:
                return p.relative_to(self.root).as_posix()
            except ValueError:
                pass
        return p.as_posix()

    def error(
        self,
        file: Path | str,
        line: int | None,
        message: str,
        *,
        col: int | None = None,
        hint: str | None = None,
    ) -> None:
        self._add(Diagnostic(self.rel(file), line, col, message, hint, "error"))

    def warning(
        self,
        file: Path | str,
        line: int | None,
        message: str,
        *,
        col: int | None = None,
        hint: str | None = None,
    ) -> None:
        self._add(Diagnostic(self.rel(file), line, col, message, hint, "warning"))

    def _add(self, d: Diagnostic) -> None:
        """Keep the first of identical reports (a base scenario is read once per scenario
        that extends it, and its problems should be listed once)."""
        if d not in self.items:
            self.items.append(d)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "warning"]

    def __bool__(self) -> bool:
        return bool(self.errors)


def suggest(word: str, choices: list[str] | set[str] | tuple[str, ...]) -> str | None:
    """The nearest real name to a misspelt one, for hints like ``did you mean 'US-CV-1'?``."""
    import difflib

    pool = sorted(choices)
    match = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    if not match:
        lowered = {c.lower(): c for c in pool}
        if word.lower() in lowered:
            return lowered[word.lower()]
        match = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
        if not match and len(word) <= 3:
            # a short code has few letters to compare: 'Gx' is half 'Gr', the nearest code
            match = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.5)
        return lowered[match[0]] if match else None
    return match[0]


def did_you_mean(word: str, choices: list[str] | set[str] | tuple[str, ...]) -> str | None:
    s = suggest(word, choices)
    return f"did you mean {s!r}?" if s else None
