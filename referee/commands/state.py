"""``referee state new|show``: make the position before set-up, and look at a position.

Also the helpers ``validate`` and ``options`` share: reading a state file (bounded, UTF-8,
a clear message for anything else) and finding its module (``--module``, ``--example``, or the
bundled example whose module id the state names).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer

from referee.commands.common import (
    RefereeTyper,
    TextOrJson,
    example_option,
    format_option,
    json_option,
    module_option,
    quiet_option,
)
from referee.errors import UserError

# the format of a turn folder's view-SIDE.json (written by referee/pbem/record.py and
# publish.py; named here so that reading a view does not import the PBEM renderers)
VIEW_FORMAT = "referee-view/1"
STATE_HINT = (
    "pass a state.json (`referee state new`, or a game folder's), a turn folder's "
    "view-SIDE.json, or the game folder"
)


@dataclass(frozen=True, slots=True)
class Position:
    """The position a command works on: ``state``, read from ``source``; ``side`` is set when
    it is that side's published view (``view-SIDE.json``) rather than a full position."""

    state: Any  # GameState
    source: str
    side: str | None = None


@contextlib.contextmanager
def rules_reading(source: str, ruleset: str) -> Iterator[None]:
    """Run a ruleset on a position read from a file the user named (``--state``).

    The shape of ``state.json`` is checked at the edge (:mod:`referee.engine.state_shape`),
    but what a ruleset keeps under ``$.data`` is read by its rules as they go: a value
    deleted or retyped there ends in one message naming the file, exit 2, instead of an
    internal error (issue 31). ``REFEREE_DEBUG=1`` shows where the rules read it."""
    try:
        yield
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        if os.environ.get("REFEREE_DEBUG"):
            raise
        raise UserError(
            f"{source}: $.data does not hold what ruleset {ruleset} keeps there "
            f"({type(exc).__name__}: {str(exc)[:120]})",
            hint="use the state.json the referee wrote (or a turn folder's view); "
            "REFEREE_DEBUG=1 shows where the rules read it",
        ) from None


def read_state(path: Path):  # -> GameState
    """A state file (``-``: standard input) as a GameState; anything else is a UserError
    (exit 2), never a traceback."""
    return read_position(path).state


def key_option() -> Any:
    """``--key``: a player's key, which opens his part of a game with parts."""
    return typer.Option(
        None,
        "--key",
        metavar="KEY",
        help="With a game folder whose steps are split into encrypted parts: your private key "
        "(its passphrase from $REFEREE_PASSPHRASE or asked), which opens your side's view.",
    )


def read_position(path: Path, side: str | None = None, key: Path | None = None) -> Position:
    """The position ``--state`` names: a ``state.json`` (``-``: standard input); a turn
    folder's ``view-SIDE.json``, the position as that side may see it; or a game folder, whose
    ``state.json`` when the game hides nothing, else the latest turn's view of ``side`` (a
    game that hides information publishes no full position: issue 10 §5). Anything else is a
    UserError (exit 2), never a traceback."""
    from referee.commands.common import is_stdio, read_input_text, shown_name

    if not is_stdio(path) and path.is_dir():
        return _game_position(path, side, key)
    text = read_input_text(path, limit=32 * 1024 * 1024)
    return _position_from_text(text, shown_name(path), side)


def _position_from_text(text: str, shown: str, side: str | None) -> Position:
    from referee.engine.core import GameState

    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(
            f"{shown}:{exc.lineno}:{exc.colno}: not a JSON state file: {exc.msg}", hint=STATE_HINT
        ) from None
    except RecursionError:
        raise UserError(f"{shown}: JSON nested too deep") from None
    seen_by: str | None = None
    where = ""
    if isinstance(data, dict) and data.get("format") == VIEW_FORMAT:
        seen_by = data.get("side")
        if not isinstance(seen_by, str):
            raise UserError(f"{shown}: $.side: expected the side whose view this is")
        if side is not None and side != seen_by:
            raise UserError(
                f"{shown} is {seen_by}'s view; these orders are {side}'s",
                hint=f"use view-{side}.json of the same turn folder",
            )
        data, where = data.get("state"), "$.state: "
    try:
        state = GameState.from_json(data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise UserError(
            f"{shown}: {where}not a referee state file: {exc}", hint=STATE_HINT
        ) from None
    return Position(state, shown, seen_by)


def _game_position(game_dir: Path, side: str | None, key: Path | None = None) -> Position:
    """The current position of a game folder as a player may read it (see
    :func:`read_position`)."""
    from referee.pbem.archive import Archive, slug
    from referee.pbem.problems import Refusal

    archive = Archive(game_dir)
    try:
        archive.require()
        cfg = archive.config()
        latest = archive.turn_dirs()[-1]
        if not cfg.hides_information:
            path = archive.state_json
            return _position_from_text(
                archive.read(path).decode("utf-8", "replace"), str(path), side=None
            )
        if side is None or side not in cfg.players:
            players = ", ".join(sorted(cfg.players))
            raise UserError(
                f"{game_dir}: game {cfg.game_id} hides information, so it publishes no "
                "full position; a player validates on his own side's view"
                + (f" (no player side {side!r})" if side is not None else ""),
                hint=f"name your side (--side, or the orders' `side:` header; players: "
                f"{players}), or pass turns/{latest.name}/view-SIDE.json",
            )
        path = latest.path / f"view-{slug(side)}.json"
        if cfg.secrets is not None and cfg.secrets.parts and not path.is_file():
            return _view_in_part(archive, latest, side, key)
        return _position_from_text(archive.read(path).decode("utf-8", "replace"), str(path), side)
    except Refusal as exc:
        raise UserError(f"{game_dir}: {exc}", hint="`referee verify` says what is wrong") from None


def _view_in_part(archive: Any, latest: Any, side: str, key: Path | None) -> Position:
    """A side's latest view from its encrypted part (``docs/pbem.md``), opened with ``key``."""
    from referee.pbem.keys import load_private, passphrase_source
    from referee.pbem.parts import identity_of, open_part, part_file

    part = f"turns/{latest.name}/{part_file(side)}"
    if key is None:
        raise UserError(
            f"{archive.root}: {side}'s view is in its encrypted part {part}",
            hint=f"give your key (--key YOUR.key), or pass the view-{side}.json that "
            f"`age -d -i YOUR.key {part} | tar x` unpacks",
        )
    files = open_part(archive, latest, side, [identity_of(load_private(key, passphrase_source()))])
    name = next((n for n in files if n.startswith("view-") and n.endswith(".json")), None)
    if name is None:
        raise UserError(f"{part}: holds no view of {side}")
    return _position_from_text(files[name].decode("utf-8", "replace"), f"{part}:{name}", side)


def module_for(state: Any, src: Path | None, example: str | None):  # -> Module
    """The module a state belongs to: ``--module``/``--example`` or the bundled example with
    the state's module id."""
    from referee.commands.common import load_checked, load_game_source, resolve_source
    from referee.resources import example_names, example_path

    if src is not None or example is not None:
        module = load_game_source(resolve_source(src, example), quiet=True)
    else:
        module = None
        for name in example_names():
            p = example_path(name)
            if p is None:
                continue
            if _module_id(p / "module.toml") == state.module_id:
                module = load_checked(p, quiet=True)
                break
        if module is None:
            raise UserError(
                f"no bundled example has module id {state.module_id!r}",
                hint="name the module source with --module SRC",
            )
    if module.id != state.module_id:
        raise UserError(f"the state is for module {state.module_id!r}, not {module.id!r}")
    module.scenario(state.scenario)
    from referee.engine.graphboard import board_for
    from referee.engine.state_shape import check_state_fits
    from referee.shapes import ShapeError

    # a plain hex map's board contains exactly its hexes: ask the map, and spare building
    # the board's neighbour table, which the ruleset builds again anyway (start-up time)
    board = _HexIds(module.map.hexes) if module.map.kind == "hex" else board_for(module.map)
    try:
        check_state_fits(state, module, board, _declared_facts(module))
    except ShapeError as exc:
        raise UserError(
            f"the state does not fit module {module.id!r}: {exc}",
            hint="pass the state.json written by `referee state new` for this module",
        ) from None
    return module


def _declared_facts(module: Any):  # -> type[Facts] | None
    """The position facts the module's ruleset declares (``None``: it declares none)."""
    from referee.engine.ruleset import position_facts

    schema = module.schema
    if schema is None or schema.rules is None:
        return None
    return position_facts(schema.rules())


class _HexIds:
    """What :func:`check_state_fits` asks of a hex map's board: whether a hex is on it."""

    def __init__(self, hexes: Mapping[str, object]) -> None:
        self._hexes = hexes

    def contains(self, location: str) -> bool:
        return location in self._hexes


def _module_id(toml_path: Path) -> str | None:
    import tomllib

    try:
        return str(tomllib.loads(toml_path.read_text("utf-8"))["module"]["id"])
    except (OSError, KeyError, TypeError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return None


def summary_lines(module: Any, state: Any) -> list[str]:
    from referee.engine.ruleset import get_ruleset

    rs = get_ruleset(state.ruleset)
    side, what = rs.awaiting(module, state)
    lines = [
        f"game {state.game_id}: {module.name}, scenario {state.scenario}",
        f"now: {what}" + (f" (awaiting {side})" if side else ""),
    ]
    if state.options:
        lines.append("optional rules: " + ", ".join(state.options))
    for pd in state.pending:
        lines.append(
            f"pending {pd.id} [{pd.rule}] {pd.side}: {pd.prompt}: " + " | ".join(pd.options)
        )
    for s in module.sides:
        lines.append(f"{s.id}:")
        for h, ids in sorted(state.stacks.items()):
            mine = [u for u in ids if state.units[u].side == s.id]
            if mine:
                lines.append(
                    f"  {h}: "
                    + " ".join(
                        u + ("*" if "returning" in state.units[u].status else "") for u in mine
                    )
                )
        boxes: dict[str, list[str]] = {}
        for u in sorted(state.units.values(), key=lambda x: x.id):
            if u.side == s.id and u.location is None:
                boxes.setdefault(u.box or "?", []).append(u.id)
        for b, ids in sorted(boxes.items()):
            lines.append(f"  [{b}] " + " ".join(ids))
    from referee.pbem.scoreboard import score_line

    lines.append(score_line(module, rs.score(module, state), state.scenario))
    return lines


def check_png_destination(out: Path) -> None:
    """Refuse (exit 2, a hint) a ``--png`` that cannot be written, before anything is
    printed or drawn: a folder of that name, a file on its way, a folder we may not write."""
    import os

    if out.is_dir():
        raise UserError(f"--png {out} is a folder", hint="name a FILE.png")
    nearest = out.parent
    while not nearest.exists() and nearest.parent != nearest:
        nearest = nearest.parent
    if not nearest.is_dir() or not os.access(nearest, os.W_OK | os.X_OK):
        why = "is a file" if nearest.exists() and not nearest.is_dir() else "is not writable"
        raise UserError(
            f"cannot write --png {out}: {nearest} {why}", hint="name a FILE.png you can write"
        )


def write_png(
    module: Any,
    state: Any,
    out: Path,
    marks: dict[str, str] | None = None,
    *,
    around: tuple[str, ...] = (),
) -> None:
    """The board with the position drawn on it (and optional hex marks, e.g. reachable).
    With marks, the picture is cropped to them and the ``around`` locations (the unit's
    own), with a margin of two hexes: a small reach is not a dot on the whole map."""
    try:
        from referee.render.board import render_board
        from referee.render.fonts import pil_font
    except ImportError as exc:  # the render package is not available
        raise UserError(f"cannot draw a PNG here: {exc}") from None
    import io

    from referee.safeio import write_bytes_atomic

    colors = {s.id: s.color for s in module.sides}

    from referee.render.board_layers import anchor

    seen: list[tuple[float, float]] = []
    margin: list[float] = []

    def overlay(draw: Any, lay: Any) -> None:
        w = lay.hex_width
        margin.append(w * 2)
        for h in [*(marks or {}), *around]:
            if h:
                seen.append(anchor(module, lay, h))
        font = pil_font("bold", max(8, w * 0.16))
        for h, label in sorted((marks or {}).items()):
            x, y = anchor(module, lay, h)
            below = y + w * 0.28
            if lay.grid is not None and lay.grid.is_valid_id(h):
                draw.polygon(lay.corners(h), outline="#E08000", width=max(2, w // 18))
            else:  # a zone or a space of a point-to-point map: a ring, the label above it
                r = w * 0.45
                draw.ellipse([x - r, y - r, x + r, y + r], outline="#E08000", width=max(2, w // 18))
                below = y - r - w * 0.2
            draw.text((x, below), label, fill="#E08000", font=font, anchor="mm")
        for h, ids in sorted(state.stacks.items()):
            x, y = anchor(module, lay, h)
            for i, u in enumerate(ids[:4]):
                side = state.units[u].side
                r = w * 0.3
                cx, cy = x + (i - (min(len(ids), 4) - 1) / 2) * r * 0.5, y - i * r * 0.25
                draw.rectangle(
                    [cx - r, cy - r * 0.6, cx + r, cy + r * 0.6],
                    fill=colors.get(side, "#888888"),
                    outline="#000000",
                )
                draw.text((cx, cy), module_label(module, u), fill="#FFFFFF", font=font, anchor="mm")
            if len(ids) > 4:
                draw.text(
                    (x, y + w * 0.35), f"+{len(ids) - 4}", fill="#000000", font=font, anchor="mm"
                )

    img = render_board(module, 100, overlay=overlay)
    if marks and seen:
        m = margin[0]
        xs, ys = [x for x, _ in seen], [y for _, y in seen]
        box = (
            max(0, int(min(xs) - m)),
            max(0, int(min(ys) - m)),
            min(img.width, int(max(xs) + m)),
            min(img.height, int(max(ys) + m)),
        )
        img = img.crop(box)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False)
    write_bytes_atomic(out, buf.getvalue())


def module_label(module: Any, piece_id: str) -> str:
    base = piece_id.split(".")[0]
    try:
        u = module.unit(base)
    except KeyError:
        return piece_id[:6]
    return f"{u.type}{u.number}"[:6]


def _default_game_id(module_id: str, scenario: str) -> str:
    """``state new``'s game id when none is given: ``MODULE-SCENARIO`` (``sixth_fleet-short``),
    so that ``state show`` and the ``game:`` header hint name the position, not "game game";
    ``game`` only if that is no valid id (letters, digits, ``_.-``, at most 64)."""
    from referee.pbem.dice import GAME_ID_RE

    gid = f"{module_id}-{scenario}"
    return gid if GAME_ID_RE.match(gid) else "game"


def register(app: typer.Typer) -> None:
    state_app = RefereeTyper(
        help="Create and inspect game positions (state files).", no_args_is_help=True
    )
    app.add_typer(state_app, name="state")

    @state_app.command("new")
    def new(
        src: Path | None = typer.Argument(None, metavar="SRC", help="Module source folder."),
        scenario: str = typer.Option(
            ..., "--scenario", metavar="ID", help="Scenario id, e.g. short."
        ),
        example: str | None = example_option(),
        out: Path = typer.Option(
            Path("state.json"), "-o", "--out", metavar="FILE", help="State file; - for stdout."
        ),
        output_old: Path | None = typer.Option(None, "--output", hidden=True),
        option: list[str] = typer.Option(
            [], "--option", metavar="CASE", help="Optional rule, e.g. 14.1 (repeatable)."
        ),
        game_id: str | None = typer.Option(
            None,
            "--game-id",
            metavar="ID",
            help="Game id for the orders' header (default: MODULE-SCENARIO, e.g. "
            "sixth_fleet-short).",
        ),
        game_old: str | None = typer.Option(None, "--game", hidden=True),
        fmt: TextOrJson = format_option(),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("Print nothing but errors."),
    ) -> None:
        """Write the position before set-up (fixed placements made), as `referee new`
        records it."""
        from referee.commands.common import (
            is_stdio,
            load_checked,
            output_format,
            print_json,
            renamed,
            resolve_source,
            write_output,
        )
        from referee.engine.ruleset import get_ruleset
        from referee.pbem.rulings import new_start

        how = output_format(fmt, as_json)
        out = renamed(out if output_old is None else None, output_old, "-o/--out", "--output")
        gid = game_old if game_old is not None else game_id  # --game: the old spelling
        module = load_checked(resolve_source(src, example), quiet=True)
        if gid is None:  # a name that says what the position is, not "game game: ..."
            gid = _default_game_id(module.id, scenario)
        rs = get_ruleset(module.ruleset)
        # the start `referee new` records, the VASSAL piece version included, so a
        # position.vsav written from it (or a game begun from it) gets today's pieces
        st = new_start(rs, module, scenario, gid, tuple(option))
        if is_stdio(out):
            if how == "json":
                raise UserError("-o - and --json both want standard output", hint="give one")
            write_output(out, st.canonical())
            return
        write_output(out, st.canonical())
        side, what = rs.awaiting(module, st)
        if how == "json":
            print_json(
                {
                    "out": str(out),
                    "module": module.id,
                    "scenario": scenario,
                    "game_id": gid,
                    "awaiting": {"side": side, "what": what},
                }
            )
        elif not quiet:
            typer.echo(f"{out}: {module.name}, scenario {scenario}: awaiting {what}")

    @state_app.command("show")
    def show(
        state_file: Path = typer.Argument(
            ...,
            metavar="STATE.json",
            help="A state.json (- reads standard input), a view-SIDE.json, or a game folder.",
        ),
        src: Path | None = module_option(),
        example: str | None = example_option(),
        png: Path | None = typer.Option(
            None, "--png", metavar="FILE.png", help="Also draw the position."
        ),
        side: str | None = typer.Option(
            None, "--side", metavar="SIDE", help="Show only what this side sees."
        ),
        fmt: TextOrJson = format_option(),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("Print nothing but errors (with --png: just draw)."),
        key: Path | None = key_option(),
    ) -> None:
        """Print a readable summary of a position (and draw it with --png)."""
        from referee.commands.common import output_format, print_json
        from referee.engine.ruleset import get_ruleset

        how = output_format(fmt, as_json)
        pos = read_position(state_file, side, key)
        st = pos.state
        module = module_for(st, src, example)
        rs = get_ruleset(st.ruleset)
        if side is not None and pos.side is None:
            sides = [s.id for s in module.sides]
            if side not in sides:
                from referee.source.diagnostics import did_you_mean

                raise UserError(
                    f"unknown side {side!r}",
                    hint=did_you_mean(side, sides) or "sides: " + ", ".join(sides),
                )
            st = rs.view(module, st, side)
        if how == "json":
            side_aw, what = rs.awaiting(module, st)
            print_json(
                {
                    "state": st.to_json(),
                    "awaiting": {"side": side_aw, "what": what},
                    "score": dict(rs.score(module, st)),
                }
            )
        elif not quiet:
            for line in summary_lines(module, st):
                typer.echo(line)
        if png is not None:
            write_png(module, st, png)
