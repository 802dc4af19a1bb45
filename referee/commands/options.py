"""``referee options``: what a unit (or a hex's units) may legally do now, from the validator's
own code: moves, single attacks and group attacks [8.3]."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from referee.commands.common import TextOrJson
from referee.errors import UserError


def _attack_line(a: dict[str, Any]) -> str:
    """``SO-SG-1 SO-DD-1 -> US-CV-1: AS 40 - DEF 24 = 16, column 15, ECM 6: 1-2 (die 1-2)``."""
    target = " ".join(a["targets"]) or f"hex:{a['target_hex']}"
    die = f"retreat on {a['die_range']}" if a["die_range"] else "no effect, no roll"
    return (
        f"{' '.join(a['attackers'])} -> {target}: {a['strength']} {a['attack_total']} - "
        f"DEF {a['defense_total']} = {a['differential']}, column {a['column']}, "
        f"ECM {a['ecm_row']}: {a['entry']} ({die})"
    )


def _echo_attacks(label: str, attacks: list[dict[str, Any]], untried: int, limit: int) -> None:
    shown = attacks if limit == 0 else attacks[:limit]
    for a in shown:
        typer.echo(f"  {label} {_attack_line(a)}")
    if len(shown) < len(attacks):
        typer.echo(
            f"  ... and {len(attacks) - len(shown)} more {label}s (--max-groups 0 lists all)"
        )
    if untried:
        typer.echo(f"  note: {untried} combinations not examined (search limit) [8.3]")


def register(app: typer.Typer) -> None:
    @app.command()
    def options(
        unit: str = typer.Argument(
            ...,
            metavar="UNIT|HEX",
            help="Unit (piece) id, e.g. US-CV-1; or a hex, e.g. 1423, for its attacks.",
        ),
        state_file: Path = typer.Option(
            ..., "--state", metavar="STATE.json", help="The position (state.json); - for stdin."
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
    ) -> None:
        """Reachable hexes with MP costs and forced stops, and possible attacks, single and
        group [8.3]."""
        from referee.commands.common import output_format, print_json
        from referee.commands.state import module_for, read_state, write_png
        from referee.source.diagnostics import did_you_mean

        as_json = output_format(fmt, as_json) == "json"
        st = read_state(state_file)
        module = module_for(st, src, example)
        if st.ruleset != "sixth_fleet_1975":
            raise UserError(f"options are not available for ruleset {st.ruleset!r}")
        from referee.rules.sixth_fleet_1975.context import Game
        from referee.rules.sixth_fleet_1975.options import hex_attacks, legal_moves

        game = Game.of(module, st)
        if unit not in st.units and game.board.contains(unit):
            if png is not None:
                raise UserError("--png draws a unit's moves", hint="name a unit, not a hex")
            hinfo = hex_attacks(game, st, unit)
            if as_json:
                print_json(hinfo)
                return
            typer.echo(
                f"{unit}: {' '.join(hinfo['units']) or 'no units'}"
                + (f" ({hinfo['side']})" if hinfo["side"] else "")
                + f"; {hinfo['phase']}"
            )
            _echo_attacks("attack", hinfo["attacks"], hinfo["untried"], max_groups)
            for n in [] if quiet else hinfo["notes"]:
                typer.echo(f"  note: {n}")
            return
        if unit not in st.units:
            raise UserError(
                f"unknown unit {unit!r}",
                hint=did_you_mean(unit, list(st.units)) or "name a unit id or a hex (RRCC)",
            )
        info = legal_moves(game, st, unit)
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
                    typer.echo(f"  attack {_attack_line(a)}")
                else:
                    typer.echo(f"  attack {a['target']}: not allowed: " + "; ".join(a["why_not"]))
            _echo_attacks(
                "group attack", info["group_attacks"], info["group_attacks_untried"], max_groups
            )
            for n in [] if quiet else info["notes"]:
                typer.echo(f"  note: {n}")
        if png is not None:
            marks = {m["hex"]: str(m["cost"]) for m in info["moves"] if m["may_end"]}
            write_png(module, st, png, marks)
