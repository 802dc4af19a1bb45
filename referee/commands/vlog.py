"""``referee log``: a VASSAL log as a move list, in the module's own location names.

``referee log GAME.vlog --vmod MODULE.vmod`` prints every logged step a player would see
when stepping through the log in VASSAL: moves with the piece's name, from and to (hex,
square, region or zone names exactly as VASSAL gives them), the stack it left and joined,
layer and property changes in words, pieces created and deleted, chat lines and die rolls.
``--json`` gives the same as data. ``--position`` adds where every piece is at the end.

A log recorded with another version of the module is read as far as it goes: events on
map windows the module lacks are listed with raw map coordinates ("120,340 px") and a
warning names each such map; the exit code is still 0.

Exit codes: 0 done (with warnings for maps the module lacks); 2 refused (unreadable or
hostile file, a log of another module, none of whose maps the module has, a grid kind
referee cannot read).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from referee.commands.common import (
    TextOrJson,
    format_option,
    json_option,
    output_format,
    print_json,
    quiet_option,
)


def vmod_option(required: bool = False) -> Any:
    return typer.Option(
        ... if required else None,
        "--vmod",
        metavar="MODULE.vmod",
        help="The VASSAL module the file belongs to, to name locations as VASSAL does.",
    )


def where(map_name: str | None, location: str, first_map: str | None) -> str:
    """A location for people: ``0101`` on the module's first map, ``Cards [Force Pool]`` on
    any other."""
    if map_name is None or map_name == first_map:
        return location
    return f"{location} [{map_name}]"


def event_line(e: Any, first_map: str | None) -> str:
    """One event of :mod:`referee.vassal.foreign.movelist` as a line of the move list."""
    head = f"{e.step:>4}. "
    if e.kind == "move":
        text = (
            f"{e.piece}: {where(e.map_from, e.from_location, first_map)} -> "
            f"{where(e.map_to, e.to_location, first_map)}"
        )
        if e.with_stack:
            text += f" with {', '.join(e.with_stack)}"
        if e.left:
            text += f"; leaves {', '.join(e.left)}"
        if e.joined:
            text += f"; joins {', '.join(e.joined)}"
        if e.changes:
            text += f"; {'; '.join(e.changes)}"
        return head + text
    if e.kind == "change":
        loc = where(e.map_from, e.from_location, first_map)
        return head + f"{e.piece} in {loc}: {'; '.join(e.changes)}"
    if e.kind == "create":
        return head + f"{e.piece} created in {where(e.map_to, e.to_location, first_map)}"
    if e.kind == "delete":
        return head + f"{e.piece} deleted from {where(e.map_from, e.from_location, first_map)}"
    if e.kind == "roll":
        return head + f"roll {e.changes[0]}   ({e.text.strip()})"
    if e.kind == "chat":
        return head + f"chat: {e.text.strip()}"
    if e.kind == "boards":
        return head + f"boards of {e.map_to}: {e.text}"
    return head + f"{e.kind}: {e.text}"


def register(app: typer.Typer) -> None:
    @app.command("log")
    def log_command(
        file: Path = typer.Argument(..., metavar="FILE", help="A .vlog log (or a .vsav save)."),
        vmod: Path = vmod_option(required=True),
        position: bool = typer.Option(
            False, "--position", help="Also list where every piece is at the end."
        ),
        fmt: TextOrJson = format_option(),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("Leave out the heading and the warnings."),
    ) -> None:
        """Print a VASSAL log as a move list: moves, changes, chat and die rolls.

        Locations are named the way VASSAL names them for the module given with --vmod.
        A log recorded with another version of the module is read as far as it goes:
        pieces on map windows the module lacks are listed with raw coordinates ("120,340
        px") and a warning, and the exit code is still 0.
        """
        from referee.vassal.foreign.saves import read_foreign

        how = output_format(fmt, as_json)
        got = read_foreign(file, vmod)
        reading, module = got.reading, got.module
        meta = got.save.module_metadata
        if how == "json":
            data: dict[str, Any] = {
                "file": str(file),
                "module": {"name": module.name, "version": module.version},
                "written_by": {"name": meta.name, "version": meta.version} if meta else None,
                "events": [e.to_json() for e in reading.events],
                "warnings": got.warnings,
            }
            if position:
                data["end"] = [p.to_json() for p in reading.end]
            print_json(data)
            return
        several = next(iter(module.maps), None)
        if not quiet:
            steps = max((e.step for e in reading.events), default=0)
            typer.echo(
                f"{file}: module {module.name} {module.version}, {steps} logged step(s), "
                f"{len(reading.events)} event(s)"
            )
            for w in got.warnings:
                typer.echo(f"referee: warning: {w}", err=True)
        for e in reading.events:
            typer.echo(event_line(e, several))
        if position:
            typer.echo("")
            typer.echo("At the end:")
            print_position(reading.end, several)


def print_position(pieces: list[Any], first_map: str | None) -> None:
    """The PIECE, LOCATION, STACK, LAYERS table of ``show-vsav --vmod``."""
    rows = [("PIECE", "LOCATION", "STACK", "LAYERS")]
    for p in pieces:
        depth = f"{p.depth + 1} of {len(p.stack)}" if len(p.stack) > 1 else "-"
        loc = where(p.map, p.location, first_map) if p.map is not None else "(no map)"
        rows.append((p.name, loc, depth, ", ".join(p.layers) or "-"))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        typer.echo(("  ".join(r[i].ljust(widths[i]) for i in range(3)) + "  " + r[3]).rstrip())
