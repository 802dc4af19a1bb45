"""``referee validate``: check an orders file against a position; no dice, nothing written.

Exit 0 when the orders are legal, 1 when any violation is found (each printed with its rule
case), 2 when the input cannot be read. ``--format github`` prints workflow annotations;
``-`` as the orders file reads them from standard input.
"""

from __future__ import annotations

from pathlib import Path

import typer

from referee.commands.common import (
    Format,
    example_option,
    format_option,
    json_option,
    module_option,
    quiet_option,
)
from referee.errors import UserError


def register(app: typer.Typer) -> None:
    @app.command()
    def validate(
        orders: Path = typer.Argument(
            ..., metavar="ORDERS", help="The orders file (text or JSON); - reads standard input."
        ),
        state_file: Path = typer.Option(
            ..., "--state", metavar="STATE.json", help="The position (state.json)."
        ),
        src: Path | None = module_option(),
        example: str | None = example_option(),
        fmt: Format = format_option(Format),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("Print the violations only (no 'ok' line, no count)."),
    ) -> None:
        """List every violation in an orders file, each citing its rule case."""
        from referee.commands.common import (
            github_annotation,
            is_stdio,
            output_format,
            print_json,
            read_input_text,
            shown_name,
        )
        from referee.commands.state import module_for, read_state
        from referee.engine.orders import OrdersSyntaxError
        from referee.engine.ruleset import get_ruleset, parse_orders_for

        how = output_format(fmt, as_json)
        if is_stdio(orders) and is_stdio(state_file):
            raise UserError("only one of ORDERS and --state can be '-' (standard input)")
        st = read_state(state_file)
        module = module_for(st, src, example)
        text = read_input_text(orders, limit=1_000_000)
        shown = shown_name(orders)
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
        except Exception as exc:
            # a ruleset with its own orders language reports syntax errors as a list in
            # ``errors`` (the protocol pbem.adjudicate.parse_orders_text relies on too)
            errors = getattr(exc, "errors", None)
            if not isinstance(errors, list):
                raise
            for e in errors:
                rows.append(
                    {
                        "rule": "syntax",
                        "message": str(getattr(e, "message", e)),
                        "hint": getattr(e, "hint", None),
                        "file": getattr(e, "file", shown),
                        "line": getattr(e, "line", 1),
                        "col": getattr(e, "col", 1),
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
        if how == "json":
            print_json({"orders": shown, "ok": not rows, "violations": rows})
        else:
            for r in rows:
                hint = f" (hint: {r['hint']})" if r.get("hint") else ""
                if how == "github":
                    typer.echo(
                        github_annotation(
                            "error",
                            f"{r['message']}{hint}",
                            file=str(r["file"]),
                            line=int(str(r["line"])),
                            col=int(str(r["col"])),
                            title=f"[{r['rule']}]",
                        )
                    )
                else:
                    typer.echo(
                        f"{r['file']}:{r['line']}:{r['col']}: [{r['rule']}] {r['message']}{hint}"
                    )
            if quiet:
                pass
            elif not rows:
                typer.echo(f"{shown}: ok: no violations")
            else:
                typer.echo(
                    f"{shown}: {len(rows)} violation{'s' if len(rows) != 1 else ''}", err=True
                )
        raise typer.Exit(1 if rows else 0)
