"""``referee options``: what a unit (or a location's units) may legally do now, from the
ruleset's own validator code (for Sixth Fleet: moves, single attacks and group attacks [8.3]).

The command knows no ruleset: it asks the game's ruleset, found through the registry, for an
:class:`~referee.engine.ruleset.OptionsReport` (its optional ``options`` method) and prints
it, as text, as JSON (``--format json``), or as marks on the board picture (``--png``)."""

from __future__ import annotations

from pathlib import Path

import typer

from referee.commands.common import TextOrJson
from referee.commands.state import key_option
from referee.errors import UserError


def register(app: typer.Typer) -> None:
    @app.command()
    def options(
        unit: str = typer.Argument(
            ...,
            metavar="UNIT|HEX",
            help="Unit (piece) id, e.g. US-CV-1; or a hex, e.g. 1423, for its attacks; "
            "the ruleset may take more (Carrier Battlegroup: CVBG, cargo, USN; "
            "naval module: a port or a sea zone).",
        ),
        state_file: Path = typer.Option(
            ...,
            "--state",
            metavar="STATE.json",
            help="The position: a state.json (- for stdin), a turn folder's view-SIDE.json, "
            "or the game folder.",
        ),
        src: Path | None = typer.Option(
            None, "--module", metavar="SRC", help="Module source folder (holds module.toml)."
        ),
        example: str | None = typer.Option(
            None, "--example", metavar="NAME", help="A bundled module instead, e.g. sixth_fleet."
        ),
        png: Path | None = typer.Option(
            None, "--png", metavar="FILE.png", help="Draw the reachable hexes."
        ),
        max_groups: int = typer.Option(
            20,
            "--max-groups",
            min=0,
            metavar="N",
            help="Group attacks to print (0: all); --format json has all.",
        ),
        fmt: TextOrJson = typer.Option(
            "text", "--format", metavar="text|json", help="text for people, json for scripts."
        ),
        as_json: bool = typer.Option(False, "--json", help="Same as --format json."),
        quiet: bool = typer.Option(False, "-q", "--quiet", help="Leave out the notes."),
        side: str | None = typer.Option(
            None, "--side", metavar="SIDE", help="With a game folder as --state: whose view."
        ),
        key: Path | None = key_option(),
    ) -> None:
        """Reachable hexes with MP costs and forced stops, and possible attacks, single and
        group [8.3]."""
        from referee.commands.common import output_format, print_json
        from referee.commands.state import (
            check_png_destination,
            module_for,
            read_position,
            rules_reading,
            write_png,
        )
        from referee.engine.ruleset import get_ruleset, hides_information, unit_options

        as_json = output_format(fmt, as_json) == "json"
        if png is not None:  # refused before the answer is printed, not after
            check_png_destination(png)
        st = read_position(state_file, side, key).state
        module = module_for(st, src, example)
        rs = get_ruleset(st.ruleset)
        ask = unit_options(rs)
        if ask is None:
            raise UserError(f"options are not available for ruleset {st.ruleset!r}")
        with rules_reading(str(state_file), st.ruleset):
            report = ask.options(module, st, unit, limit=max_groups)
        if png is not None and report.marks is None:
            raise UserError("--png draws a unit's moves", hint="name a unit, not a hex")
        if as_json:
            print_json(dict(report.data))
        else:
            for line in report.lines:
                typer.echo(line)
            for n in [] if quiet else report.notes:
                typer.echo(f"  note: {n}")
        if png is not None and report.marks is not None:
            from referee.engine.ruleset import public_view

            # a game with hidden information draws only what every player may see
            shown = public_view(rs, module, st) if hides_information(rs) else st
            here = st.units[unit].location if unit in st.units else None
            write_png(module, shown, png, dict(report.marks), around=(here,) if here else ())
