"""``referee show-vsav`` and ``referee import-vlog``: read VASSAL saves and logs.

``show-vsav FILE`` lists the counters in a save (or at the end of a log): which unit, where
(hex ids through the module's grid, holding boxes and set-up area by name), its place in
its stack and its active layers. ``import-vlog LOG --game-dir GAME_DIR`` turns a player's log
into an orders file for the step the game awaits (see :mod:`referee.vassal.position.vlog_import`).

Exit codes: 0 done; 1 ``import-vlog`` wrote the file but some of the log could not be
translated (listed on stderr and as comments in the file); 2 refused (unreadable or hostile
file, a log from another module, counters the module never had).
"""

from __future__ import annotations

from pathlib import Path

import typer

from referee.commands.common import (
    TextOrJson,
    example_option,
    format_option,
    json_option,
    load_checked,
    module_option,
    output_format,
    print_json,
    quiet_option,
    resolve_source,
)
from referee.errors import UserError


def _table(module_src: Path | None, example: str | None, dpi: int):
    from referee.vassal.position.placement import table_for

    module = load_checked(resolve_source(module_src, example), quiet=True)
    return table_for(module, dpi=dpi)


def _show_foreign(file: Path, vmod: Path, *, start: bool, as_json: bool, quiet: bool) -> None:
    """``show-vsav --vmod``: the pieces of any module's save, located as VASSAL does."""
    from referee.commands.vlog import print_position
    from referee.vassal.foreign.saves import read_foreign

    got = read_foreign(file, vmod)
    pieces = got.reading.start if start else got.reading.end
    module = got.module
    if as_json:
        print_json(
            {
                "file": str(file),
                "module": {"name": module.name, "version": module.version},
                "pieces": [p.to_json() for p in pieces],
                "warnings": got.warnings,
            }
        )
        return
    if not quiet:
        typer.echo(f"{file}: module {module.name} {module.version}, {len(pieces)} pieces")
        for w in got.warnings:
            typer.echo(f"referee: warning: {w}", err=True)
    print_position(pieces, next(iter(module.maps), None))


def show_vsav(
    file: Path = typer.Argument(..., metavar="FILE", help="A .vsav save or .vlog log."),
    module_src: Path | None = typer.Option(
        None,
        "--module",
        metavar="SRC",
        help="Module source folder, to name hexes and boxes.",
    ),
    example: str | None = example_option(),
    vmod: Path | None = typer.Option(
        None,
        "--vmod",
        metavar="MODULE.vmod",
        help="Any VASSAL module the file belongs to: name locations as VASSAL does.",
    ),
    dpi: int = typer.Option(
        150, "--dpi", min=50, max=600, metavar="DPI", help="The module's build --dpi."
    ),
    start: bool = typer.Option(
        False, "--start", help="For a log: the position it starts from, not where it ends."
    ),
    fmt: TextOrJson = format_option(),
    as_json: bool = json_option(),
    quiet: bool = quiet_option("Leave out the heading line."),
) -> None:
    """List the counters in a VASSAL save: unit, location, stack and layers.

    With --vmod MODULE.vmod (any VASSAL module), locations are the names VASSAL gives;
    with --module/--example (a module built by referee), hexes and boxes; without
    either, raw map pixels.
    """
    from referee.vassal.codec.savefile import read_save
    from referee.vassal.codec.tabletop import replay
    from referee.vassal.position.survey import check_ours, survey

    as_json = output_format(fmt, as_json) == "json"
    if vmod is not None:
        if module_src or example:
            raise UserError("give either --vmod or --module/--example, not both")
        _show_foreign(file, vmod, start=start, as_json=as_json, quiet=quiet)
        return
    table = _table(module_src, example, dpi) if (module_src or example) else None
    save = read_save(file)
    played = replay(save.commands)
    counters = survey(table, played.start if start else played.end)
    if table is not None:
        check_ours(table, counters, str(file))
    meta = save.module_metadata
    if as_json:
        print_json(
            {
                "file": str(file),
                "module": {"name": meta.name, "version": meta.version} if meta else None,
                "counters": [c.to_json() for c in counters],
            }
        )
        return
    if quiet:
        pass
    elif meta is not None:
        typer.echo(f"{file}: module {meta.name} {meta.version}, {len(counters)} counters")
    else:
        typer.echo(f"{file}: {len(counters)} counters (no moduledata)")
    if table is None and not quiet:
        typer.echo(
            "locations are map pixels: give --module SRC or --example NAME to name the "
            "hexes and boxes",
            err=True,
        )
    rows = [("COUNTER", "LOCATION", "STACK", "LAYERS")]
    for c in counters:
        depth = f"{c.depth + 1} of {len(c.stack)}" if len(c.stack) > 1 else "-"
        rows.append((c.label, str(c.location), depth, ", ".join(c.active_layers) or "-"))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        typer.echo("  ".join(r[i].ljust(widths[i]) for i in range(3)) + "  " + r[3])


def import_vlog(
    log: Path = typer.Argument(..., metavar="LOG", help="The player's VASSAL log (.vlog)."),
    game_dir: Path | None = typer.Option(
        None, "--game-dir", metavar="GAME_DIR", help="The game archive (holds game.toml)."
    ),
    game_old: Path | None = typer.Option(None, "--game", hidden=True),
    out: Path | None = typer.Option(
        None,
        "-o",
        "--out",
        metavar="FILE",
        help="Write the orders here (default, or -: standard output).",
    ),
    module_src: Path | None = module_option(),
    example: str | None = example_option(),
    dpi: int = typer.Option(
        150, "--dpi", min=50, max=600, metavar="DPI", help="The module's build --dpi."
    ),
    fmt: TextOrJson = format_option(),
    as_json: bool = json_option(),
    quiet: bool = quiet_option("No summary line (problems are still listed)."),
    key: Path | None = typer.Option(
        None,
        "--key",
        metavar="KEY",
        help="A game whose steps are split into encrypted parts: your private key, which "
        "opens your side's view.",
    ),
) -> None:
    """Turn a VASSAL log into an orders file for the step the game awaits.

    Drags become 'move' paths (hexes, or zones and spaces by name on an area or
    point-to-point map), chat lines starting with a verb ('attack') become orders; what
    cannot be translated is listed, never guessed. Review the file, then sign it.
    """
    from referee.commands.common import is_stdio, renamed
    from referee.engine.core import GameState
    from referee.engine.ruleset import get_ruleset
    from referee.errors import UserError
    from referee.pbem.archive import Archive
    from referee.pbem.problems import Refusal
    from referee.pbem.rulesdata import load_game_module, module_source
    from referee.safeio import write_text_atomic
    from referee.vassal.codec.savefile import read_save
    from referee.vassal.position.placement import table_for
    from referee.vassal.position.vlog_import import Expected, import_log

    how = output_format(fmt, as_json)
    game = renamed(game_dir, game_old, "--game-dir", "--game")
    if game is None:
        raise UserError("name the game archive with --game-dir GAME_DIR")
    if is_stdio(out):
        out = None
    archive = Archive(game)
    archive.require()
    try:
        cfg = archive.config()
        if cfg.hides_information:  # no full position is published: the awaited side's view
            from referee.commands.state import read_position

            latest = archive.turn_dirs()[-1].path / "report.json"
            awaited = (archive.read_json(latest).get("awaiting") or {}).get("side")
            state = read_position(game, awaited, key).state
        else:
            state = GameState.from_json(archive.read_json(archive.state_json))
    except (Refusal, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise UserError(f"{game}: cannot read the game's position: {exc}") from None
    module = load_game_module(cfg, module_source(cfg, module_src, example, game))
    side, _ = get_ruleset(cfg.ruleset).awaiting(module, state)
    if not side:
        raise UserError(f"game {cfg.game_id} awaits no orders (the game is over)")
    expected = Expected(
        module_name=cfg.module_name,
        module_version=cfg.module_version,
        game_id=cfg.game_id,
        turn=state.turn,
        side=side,
        phase=state.phase,
    )
    save = read_save(log)
    vocab = get_ruleset(cfg.ruleset).vocabulary
    named = any(loc.kind == "name" for loc in vocab.locations)
    if module.game is not None and module.game.imported is not None:  # a module we did not write
        from referee.vassal.foreign.game import imported_locations
        from referee.vassal.foreign.imported_log import import_imported_log

        result = import_imported_log(
            module, imported_locations(module), save, state, expected, vocab, source=log.name
        )
    elif module.game is not None and vocab is not None:  # a declared game: one [orders] section
        from referee.vassal.position.vlog_declared import import_declared_log

        result = import_declared_log(
            table_for(module, dpi=dpi), save, state, expected, vocab, source=log.name
        )
    elif named and (module.map.zones is not None or module.map.spaces is not None):
        from referee.vassal.position.vlog_named import import_named_log

        result = import_named_log(
            table_for(module, dpi=dpi), save, state, expected, vocab, source=log.name
        )
    else:
        result = import_log(table_for(module, dpi=dpi), save, state, expected, source=log.name)
    if out is not None:
        write_text_atomic(out, result.text)
    if how == "json":
        data = result.to_json()
        data["out"] = str(out) if out is not None else None
        print_json(data)
    elif out is None:
        typer.echo(result.text, nl=False)
    for p in result.problems:
        typer.echo(f"referee: not translated: {log.name}: {p}", err=True)
    if out is not None and how != "json" and not quiet:
        n = len(result.orders)
        typer.echo(
            f"{out}: {n} order{'s' if n != 1 else ''} for {side}, {state.phase}, Game-Turn "
            f"{state.turn}; {len(result.problems)} thing(s) not translated",
            err=True,
        )
    raise typer.Exit(1 if result.problems else 0)


COMMANDS = (("show-vsav", show_vsav), ("import-vlog", import_vlog))


def register(app: typer.Typer) -> None:
    """``show-vsav`` and ``import-vlog``, one function each."""
    for name, command in COMMANDS:
        app.command(name)(command)
