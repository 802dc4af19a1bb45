"""``referee validate``: check an orders file against a position; no dice, nothing written.

Exit 0 when the orders are legal, 1 when any violation is found (each printed with its rule
case), 2 when the input cannot be read. Syntax, reference and rule problems come in one pass:
the rule checks run on every order that parsed. Legal orders also get warnings: what they
make certain before any die (units eliminated or retreated, decisions left to a player,
victory points at stake), each with its rule case; warnings change the exit code only with
``--strict``. ``--format github`` prints workflow annotations;
``-`` as the orders file reads them from standard input.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from referee.commands.common import (
    Format,
    example_option,
    format_option,
    json_option,
    module_option,
    no_cache_option,
    quiet_option,
)
from referee.commands.state import key_option
from referee.engine.core import Violation
from referee.errors import UserError


def register(app: typer.Typer) -> None:
    @app.command()
    def validate(
        orders: Path = typer.Argument(
            ..., metavar="ORDERS", help="The orders file (text or JSON); - reads standard input."
        ),
        state_file: Path = typer.Option(
            ...,
            "--state",
            metavar="STATE.json",
            help="The position: a state.json, a turn folder's view-SIDE.json, or the game folder.",
        ),
        src: Path | None = module_option(),
        example: str | None = example_option(),
        fmt: Format = format_option(Format),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("Print the violations only (no 'ok' line, no count)."),
        no_cache: bool = no_cache_option(),
        strict: bool = typer.Option(
            False, "--strict", help="Exit 1 on warnings too (what the orders make certain)."
        ),
        side: str | None = typer.Option(
            None,
            "--side",
            metavar="SIDE",
            help="With a game folder as --state: whose view (default: the orders' side:).",
        ),
        key: Path | None = key_option(),
    ) -> None:
        """List every violation in an orders file, each citing its rule case, and as
        warnings what the orders make certain before any die (losses, retreats, VP)."""
        from referee.cache import activated, cache_from_env
        from referee.commands.common import (
            github_annotation,
            is_stdio,
            output_format,
            print_json,
            read_input_text,
            shown_name,
        )
        from referee.commands.state import module_for, read_position, rules_reading
        from referee.engine.ruleset import get_ruleset, hides_information

        how = output_format(fmt, as_json)
        if is_stdio(orders) and is_stdio(state_file):
            raise UserError("only one of ORDERS and --state can be '-' (standard input)")
        text = read_input_text(orders, limit=1_000_000)
        shown = shown_name(orders)
        pos = read_position(state_file, side or header_side(text), key)
        st = pos.state
        with activated(cache_from_env(enabled=not no_cache)):
            module = module_for(st, src, example)
        rs = get_ruleset(st.ruleset)
        with rules_reading(pos.source, st.ruleset):
            rows, warns, notes, _doc = _check(rs, module, pos, text, shown)
        failed = bool(rows) or (strict and bool(warns))
        on_view = pos.side is not None and hides_information(rs)
        general = (
            [
                f"validated on {pos.side}'s view ({pos.source}): what the rules hide from "
                f"{pos.side} was not consulted; the referee checks these orders against the "
                "full position when they arrive"
            ]
            if on_view
            else []
        ) + _declared_note(module)
        if how == "json":
            extra = (
                {"view": {"side": pos.side, "file": pos.source}, "notes": general + notes}
                if on_view
                else {"notes": general}
                if general
                else {}
            )
            print_json(
                {"orders": shown, "ok": not rows, "violations": rows, "warnings": warns} | extra
            )
        else:
            tagged = (
                [("error", r) for r in rows]
                + [("warning", r) for r in warns]
                + [("notice", r) for r in notes]
            )
            for level, r in tagged:
                hint = f" (hint: {r['hint']})" if r.get("hint") else ""
                if how == "github":
                    typer.echo(
                        github_annotation(
                            level,
                            f"{r['message']}{hint}",
                            file=str(r["file"]),
                            line=int(str(r["line"])),
                            col=int(str(r["col"])),
                            title=f"[{r['rule']}]",
                        )
                    )
                else:
                    tag = {"warning": "warning: ", "notice": "note: "}.get(level, "")
                    typer.echo(
                        f"{r['file']}:{r['line']}:{r['col']}: {tag}[{r['rule']}] "
                        f"{r['message']}{hint}"
                    )
            for g in [] if quiet else general:
                if how == "github":
                    typer.echo(
                        github_annotation("notice", g, file=shown, line=1, col=1, title="[view]")
                    )
                else:
                    typer.echo(f"note: {g}")
            nw = f"{len(warns)} warning{'s' if len(warns) != 1 else ''}"
            if quiet:
                pass
            elif not rows:
                more = f" ({nw}{'; --strict: refused' if failed else ''})" if warns else ""
                typer.echo(f"{shown}: ok: no violations{more}", err=failed)
            else:
                typer.echo(
                    f"{shown}: {len(rows)} violation{'s' if len(rows) != 1 else ''}", err=True
                )
        raise typer.Exit(1 if failed else 0)


def _declared_note(module: Any) -> list[str]:
    """A declared game's orders are checked for the record, not the rules (but closed
    locations [G6], in a game begun since): said on every run (docs/declared-games.md)."""
    if getattr(module, "game", None) is None:
        return []
    from referee.source.gamedecl import not_rules

    return [f"a declared game, {not_rules(None)}"]


def _check(
    rs: Any, module: Any, pos: Any, text: str, shown: str
) -> tuple[list[dict[str, object]], list[dict[str, object]], list[dict[str, object]], Any]:
    """The orders read and checked against the position: (violations, warnings, notes on a
    side's view, the orders read)."""
    from referee.engine.orders import OrdersSyntaxError
    from referee.engine.ruleset import (
        hides_information,
        view_notes_of,
        warnings_of,
    )

    st = pos.state
    rows: list[dict[str, object]] = []
    doc = None
    try:
        doc = rs.parse_orders(text, shown)
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
        partial = getattr(exc, "partial", None)
        # every order that parsed is still checked: references and rules (one pass)
        rows += _rows(rs.validate(module, st, partial), shown) if partial else []
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
        rows += _rows(rs.validate(module, st, doc), shown)
    # by place in the file, what a partial file still lacks last (issue 31)
    rows.sort(key=lambda r: (bool(r.get("summary")), int(str(r["line"])), int(str(r["col"]))))
    for r in rows:
        r.pop("summary", None)
    warns = _rows(warnings_of(rs, module, st, doc), shown) if doc and not rows else []
    # on a side's view of a game that hides information: say what was not consulted,
    # and where the verdict could turn on it, without telling it (issue 10 §5)
    on_view = pos.side is not None and hides_information(rs)
    notes = _rows(view_notes_of(rs, module, st, pos.side, doc), shown) if on_view and doc else []
    return rows, warns, notes, doc


def header_side(text: str) -> str | None:
    """The ``side:`` header of an orders text (the envelope lines before the first order
    or section), to pick that side's view of a game folder; ``None`` when there is none."""
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        key, colon, value = s.partition(":")
        if not colon or not key.replace("-", "").isalpha():
            return None
        if key.lower() == "side":
            return value.strip() or None
    return None


def _rows(vs: list[Violation], shown: str) -> list[dict[str, object]]:
    """Violations (or warnings) as the rows ``validate`` prints. A problem that no line
    owns stays at 1:1 only when the file has no header or section to point at."""
    out: list[dict[str, object]] = []
    for v in vs:
        w = v.where
        out.append(
            {
                "rule": v.rule,
                "message": v.message,
                "hint": v.hint,
                "file": w.file if w else shown,
                "line": w.line if w else 1,
                "col": w.col if w else 1,
                "unit": v.unit,
                "summary": v.summary,
            }
        )
    return out
