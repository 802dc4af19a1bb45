"""``referee reveal``: release the referee-only part of a game archive (``docs/pbem.md``).

Exit codes: 0 revealed; 1 refused (nothing hidden, the game not over); 2 bad invocation;
75 another adjudication holds the lock.
"""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    @app.command()
    def reveal(
        game_dir: Path = typer.Argument(..., help="The game archive (the referee's copy)."),
        module_src: Path | None = typer.Option(None, "--module", help="Module source folder."),
        example: str | None = typer.Option(None, "--example", help="A bundled module."),
    ) -> None:
        """Release the hidden part (full positions, hidden rolls, sealed orders) for verify."""
        from referee.commands.pbem import _game_module, _refused
        from referee.pbem.problems import Refusal
        from referee.pbem.reveal import reveal as run

        module = _game_module(game_dir, module_src, example)
        try:
            done = run(game_dir, module)
        except Refusal as exc:
            _refused(exc, False)
            return
        typer.echo(f"revealed {len(done.steps)} step(s) of game {done.game_id} in {done.folder}")
        typer.echo(f"check them: referee verify {game_dir}")
