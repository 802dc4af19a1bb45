"""The play-by-email commands: ``keygen``, ``new``, ``sign``, ``adjudicate``, ``verify``.

Exit codes (docs/ci.md): 0 done (or already done); 1 refused (orders unsigned, out of turn,
illegal...) or verification failed; 2 bad invocation or unreadable input; 75 the game is
locked by another adjudication (try again later).
"""

from __future__ import annotations

from pathlib import Path

import typer

from referee.commands.common import print_json

EXIT_REFUSED = 1
EXIT_LOCKED = 75


def _refused(exc: Exception, as_json: bool) -> None:
    from referee.pbem.problems import Refusal

    assert isinstance(exc, Refusal)
    if as_json:
        print_json(exc.to_json())
    else:
        typer.echo(f"referee: refused ({exc.code}): {exc}", err=True)
    raise typer.Exit(EXIT_LOCKED if exc.code == "locked" else EXIT_REFUSED)


def _game_module(game_dir: Path, module_src: Path | None, example: str | None):
    from referee.pbem.archive import Archive
    from referee.pbem.rulesdata import load_game_module, module_source

    archive = Archive(game_dir)
    archive.require()
    cfg = archive.config()
    return load_game_module(cfg, module_source(cfg, module_src, example))


def register(app: typer.Typer) -> None:
    @app.command()
    def keygen(
        name: str = typer.Argument(..., help="Key name: writes NAME.key and NAME.pub."),
        out: Path = typer.Option(Path("."), "-o", "--out", help="Folder to write the keys in."),
        force: bool = typer.Option(False, "--force", help="Replace an existing key."),
    ) -> None:
        """Make an Ed25519 key pair: NAME.key (private, mode 0600) and NAME.pub (public).

        Give NAME.pub to the referee; keep NAME.key to yourself.
        """
        from referee.pbem.keys import generate, write_key_pair

        key = generate(name)
        key_path, pub_path = write_key_pair(key, out, force=force)
        typer.echo(f"private key: {key_path} (mode 0600; never share it)")
        typer.echo(f"public key:  {pub_path}")
        typer.echo(f"fingerprint: {key.public.short}")

    @app.command()
    def new(
        game_dir: Path = typer.Argument(..., help="Folder for the new game archive."),
        module_src: Path | None = typer.Option(None, "--module", help="Module source folder."),
        example: str | None = typer.Option(None, "--example", help="A bundled module."),
        scenario: str = typer.Option(..., "--scenario", help="Scenario id."),
        player: list[str] = typer.Option(
            [], "--player", help="SIDE=KEY.pub, once per side, e.g. --player NATO=nato.pub."
        ),
        referee_key: Path = typer.Option(..., "--referee-key", help="The referee's .key."),
        option: list[str] = typer.Option([], "--option", help="Optional rule, e.g. 14.1."),
        game_id: str | None = typer.Option(None, "--game-id", help="Default: folder name."),
        turns_of_dice: int = typer.Option(
            1024, "--turns-of-dice", help="Adjudications the dice commitment covers."
        ),
        referee_dir: Path | None = typer.Option(
            None,
            "--referee-dir",
            envvar="REFEREE_DIR",
            help="Private folder for the dice seeds (default ~/.referee/games/GAME_ID).",
        ),
        picture_dpi: int = typer.Option(
            100, "--picture-dpi", help="Resolution of the position picture; 0 for none."
        ),
    ) -> None:
        """Create a game archive and sign report 000, the set-up request."""
        from referee.commands.common import load_checked, resolve_source
        from referee.errors import UserError
        from referee.pbem.game import create_game, parse_player_option, refuse_private_inside
        from referee.pbem.keys import load_private, load_public

        refuse_private_inside(game_dir, referee_key)
        module = load_checked(resolve_source(module_src, example), quiet=True)
        players = {}
        for text in player:
            side, path = parse_player_option(text)
            if side in players:
                raise UserError(f"--player {side} given twice")
            players[side] = load_public(path)
        made = create_game(
            game_dir,
            module,
            scenario=scenario,
            players=players,
            referee_key=load_private(referee_key),
            options=tuple(option),
            game_id=game_id,
            dice_length=turns_of_dice,
            referee_dir=referee_dir,
            picture_dpi=picture_dpi,
        )
        typer.echo(f"created game {made.game_id} in {game_dir}")
        typer.echo(f"dice seeds (secret, keep them): {made.seeds_path}")
        typer.echo(f"report: {game_dir}/turns/000-setup-request/report.md")
        typer.echo(f"report SHA-256: {made.report_sha256}")
        if made.awaiting:
            typer.echo(f"waiting for: {made.awaiting['what']}")

    @app.command()
    def sign(
        orders: Path = typer.Argument(..., help="The orders file to sign."),
        key: Path = typer.Option(..., "--key", help="Your private .key."),
        game: Path | None = typer.Option(
            None, "--game", help="The game archive: fill in and check the envelope headers."
        ),
        detached: bool = typer.Option(
            False, "--detached", help="Write the signature to ORDERS.sig instead."
        ),
        out: Path | None = typer.Option(None, "-o", "--out", help="Write here, not in place."),
    ) -> None:
        """Sign an orders file (an armoured block at the end, or ORDERS.sig)."""
        from referee.pbem.envelope import read_orders_file
        from referee.pbem.keys import load_private
        from referee.pbem.problems import Refusal
        from referee.pbem.signing import sign_orders
        from referee.safeio import write_text_atomic

        try:
            text = read_orders_file(orders)
            signed = sign_orders(text, orders.name, load_private(key), game)
        except Refusal as exc:
            _refused(exc, False)
            return
        target = out or orders
        if detached:
            write_text_atomic(target, signed.body)
            sig = target.with_name(target.name + ".sig")
            write_text_atomic(sig, signed.block.armour())
            typer.echo(f"signed: {target} (signature in {sig})")
        else:
            write_text_atomic(target, signed.text)
            typer.echo(f"signed: {target}")
        for n in signed.notes:
            typer.echo(f"  {n}")

    @app.command()
    def adjudicate(
        game_dir: Path = typer.Argument(..., help="The game archive."),
        orders: list[Path] = typer.Argument(..., help="Signed orders files, in order."),
        key: Path = typer.Option(..., "--key", envvar="REFEREE_KEY", help="The referee .key."),
        module_src: Path | None = typer.Option(None, "--module", help="Module source folder."),
        example: str | None = typer.Option(None, "--example", help="A bundled module."),
        referee_dir: Path | None = typer.Option(
            None, "--referee-dir", envvar="REFEREE_DIR", help="Folder with the dice seeds."
        ),
        dry_run: bool = typer.Option(False, "--dry-run", help="Check and resolve; write nothing."),
        as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    ) -> None:
        """Authenticate, validate and resolve signed orders; write signed reports."""
        from referee.pbem.adjudicate import adjudicate as run
        from referee.pbem.game import refuse_private_inside
        from referee.pbem.keys import load_private
        from referee.pbem.problems import Refusal

        refuse_private_inside(game_dir, key)
        module = _game_module(game_dir, module_src, example)
        try:
            results = run(
                game_dir,
                list(orders),
                referee_key=load_private(key),
                module=module,
                referee_dir=referee_dir,
                dry_run=dry_run,
            )
        except Refusal as exc:
            _refused(exc, as_json)
            return
        if as_json:
            print_json({"ok": True, "results": [r.to_json() for r in results]})
            return
        for r in results:
            for n in r.notes:
                typer.echo(f"note: {n}")
            if r.status == "dry-run":
                # the verdict only: rolls and outcomes stay secret until the real adjudication
                typer.echo(
                    f"{r.orders_file}: accepted (signature, envelope, turn and every order "
                    "checked); nothing written"
                )
                continue
            if r.status == "adjudicated":
                typer.echo(f"{r.orders_file}: wrote {game_dir}/{r.folder}")
            rep = r.report
            for roll in rep.get("rolls", []):
                typer.echo(
                    f"  roll {roll['index']}: d{roll['sides']} = {roll['value']} "
                    f"({roll['purpose']}) [{roll['rule']}]"
                )
            for p in rep.get("pending", []):
                typer.echo(f"  decision owed by {p['side']}: {p['id']} [{p['rule']}]")
            aw = rep.get("awaiting")
            typer.echo(f"  waiting for: {aw['what']}" if aw else "  the game is over")
            typer.echo(f"  report SHA-256: {r.report_sha256}")

    @app.command()
    def verify(
        target: Path = typer.Argument(..., help="A game archive, or a report.json inside one."),
        module_src: Path | None = typer.Option(None, "--module", help="Module source folder."),
        example: str | None = typer.Option(None, "--example", help="A bundled module."),
        referee_fingerprint: str | None = typer.Option(
            None, "--referee-fingerprint", help="Also require this referee key (hex prefix)."
        ),
        as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    ) -> None:
        """Check every signature, the hash chain, every die roll, and replay the game."""
        from referee.pbem.problems import Refusal
        from referee.pbem.verify import VerifyFailure, find_archive, verify_archive

        try:
            game_dir, upto = find_archive(target)
        except Refusal as exc:
            _refused(exc, as_json)
            return
        module = _game_module(game_dir, module_src, example)
        try:
            result = verify_archive(game_dir, module, upto=upto)
            fp = (referee_fingerprint or "").replace(":", "").lower()
            if fp and not result.referee.startswith(fp):
                raise VerifyFailure("game.toml", "referee key", "not the fingerprint you expect")
        except VerifyFailure as exc:
            if as_json:
                print_json(exc.to_json())
            else:
                typer.echo(f"referee: verify FAILED: {exc}", err=True)
            raise typer.Exit(1) from None
        if as_json:
            print_json(result.to_json())
            return
        typer.echo(
            f"{game_dir}: ok: game {result.game_id}, {result.reports} report(s) to "
            f"{result.last_report}, {result.rolls} die roll(s) checked, replay matches"
        )
        typer.echo(f"  referee key {result.referee[:16]}")
        for side, fp_ in sorted(result.players.items()):
            typer.echo(f"  {side} key {fp_[:16]}")
        for n in result.notes:
            typer.echo(f"note: {n}")
