"""Reading a declared game's ``[game]`` table (``referee/source/gamedecl.py`` says what it
declares; ``docs/declared-games.md`` documents it), each problem a ``file:line:col``
diagnostic at its key."""

from __future__ import annotations

import re
from typing import Any

from referee.source.base import MODULE_FILE, Ctx, check_keys
from referee.source.diagnostics import did_you_mean
from referee.source.gamedecl import GameDecl, GameDice, GamePhase
from referee.source.tomlpos import TomlText

GAME_KEYS = (
    "values",
    "categories",
    "unit_types",
    "flags",
    "terrain",
    "tables",
    "victory_conditions",
    "masked_backs",
    "phase",
    "dice",
)
NAME_LISTS = (
    "values",
    "categories",
    "flags",
    "terrain",
    "tables",
    "victory_conditions",
    "masked_backs",
)
"""The keys of [game] that hold a list of names."""
PHASE_KEYS = ("id", "name", "side", "rule", "once")
DICE_KEYS = ("name", "dice", "sides", "rule")
PHASE_SIDES = ("first", "second", "")
_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_\-]*$")


def load_game(ctx: Ctx, data: dict[str, Any], tt: TomlText) -> GameDecl | None:
    """The ``[game]`` table read and checked (``None`` when there is none). Every problem is
    a diagnostic at the line of its key."""
    raw = data.get("game")
    if raw is None:
        return None
    ln = tt.table_start("game")
    if not isinstance(raw, dict):
        ctx.diags.error(
            MODULE_FILE, ln, "[game] must be a table", hint="see docs/declared-games.md"
        )
        return None
    check_keys(ctx, MODULE_FILE, tt, raw, ln, "[game]", GAME_KEYS)
    lists = {k: _names(ctx, tt, raw, k, ln) for k in NAME_LISTS}
    return GameDecl(
        values=lists["values"],
        categories=lists["categories"],
        unit_types=_unit_types(ctx, tt, raw, lists["categories"]),
        flags=lists["flags"],
        terrain=lists["terrain"],
        tables=lists["tables"],
        victory_conditions=lists["victory_conditions"],
        masked_backs=lists["masked_backs"],
        phases=_phases(ctx, tt, raw),
        dice=_dice(ctx, tt, raw),
    )


def _names(
    ctx: Ctx, tt: TomlText, raw: dict[str, Any], key: str, start: int | None
) -> tuple[str, ...]:
    """A list of simple names (``values = ["ATK", "DEF"]``), each once."""
    value = raw.get(key, [])
    line = tt.key_line(key, start=start)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        ctx.diags.error(
            MODULE_FILE, line, f"[game] {key} must be a list of names", hint=f'{key} = ["a", "b"]'
        )
        return ()
    seen: list[str] = []
    for v in value:
        vline, col = tt.value_pos(v, start=start)
        if not _NAME_RE.match(v):
            ctx.diags.error(
                MODULE_FILE,
                vline,
                f"[game] {key}: {v!r} is not a simple name",
                col=col,
                hint="letters, digits, '_' and '-', starting with a letter",
            )
        elif v in seen:
            ctx.diags.error(MODULE_FILE, vline, f"[game] {key}: {v!r} twice", col=col)
        else:
            seen.append(v)
    return tuple(seen)


def _unit_types(
    ctx: Ctx, tt: TomlText, raw: dict[str, Any], categories: tuple[str, ...]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``[game.unit_types]``: category -> its types (empty: any type)."""
    value = raw.get("unit_types", {})
    start = tt.table_start("game.unit_types")
    if not isinstance(value, dict):
        ctx.diags.error(MODULE_FILE, start, "[game] unit_types must be a table")
        return ()
    out: list[tuple[str, tuple[str, ...]]] = []
    for cat in value:
        if cat not in categories:
            ctx.diags.error(
                MODULE_FILE,
                tt.key_line(cat, start=start),
                f"[game.unit_types] names category {cat!r}, which [game] categories lacks",
                hint=did_you_mean(cat, categories) or "categories: " + ", ".join(categories),
            )
            continue
        out.append((cat, _names(ctx, tt, value, cat, start)))
    return tuple(out)


def _blocks(
    ctx: Ctx, tt: TomlText, raw: dict[str, Any], key: str, allowed: tuple[str, ...]
) -> list[tuple[dict[str, Any], int | None]]:
    """The ``[[game.KEY]]`` tables with their lines, unknown keys reported."""
    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        ctx.diags.error(MODULE_FILE, tt.table_start("game"), f"'{key}' must be [[game.{key}]]")
        return []
    starts = tt.block_starts(f"game.{key}")
    out = []
    for i, t in enumerate(value):
        ln = starts[i] if i < len(starts) else None
        check_keys(ctx, MODULE_FILE, tt, t, ln, f"[[game.{key}]]", allowed)
        out.append((t, ln))
    return out


def _text(ctx: Ctx, t: dict[str, Any], key: str, ln: int | None, tt: TomlText, what: str) -> str:
    value = t.get(key, "")
    if not isinstance(value, str):
        ctx.diags.error(MODULE_FILE, tt.key_line(key, start=ln), f"{what}: '{key}' must be text")
        return ""
    return value


def _phases(ctx: Ctx, tt: TomlText, raw: dict[str, Any]) -> tuple[GamePhase, ...]:
    """``[[game.phase]]``: the sequence of play, in order; every id once."""
    out: list[GamePhase] = []
    for t, ln in _blocks(ctx, tt, raw, "phase", PHASE_KEYS):
        pid = _text(ctx, t, "id", ln, tt, "[[game.phase]]")
        if not _NAME_RE.match(pid):
            ctx.diags.error(
                MODULE_FILE,
                tt.key_line("id", start=ln),
                f"[[game.phase]] id {pid!r} must be a simple name",
                hint="letters, digits, '_' and '-', starting with a letter: the orders' phase",
            )
            continue
        if any(p.id == pid for p in out):
            ctx.diags.error(MODULE_FILE, tt.key_line("id", start=ln), f"phase {pid!r} twice")
            continue
        side = _text(ctx, t, "side", ln, tt, "[[game.phase]]")
        if side not in PHASE_SIDES:
            ctx.diags.error(
                MODULE_FILE,
                tt.key_line("side", start=ln),
                f"[[game.phase]] {pid}: side {side!r} is not first, second or empty",
                hint="first: the scenario's first player acts; second: the other; empty: none",
            )
            side = ""
        once = t.get("once", False)
        name = _text(ctx, t, "name", ln, tt, "[[game.phase]]") or pid
        rule = _text(ctx, t, "rule", ln, tt, "[[game.phase]]")
        out.append(GamePhase(pid, name, side, rule, once is True))
    if out and not any(p.side for p in out):
        ctx.diags.error(
            MODULE_FILE,
            tt.block_starts("game.phase")[0],
            "[[game.phase]]: no step names a side, so no side would ever be due",
            hint='give the steps where a player acts side = "first" or side = "second"',
        )
    return tuple(out)


def _dice(ctx: Ctx, tt: TomlText, raw: dict[str, Any]) -> tuple[GameDice, ...]:
    """``[[game.dice]]``: the Dice menu's rolls (1-20 dice of 2-100 sides)."""
    out: list[GameDice] = []
    for t, ln in _blocks(ctx, tt, raw, "dice", DICE_KEYS):
        name = _text(ctx, t, "name", ln, tt, "[[game.dice]]")
        dice, sides = t.get("dice", 1), t.get("sides", 6)
        ok = all(isinstance(x, int) and not isinstance(x, bool) for x in (dice, sides))
        if not name or not ok or not (1 <= dice <= 20 and 2 <= sides <= 100):
            ctx.diags.error(
                MODULE_FILE,
                ln,
                f"[[game.dice]] {name or '?'}: needs a name, 1-20 dice of 2-100 sides",
                hint='name = "2d6", dice = 2, sides = 6',
            )
            continue
        out.append(GameDice(name, dice, sides, _text(ctx, t, "rule", ln, tt, "[[game.dice]]")))
    return tuple(out)
