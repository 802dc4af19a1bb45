"""``referee new-source DIR``: start the module source of a new game, declared without a
ruleset (``docs/declared-games.md``), from the bundled example ``strait_patrol``."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import typer

from referee.commands.common import TextOrJson, format_option, json_option, quiet_option

STARTER = "strait_patrol"
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$")


def register(app: typer.Typer) -> None:
    @app.command("new-source")
    def new_source(
        folder: Path = typer.Argument(
            ..., metavar="DIR", help="The new source folder (must not exist, or be empty)."
        ),
        module_id: str | None = typer.Option(
            None, "--id", metavar="ID", help="The module's id (default: the folder's name)."
        ),
        name: str | None = typer.Option(
            None, "--name", metavar="NAME", help="The game's name (default: the id)."
        ),
        fmt: TextOrJson = format_option(),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("Print nothing when done."),
    ) -> None:
        """Start a declared game: a module source with no ruleset, whose [game] table
        declares its value columns, unit types, terrain, tables and sequence of play.

        Copies the bundled example game (Strait Patrol: module.toml, roster, map, tables,
        one scenario) under your id and name; edit it, then run `referee check DIR`. The
        referee plays such a game for its record and dice, not its rules
        (docs/declared-games.md). Exits 0 when written, 2 when DIR is not empty or the id
        is not a simple name.
        """
        from referee.commands.common import output_format, print_json
        from referee.errors import UserError
        from referee.resources import example_path

        how = output_format(fmt, as_json)
        mid = module_id or folder.name
        if not ID_RE.match(mid):
            raise UserError(
                f"module id {mid!r} must be letters, digits, '_', '-' or '.'",
                hint="give one with --id my_game",
            )
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise UserError(f"{folder} exists and is not an empty folder", hint="name a new one")
        src = example_path(STARTER)
        if src is None:
            raise UserError(f"the bundled example {STARTER!r} is missing from this installation")
        write_starter(src, folder, mid, name or mid)
        if how == "json":
            print_json({"folder": str(folder), "id": mid, "name": name or mid, "from": STARTER})
        elif not quiet:
            typer.echo(f"{folder}: a declared game {mid!r} from the example {STARTER}")
            typer.echo(f"next: edit {folder}/module.toml, then: referee check {folder}")


def write_starter(src: Path, folder: Path, module_id: str, name: str) -> None:
    """The example copied to a temporary folder beside ``folder``, its id and name set, then
    renamed into place: a failure leaves no half-written source. The example's README and
    its example orders (written for the bundled demo's game) stay behind."""
    from referee.errors import UserError

    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    except OSError as exc:
        raise UserError(
            f"cannot create {folder}: {exc.strerror or exc}",
            hint="name a folder in a place you can write to",
        ) from None
    try:
        for path in sorted(src.rglob("*")):
            rel = path.relative_to(src)
            if path.is_dir() or path.is_symlink() or rel.name == "README.md":
                continue
            if rel.parts[0] == "examples":
                continue
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, tmp / rel)
        toml = (tmp / "module.toml").read_text(encoding="utf-8")
        toml = re.sub(r'(?m)^id = "strait_patrol"$', f'id = "{module_id}"', toml, count=1)
        quoted = name.replace("\\", "\\\\").replace('"', '\\"')
        toml = re.sub(r'(?m)^name = "Strait Patrol"$', f'name = "{quoted}"', toml, count=1)
        (tmp / "module.toml").write_text(toml, encoding="utf-8")
        if folder.exists():
            folder.rmdir()
        tmp.rename(folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
