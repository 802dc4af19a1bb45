"""``referee validate``: check an orders file against a position; no dice, nothing written.

Exit 0 when the orders are legal, 1 when any violation is found (each printed with its rule
case), 2 when the input cannot be read. ``--format github`` prints workflow annotations.
"""

from __future__ import annotations

from pathlib import Path

import typer

from referee.errors import UserError


def register(app: typer.Typer) -> None:
    @app.command()
    def validate(
        orders: Path = typer.Argument(..., help="The orders file (text or JSON)."),
        state_file: Path = typer.Option(..., "--state", help="The position (state.json)."),
        src: Path | None = typer.Option(None, "--module", help="Module source folder."),
        example: str | None = typer.Option(None, "--example", help="A bundled example."),
        fmt: str = typer.Option("text", "--format", help="text or github."),
        as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    ) -> None:
        """List every violation in an orders file, each citing its rule case."""
        from referee.commands.common import print_json
        from referee.commands.state import module_for, read_state
        from referee.engine.orders import OrdersSyntaxError
        from referee.engine.ruleset import get_ruleset, parse_orders_for
        from referee.safeio import UnsafeInput, read_text

        if fmt not in ("text", "github"):
            raise UserError(f"unknown --format {fmt!r}", hint="text or github")
        st = read_state(state_file)
        module = module_for(st, src, example)
        try:
            text = read_text(orders, limit=1_000_000)
        except UnsafeInput as exc:
            raise UserError(str(exc)) from None
        shown = str(orders)
        rows: list[dict[str, object]] = []
        rs = get_ruleset(st.ruleset)
        try:
            doc = parse_orders_for(rs, text, shown)
        except OrdersSyntaxError as exc:
            for e in exc.errors:
                rows.append(
                    {
                        "rule": "syntax",
                        "message": e.message,
                        "hint": e.hint,
                        "file": e.file,
                        "line": e.line,
                        "col": e.col,
                    }
                )
        else:
            for v in rs.validate(module, st, doc):
                w = v.where
                rows.append(
                    {
                        "rule": v.rule,
                        "message": v.message,
                        "hint": v.hint,
                        "file": w.file if w else shown,
                        "line": w.line if w else 1,
                        "col": w.col if w else 1,
                        "unit": v.unit,
                    }
                )
        if as_json:
            print_json({"orders": shown, "ok": not rows, "violations": rows})
        else:
            for r in rows:
                hint = f" (hint: {r['hint']})" if r.get("hint") else ""
                if fmt == "github":
                    msg = str(r["message"]).replace("%", "%25").replace("\n", "%0A")
                    typer.echo(
                        f"::error file={r['file']},line={r['line']},col={r['col']},"
                        f"title=[{r['rule']}]::{msg}{hint}"
                    )
                else:
                    typer.echo(
                        f"{r['file']}:{r['line']}:{r['col']}: [{r['rule']}] {r['message']}{hint}"
                    )
            if not rows:
                typer.echo(f"{shown}: ok: no violations")
            else:
                typer.echo(
                    f"{shown}: {len(rows)} violation{'s' if len(rows) != 1 else ''}", err=True
                )
        raise typer.Exit(1 if rows else 0)
