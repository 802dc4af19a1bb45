"""Finding the line of a TOML fact, so every problem can be reported as ``file:line``.

``tomllib`` gives values, not positions. Module sources are small, hand-written files, so we
recover positions from the text: the Nth ``[[header]]`` of an array of tables starts a block,
and inside a block the first line that assigns a key (or mentions a quoted value) is the place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(slots=True)
class TomlText:
    text: str
    lines: list[str] = field(init=False)
    _starts: dict[str, list[int]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.lines = self.text.split("\n")

    def block_starts(self, header: str) -> list[int]:
        """1-based line numbers of each ``[[header]]`` in order (each header's scan made once:
        the loaders ask again for every entry of a file)."""
        got = self._starts.get(header)
        if got is None:
            pat = re.compile(r"^\s*\[\[\s*" + re.escape(header) + r"\s*\]\]\s*(#.*)?$")
            got = self._starts[header] = [i + 1 for i, ln in enumerate(self.lines) if pat.match(ln)]
        return list(got)

    def table_start(self, header: str) -> int | None:
        pat = re.compile(r"^\s*\[\s*" + re.escape(header) + r"\s*\]\s*(#.*)?$")
        for i, ln in enumerate(self.lines):
            if pat.match(ln):
                return i + 1
        return None

    def _block_end(self, start: int) -> int:
        for i in range(start, len(self.lines)):
            if re.match(r"^\s*\[", self.lines[i]):
                return i
        return len(self.lines)

    def key_line(self, key: str, *, start: int | None = None) -> int | None:
        """The line assigning ``key`` inside the block starting at ``start`` (or anywhere)."""
        lo = start or 1
        hi = self._block_end(start) if start else len(self.lines)
        pat = re.compile(r"^\s*" + re.escape(key) + r"\s*=")
        for i in range(lo - 1, hi):
            if pat.match(self.lines[i]):
                return i + 1
        return start

    def value_pos(self, value: str, *, start: int | None = None) -> tuple[int | None, int | None]:
        """Line and column of a quoted ``value`` inside a block (or anywhere)."""
        lo = start or 1
        hi = self._block_end(start) if start else len(self.lines)
        needle = f'"{value}"'
        for i in range(lo - 1, hi):
            col = self.lines[i].find(needle)
            if col >= 0:
                return i + 1, col + 2
        # arrays may continue over several lines past a nested header; search the whole file
        for i, ln in enumerate(self.lines):
            col = ln.find(needle)
            if col >= 0:
                return i + 1, col + 2
        return start, None


def toml_error_position(message: str, text: str | None = None) -> tuple[int | None, int | None]:
    """Pull ``(line, col)`` out of a ``tomllib.TOMLDecodeError`` message.

    An error found at the end of the input (an unclosed array or string) says only
    ``(at end of document)``; given the ``text``, that is its last line, just past its last
    character, so the reader still gets a ``file:line:col`` to go to."""
    m = re.search(r"line (\d+), column (\d+)", message)
    if m:
        return int(m.group(1)), int(m.group(2))
    if text is not None and "at end of document" in message:
        lines = text.split("\n")
        return len(lines), len(lines[-1]) + 1
    m = re.search(r"line (\d+)", message)
    return (int(m.group(1)), None) if m else (None, None)
