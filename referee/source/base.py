"""What every part of the module-source loader shares.

The loading steps (``basics``, ``units``, ``tables``, ``maps``, ``scenario``) each read one
kind of file; they all import this module and nothing imports them back except the
orchestrating :mod:`referee.source.loader`. Here live the shared context (:class:`Ctx`: the
source root, the diagnostics, the ruleset's schema), safe reads of TOML and CSV files, and the
typed getters that turn a TOML value into a checked Python value with a ``file:line``
diagnostic instead of an exception.
"""

from __future__ import annotations

import csv
import io
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.safeio import UnsafeInput, read_text, resolve_inside
from referee.source.diagnostics import Diagnostics, did_you_mean
from referee.source.schema import RulesetSchema
from referee.source.tomlpos import TomlText, toml_error_position

MODULE_FILE = "module.toml"
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$")
COLOR_RE = re.compile(r"^#[0-9A-Fa-f]{6}$")


@dataclass(slots=True)
class Ctx:
    """What the loading steps share: the root, the diagnostics and the ruleset's schema."""

    root: Path
    diags: Diagnostics
    schema: RulesetSchema | None = None

    def read(
        self, name: str, *, what: str, file: str = MODULE_FILE, line: int | None = None
    ) -> tuple[str, str] | None:
        """Read a file named in the source; refuse escapes, huge and binary files."""
        try:
            path = resolve_inside(self.root, name, what=what)
            return name, read_text(path, display=name)
        except UnsafeInput as exc:
            if exc.path == name and exc.line is not None:
                self.diags.error(name, exc.line, exc.message, col=exc.col, hint=exc.hint)
            elif exc.message == "file not found":
                self.diags.error(
                    file,
                    line,
                    f"{what} {name!r} not found",
                    hint="file names are relative to the source folder",
                )
            else:
                self.diags.error(file, line, exc.message, hint=exc.hint)
            return None

    def toml(
        self, name: str, *, what: str, file: str = MODULE_FILE, line: int | None = None
    ) -> tuple[dict[str, Any], TomlText] | None:
        got = self.read(name, what=what, file=file, line=line)
        if got is None:
            return None
        _, text = got
        try:
            return tomllib.loads(text), TomlText(text)
        except tomllib.TOMLDecodeError as exc:
            ln, col = toml_error_position(str(exc), text)
            msg = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(exc))
            self.diags.error(
                name,
                ln,
                f"malformed TOML: {msg}",
                col=col,
                hint="check quotes, brackets and '=' signs",
            )
            return None


def get_color(ctx: Ctx, file: str, line: int | None, value: object, what: str) -> str:
    """A ``#RRGGBB`` colour, upper-cased; anything else is reported and grey returned."""
    if isinstance(value, str) and COLOR_RE.match(value):
        return value.upper()
    ctx.diags.error(file, line, f'{what} must be a colour like "#1F4E9C", got {value!r}')
    return "#808080"


def get_str(
    ctx: Ctx,
    file: str,
    line: int | None,
    table: dict[str, Any],
    key: str,
    what: str,
    *,
    required: bool = True,
    default: str = "",
) -> str:
    """``table[key]`` as a string; a missing (when required) or non-string value is reported."""
    value = table.get(key)
    if value is None:
        if required:
            ctx.diags.error(file, line, f"{what}: missing '{key}'")
        return default
    if not isinstance(value, str):
        ctx.diags.error(file, line, f"{what}: '{key}' must be a string, got {value!r}")
        return default
    return value


def get_int(
    ctx: Ctx,
    file: str,
    line: int | None,
    table: dict[str, Any],
    key: str,
    what: str,
    *,
    default: int = 0,
    lo: int | None = None,
    hi: int | None = None,
    required: bool = True,
) -> int:
    """``table[key]`` as a whole number within ``lo..hi``; reports and returns ``default``."""
    value = table.get(key)
    if value is None:
        if required:
            ctx.diags.error(file, line, f"{what}: missing '{key}'")
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        ctx.diags.error(file, line, f"{what}: '{key}' must be a whole number, got {value!r}")
        return default
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        ctx.diags.error(
            file,
            line,
            f"{what}: '{key}' = {value} is out of range "
            f"({lo if lo is not None else '-inf'}..{hi if hi is not None else 'inf'})",
        )
        return default
    return value


def get_num(
    ctx: Ctx,
    file: str,
    line: int | None,
    table: dict[str, Any],
    key: str,
    what: str,
    *,
    default: float,
    lo: float,
    hi: float,
) -> float:
    """``table[key]`` as a number within ``lo..hi`` (``default`` when absent)."""
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        ctx.diags.error(file, line, f"{what}: '{key}' must be a number, got {value!r}")
        return default
    if not lo <= float(value) <= hi:
        ctx.diags.error(file, line, f"{what}: '{key}' = {value} is out of range ({lo}..{hi})")
        return default
    return float(value)


def check_top(
    ctx: Ctx, file: str, tt: TomlText, data: dict[str, Any], allowed: tuple[str, ...]
) -> None:
    """Report a top-level key or table the file kind does not know (with a did-you-mean)."""
    for key in data:
        if key not in allowed:
            ln = tt.table_start(key) or tt.block_starts(key)[:1] or [tt.key_line(key)]
            line = ln if isinstance(ln, int) else ln[0]
            ctx.diags.error(
                file,
                line,
                f"unknown top-level key or table {key!r}",
                hint=did_you_mean(key, allowed) or "expected: " + ", ".join(allowed),
            )


def check_keys(
    ctx: Ctx,
    file: str,
    tt: TomlText,
    table: dict[str, Any],
    ln: int | None,
    header: str,
    allowed: tuple[str, ...],
) -> None:
    """Report keys of one table that are not in ``allowed`` (usually typos)."""
    for key in table:
        if key not in allowed:
            ctx.diags.error(
                file,
                tt.key_line(key, start=ln),
                f"unknown key {key!r} in {header}",
                hint=did_you_mean(key, allowed) or "keys: " + ", ".join(allowed),
            )


def list_of_tables(
    ctx: Ctx,
    file: str,
    data: dict[str, Any],
    key: str,
    tt: TomlText | None = None,
    allowed: tuple[str, ...] = (),
) -> list[dict]:
    """The ``[[key]]`` array of tables; with ``tt`` and ``allowed``, unknown keys are reported."""
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        ctx.diags.error(file, None, f"'{key}' must be an array of tables ([[{key}]])")
        return []
    if tt is not None and allowed:
        starts = tt.block_starts(key)
        for i, t in enumerate(value):
            check_keys(
                ctx,
                file,
                tt,
                t,
                starts[i] if i < len(starts) else None,
                f"[[{key}]]",
                allowed,
            )
    return value


# ---- CSV -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CsvFile:
    """A CSV file's header (and its line) and rows: ``(line, cells by column, line text)``."""

    header_line: int
    header: list[str]
    rows: list[tuple[int, dict[str, str], str]]


def read_csv_file(
    ctx: Ctx, name: str, *, what: str, line: int | None, required: list[str]
) -> CsvFile | None:
    """A CSV file named on ``line`` of module.toml; blank lines and ``#`` lines are skipped.
    Rows with the wrong number of cells are reported and left out."""
    got = ctx.read(name, what=what, line=line)
    if got is None:
        return None
    _, text = got
    lines = [
        (i + 1, ln)
        for i, ln in enumerate(text.split("\n"))
        if ln.strip() and not ln.lstrip().startswith("#")
    ]
    if not lines:
        ctx.diags.error(name, None, f"{what} is empty")
        return None
    try:
        header = next(csv.reader(io.StringIO(lines[0][1])))
    except csv.Error as exc:
        ctx.diags.error(name, lines[0][0], f"malformed CSV header: {exc}")
        return None
    header = [h.strip() for h in header]
    for need in required:
        if need not in header:
            ctx.diags.error(
                name,
                lines[0][0],
                f"missing column {need!r}",
                hint=did_you_mean(need, header) or "columns: " + ", ".join(required),
            )
    dup = {h for h in header if header.count(h) > 1}
    for h in sorted(dup):
        ctx.diags.error(name, lines[0][0], f"column {h!r} appears twice")
    rows: list[tuple[int, dict[str, str], str]] = []
    for lineno, raw in lines[1:]:
        try:
            cells = next(csv.reader(io.StringIO(raw)))
        except csv.Error as exc:
            ctx.diags.error(name, lineno, f"malformed CSV: {exc}")
            continue
        if len(cells) != len(header):
            ctx.diags.error(
                name,
                lineno,
                f"{len(cells)} cells but the header has {len(header)} columns",
                hint="check for a missing or extra comma",
            )
            continue
        rows.append((lineno, {h: c.strip() for h, c in zip(header, cells, strict=True)}, raw))
    return CsvFile(lines[0][0], header, rows)


def read_csv(
    ctx: Ctx, name: str, *, what: str, line: int | None, required: list[str]
) -> tuple[list[tuple[int, dict[str, str]]], list[str]] | None:
    """Rows of a CSV file with their line numbers (see :func:`read_csv_file`)."""
    got = read_csv_file(ctx, name, what=what, line=line, required=required)
    if got is None:
        return None
    return [(ln, cells) for ln, cells, _ in got.rows], got.header


def col_of(header: list[str], key: str) -> int:
    """The 1-based column of ``key`` in a CSV header, for diagnostics (1 when absent)."""
    return header.index(key) + 1 if key in header else 1
