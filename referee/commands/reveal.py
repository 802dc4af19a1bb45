"""``referee reveal``: release the referee-only part of a game archive (``docs/pbem.md``).

Exit codes: 0 revealed; 2 nothing to reveal (the game keeps nothing hidden, is not over and
its ruleset allows no reveal yet, or this copy has no ``secret/``) or a bad invocation;
75 another adjudication holds the lock.
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
    output_format,
    print_json,
    quiet_option,
)


def register(app: typer.Typer) -> None:
    @app.command()
    def reveal(
        game_dir: Path = typer.Argument(
            ..., metavar="GAME_DIR", help="The game archive (the referee's copy, with secret/)."
        ),
        module_src: Path | None = module_option(),
        example: str | None = example_option(),
        key: Path | None = typer.Option(
            None,
            "--key",
            metavar="REFEREE.key",
            help="A copy without secret/ (a fresh clone of the published game): the referee's "
            "key, which opens the referee-only parts to make secret/ again first.",
        ),
        fmt: TextOrJson = format_option(),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("Print nothing: the exit code says it."),
    ) -> None:
        """Release the hidden part (full positions, hidden rolls, sealed orders) for verify.

        Copies secret/turns/ to revealed/turns/ at the end of the game (or where the ruleset
        allows it): each step's hidden seed among them, from which anyone derives the key that
        opens every side's and the referee's part of that step; `referee verify` then checks
        every commitment and every part and replays the game.
        """
        from referee.commands.pbem import game_module, refused
        from referee.pbem.problems import Refusal
        from referee.pbem.reveal import reveal as run

        as_json = output_format(fmt, as_json) == "json"
        module = game_module(game_dir, module_src, example)
        try:
            if key is not None:
                from referee.commands.pbem import load_key
                from referee.pbem.reveal import restore

                restore(game_dir, load_key(key, None))
            done = run(game_dir, module)
        except Refusal as exc:
            refused(exc, as_json)
            return
        if as_json:
            print_json(
                {
                    "ok": True,
                    "game_id": done.game_id,
                    "revealed": [f"revealed/turns/{s}" for s in done.steps],
                }
            )
            return
        if quiet:
            return
        typer.echo(f"revealed {len(done.steps)} step(s) of game {done.game_id} in {done.folder}")
        typer.echo(f"check them: referee verify {game_dir}")
