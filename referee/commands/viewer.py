"""``referee viewer``: one offline HTML file to step through a game on the map (issue 17).

Exit codes: 0 written; 1 the archive refuses (a damaged folder, the referee's record asked
of a player's copy); 2 bad usage or an unreadable archive (``docs/pbem.md``).
"""

from __future__ import annotations

from pathlib import Path

import typer

from referee.commands.common import (
    TextOrJson,
    example_option,
    format_option,
    json_option,
    module_option,
    no_cache_option,
    output_format,
    print_json,
    quiet_option,
    shown_name,
    write_output,
)


def register(app: typer.Typer) -> None:
    @app.command()
    def viewer(
        game_dir: Path = typer.Argument(..., metavar="GAME_DIR", help="The game archive."),
        side: str = typer.Option(
            "referee",
            "--side",
            metavar="SIDE",
            help="Whose view: a side of the game (e.g. NATO, Soviet), or referee for the "
            "full record (the referee's copy of a game that hides information).",
        ),
        out: Path = typer.Option(
            ..., "-o", "--out", metavar="FILE.html", help="Where to write the viewer ('-': stdout)."
        ),
        module_src: Path | None = module_option(),
        example: str | None = example_option(),
        fmt: TextOrJson = format_option(),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("Print nothing: the exit code says it."),
        key: Path | None = typer.Option(
            None,
            "--key",
            metavar="KEY",
            help="Your private key: opens your side's encrypted part of each step (a game "
            "whose steps are split into parts; docs/pbem.md).",
        ),
        no_cache: bool = no_cache_option(),
    ) -> None:
        """Write one offline HTML file to step through the game on the map.

        Built from SIDE's published views only (never what the rules hide from SIDE): the
        map with every unit SIDE may see at each step, each step's events drawn on it with
        their rule cases, every die roll and how to check it, the score and what is
        pending, the play aids, and each report's hash and signature status.
        """
        from referee.cache import activated, cache_from_env
        from referee.commands.pbem import game_module, refused
        from referee.engine.ruleset import get_ruleset
        from referee.errors import UserError
        from referee.pbem.archive import Archive
        from referee.pbem.problems import Refusal
        from referee.viewer.archive import REFEREE, archive_steps, draft_options
        from referee.viewer.page import render_viewer

        as_json = output_format(fmt, as_json) == "json"
        if str(out) != "-" and (out.is_dir() or not out.parent.is_dir()):
            raise UserError(
                f"{out}: "
                + ("a folder" if out.is_dir() else f"no folder {out.parent} to write it in"),
                hint="-o names the HTML file to write, e.g. -o viewer-NATO.html",
            )
        # the cache answers the module's load and the board and play-aid pictures, which
        # depend on the module alone (never on a side's view, so no side's entry can reach
        # another side's file); the same bytes as without it (docs/performance.md)
        with activated(cache_from_env(enabled=not no_cache)):
            module = game_module(game_dir, module_src, example)
            ruleset = get_ruleset(Archive(game_dir).config().ruleset)
            try:
                loaded = None
                if key is not None:
                    from referee.commands.pbem import load_key

                    loaded = load_key(key, None)
                steps, sigs, referee = archive_steps(game_dir, module, ruleset, side, loaded)
                draft = draft_options(game_dir, side, steps, loaded)
            except Refusal as exc:
                refused(exc, as_json)
                return
            html = render_viewer(
                module,
                steps,
                side=None if side == REFEREE else side,
                referee=referee,
                game_dir_hint=str(game_dir),
                signatures=sigs,
                draft=draft,
            ).encode()
        write_output(out, html)
        bad = sum(1 for s in sigs if s.startswith("BAD"))
        if as_json:
            print_json(
                {
                    "ok": True,
                    "file": shown_name(out),
                    "side": side,
                    "steps": len(steps),
                    "bytes": len(html),
                    "bad_signatures": bad,
                }
            )
            return
        if quiet or str(out) == "-":
            return
        typer.echo(
            f"wrote {shown_name(out)}: {len(steps)} step(s) as {side} sees them, "
            f"{len(html) / 1e6:.2f} MB; open it in a browser (works offline)"
        )
        if bad:
            typer.echo(f"warning: {bad} step(s) failed their signature check (shown in the file)")
