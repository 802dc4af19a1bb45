"""``referee options``: what a unit may legally do now, from the validator's own code."""

from __future__ import annotations

from pathlib import Path

import typer

from referee.errors import UserError


def register(app: typer.Typer) -> None:
    @app.command()
    def options(
        unit: str = typer.Argument(..., help="Unit (piece) id, e.g. US-CV-1."),
        state_file: Path = typer.Option(..., "--state", help="The position (state.json)."),
        src: Path | None = typer.Option(None, "--module", help="Module source folder."),
        example: str | None = typer.Option(None, "--example", help="A bundled example."),
        png: Path | None = typer.Option(None, "--png", help="Draw the reachable hexes."),
        as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    ) -> None:
        """Reachable hexes with MP costs and forced stops, and possible attacks."""
        from referee.commands.common import print_json
        from referee.commands.state import module_for, read_state, write_png
        from referee.source.diagnostics import did_you_mean

        st = read_state(state_file)
        module = module_for(st, src, example)
        if unit not in st.units:
            raise UserError(f"unknown unit {unit!r}", hint=did_you_mean(unit, list(st.units)))
        if st.ruleset != "sixth_fleet_1975":
            raise UserError(f"options are not available for ruleset {st.ruleset!r}")
        from referee.rules.sixth_fleet_1975.context import Game
        from referee.rules.sixth_fleet_1975.options import legal_moves

        info = legal_moves(Game.of(module, st), st, unit)
        if as_json:
            print_json(info)
        else:
            typer.echo(
                f"{unit} ({info['side']}) at {info['location'] or info['box']}; {info['phase']}"
            )
            for m in info["moves"]:
                flag = " stop [" + m["stop"] + "]" if m["stop"] else ""
                flag += " (pass only)" if not m["may_end"] else ""
                typer.echo(f"  move {m['hex']} cost {m['cost']}{flag}: {' '.join(m['path'])}")
            for a in info["attacks"]:
                if a["legal"]:
                    typer.echo(
                        f"  attack {a['target']}: {a['strength']} {a['attack_total']} - "
                        f"DEF {a['defense_total']} = {a['differential']}, column "
                        f"{a['column']}, ECM {a['ecm_row']}: {a['entry']}"
                    )
                else:
                    typer.echo(f"  attack {a['target']}: not allowed: " + "; ".join(a["why_not"]))
            for n in info["notes"]:
                typer.echo(f"  note: {n}")
        if png is not None:
            marks = {m["hex"]: str(m["cost"]) for m in info["moves"] if m["may_end"]}
            write_png(module, st, png, marks)
