"""The play-by-email commands: ``keygen``, ``new``, ``sign``, ``adjudicate``, ``verify``.

Exit codes (docs/ci.md, :mod:`referee.commands.common`): 0 done (or already done); 1 refused
(orders unsigned, out of turn, illegal...) or verification failed; 2 bad invocation or
unreadable input; 3 (``verify``) the record holds but files a player opens could not be
proved; 75 the game is locked by another adjudication (try again later).
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import typer

from referee.commands.common import (
    EXIT_LOCKED,
    EXIT_PROBLEMS,
    EXIT_UNCHECKED,
    TextOrJson,
    example_option,
    format_option,
    json_option,
    module_option,
    no_cache_option,
    output_format,
    print_json,
    quiet_option,
)

EXIT_REFUSED = EXIT_PROBLEMS
REFEREE_DIR_HELP = (
    "Private folder for the dice seeds (default $REFEREE_HOME/games/GAME_ID, "
    "else ~/.referee/games/GAME_ID)."
)


ROLLS_SHOWN = 8  # `adjudicate` prints each roll up to this many, else how many


def passphrase_file_option() -> typer.models.OptionInfo:
    return typer.Option(
        None,
        "--passphrase-file",
        metavar="FILE",
        help="The key's passphrase (first line of FILE). Default: $REFEREE_PASSPHRASE, else "
        "asked in a terminal; only a protected key needs one.",
    )


def load_key(path: Path, passphrase_file: Path | None):
    """A private key, asking for its passphrase only if it has one (docs/pbem.md)."""
    from referee.pbem.keys import load_private, passphrase_source

    return load_private(path, passphrase_source(passphrase_file))


def _new_passphrase(file: Path | None, ask: bool) -> bytes | None:
    """The passphrase to protect a new key with: from ``file``, or asked twice."""
    import getpass

    from referee.errors import UserError
    from referee.pbem.keys import passphrase_source

    if file is not None and ask:
        raise UserError("give --passphrase-file or --ask-passphrase, not both")
    if file is not None:
        secret = passphrase_source(file)(file)
        if not secret:
            raise UserError(f"{file}: the first line (the passphrase) is empty")
        return secret
    if not ask:
        return None
    first = getpass.getpass("passphrase for the new key: ")
    if not first:
        raise UserError("an empty passphrase", hint="leave out --ask-passphrase for no passphrase")
    if getpass.getpass("the same passphrase again: ") != first:
        raise UserError("the two passphrases differ; no key was written")
    return first.encode("utf-8")


def refused(exc: Exception, as_json: bool) -> None:
    from referee.pbem.problems import Refusal

    assert isinstance(exc, Refusal)
    if as_json:
        print_json(exc.to_json())
    else:
        typer.echo(f"referee: refused ({exc.code}): {exc}", err=True)
    raise typer.Exit(EXIT_LOCKED if exc.code == "locked" else EXIT_REFUSED)


def _verify_with_bar(
    game_dir: Path,
    module: Any,
    upto: int | None,
    since_sha: str | None,
    *,
    show: bool,
    keys: Sequence[Any] = (),
) -> Any:
    """``verify_archive``, with a progress bar of the steps on a terminal (stderr)."""
    import sys

    from referee.pbem.archive import Archive
    from referee.pbem.verify import verify_archive

    if not (show and sys.stderr.isatty()):
        return verify_archive(game_dir, module, upto=upto, since_sha=since_sha, keys=keys)
    try:
        steps = len(Archive(game_dir).turn_dirs())
    except Exception:
        steps = 0
    if upto is not None:
        steps = min(steps, upto + 1)
    with typer.progressbar(length=steps, label="verify", file=sys.stderr, show_pos=True) as bar:
        return verify_archive(
            game_dir, module, upto=upto, since_sha=since_sha, keys=keys, progress=bar.update
        )


def game_module(game_dir: Path, module_src: Path | None, example: str | None):
    from referee.pbem.archive import Archive
    from referee.pbem.rulesdata import load_game_module, module_source

    archive = Archive(game_dir)
    archive.require()
    cfg = archive.config()
    return load_game_module(cfg, module_source(cfg, module_src, example, game_dir))


def keygen(
    name: str = typer.Argument(..., metavar="NAME", help="Key name: writes NAME.key and NAME.pub."),
    out: Path = typer.Option(
        Path("."), "-o", "--out", metavar="DIR", help="Folder to write the keys in."
    ),
    force: bool = typer.Option(False, "--force", help="Replace an existing key."),
    passphrase_file: Path | None = typer.Option(
        None,
        "--passphrase-file",
        metavar="FILE",
        help="Protect the private key with the passphrase on the first line of FILE.",
    ),
    ask: bool = typer.Option(
        False,
        "--ask-passphrase",
        help="Protect the private key with a passphrase (asked twice).",
    ),
    fmt: TextOrJson = format_option(),
    as_json: bool = json_option(),
    quiet: bool = quiet_option("Print only the fingerprint."),
) -> None:
    """Make an OpenSSH Ed25519 key pair: NAME.key (private, mode 0600, optionally
    passphrase-protected) and NAME.pub (public, one `ssh-ed25519 AAAA... NAME` line).

    Give NAME.pub to the referee; keep NAME.key to yourself. Both are OpenSSH files:
    `ssh-add NAME.key` and `ssh-keygen -Y sign -f NAME.key` work with them, and an
    existing ~/.ssh/id_ed25519 key can be used instead.
    """
    from referee.commands.common import refuse_stdio_folder
    from referee.pbem.keys import generate, write_key_pair

    how = output_format(fmt, as_json)
    refuse_stdio_folder(out)
    secret = _new_passphrase(passphrase_file, ask)
    key = generate(name)
    key_path, pub_path = write_key_pair(key, out, force=force, passphrase=secret)
    if how == "json":
        print_json(
            {
                "private_key": str(key_path),
                "public_key": str(pub_path),
                "fingerprint": key.public.short,
                "ssh_fingerprint": key.public.ssh_fingerprint,
                "passphrase": secret is not None,
            }
        )
    elif quiet:
        typer.echo(key.public.short)
    else:
        guard = "protected by a passphrase" if secret else "no passphrase"
        typer.echo(f"private key: {key_path} (mode 0600, {guard}; never share it)")
        typer.echo(f"public key:  {pub_path}")
        typer.echo(f"fingerprint: {key.public.short}")
        typer.echo(f"ssh-keygen -l shows: {key.public.ssh_fingerprint}")


@contextlib.contextmanager
def _vmod_source(
    game_dir: Path, vmod: Path | None, module_src: Path | None, example: str | None
) -> Iterator[Path | None]:
    """``new --vmod``: the module imported into ``GAME_DIR/module`` for the block, taken
    away again (with the game folder, if this made it) when the block fails, so a refused
    ``new`` leaves nothing behind; ``None`` without --vmod."""
    from referee.commands.import_vmod import import_source
    from referee.errors import UserError
    from referee.pbem.game import refuse_game_folder
    from referee.pbem.rulesdata import GAME_SOURCE

    if vmod is None:
        yield None
        return
    if module_src is not None or example is not None:
        raise UserError(
            "give either --vmod or --module/--example, not both",
            hint="--vmod FILE.vmod starts from the module itself; --module SRC from its source",
        )
    refuse_game_folder(game_dir)
    made = not game_dir.exists()
    out = game_dir / GAME_SOURCE
    if out.exists():
        raise UserError(
            f"{out} already exists (a game started from a .vmod keeps the module's source there)",
            hint="choose a new game folder",
        )
    try:
        import_source(vmod, out, vmod.name)
        yield out
    except BaseException:
        shutil.rmtree(game_dir if made else out, ignore_errors=True)
        raise


def new(
    game_dir: Path = typer.Argument(
        ..., metavar="GAME_DIR", help="Folder for the new game archive."
    ),
    module_src: Path | None = module_option(),
    example: str | None = example_option(),
    vmod: Path | None = typer.Option(
        None,
        "--vmod",
        metavar="MODULE.vmod",
        help="Any VASSAL module instead: imported into GAME_DIR/module (as import-vmod "
        "does) and played as a declared game, from one of its predefined set-ups.",
    ),
    scenario: str = typer.Option(..., "--scenario", metavar="ID", help="Scenario id."),
    player: list[str] = typer.Option(
        [],
        "--player",
        metavar="SIDE=KEY.pub",
        help="A player's public key, once per side, e.g. --player NATO=nato.pub.",
    ),
    referee_key: Path = typer.Option(
        ..., "--referee-key", metavar="FILE.key", help="The referee's private key."
    ),
    passphrase_file: Path | None = passphrase_file_option(),
    option: list[str] = typer.Option(
        [], "--option", metavar="CASE", help="Optional rule, e.g. 14.1 (repeatable)."
    ),
    game_id: str | None = typer.Option(
        None, "--game-id", metavar="ID", help="Game id (default: the folder's name)."
    ),
    turns_of_dice: int = typer.Option(
        1024, "--turns-of-dice", metavar="N", help="Adjudications the dice commitment covers."
    ),
    referee_dir: Path | None = typer.Option(
        None, "--referee-dir", metavar="DIR", envvar="REFEREE_DIR", help=REFEREE_DIR_HELP
    ),
    picture_dpi: int = typer.Option(
        100, "--picture-dpi", metavar="DPI", help="Resolution of the position picture; 0: none."
    ),
    fmt: TextOrJson = format_option(),
    as_json: bool = json_option(),
    quiet: bool = quiet_option("Print only the game folder."),
) -> None:
    """Create a game archive and sign report 000, the set-up request.

    With --vmod, the module's source is imported into GAME_DIR/module and the game's other
    commands (adjudicate, verify, import-vlog, viewer) use it without --module.
    """
    from referee.commands.common import load_game_source, resolve_source
    from referee.errors import UserError
    from referee.pbem.game import create_game, parse_player_option, refuse_private_inside
    from referee.pbem.keys import load_public

    how = output_format(fmt, as_json)
    refuse_private_inside(game_dir, referee_key)
    with _vmod_source(game_dir, vmod, module_src, example) as src:
        module = load_game_source(src or resolve_source(module_src, example), quiet=True)
        players = {}
        for text in player:
            side, path = parse_player_option(text)
            if side in players:
                raise UserError(f"--player {side} given twice")
            players[side] = load_public(path)
        key = load_key(referee_key, passphrase_file)
        made = create_game(
            game_dir,
            module,
            scenario=scenario,
            players=players,
            referee_key=key,
            options=tuple(option),
            game_id=game_id,
            dice_length=turns_of_dice,
            referee_dir=referee_dir,
            picture_dpi=picture_dpi,
        )
    report = game_dir / "turns" / "000-setup-request" / "report.md"
    if how == "json":
        print_json(
            {
                "game_id": made.game_id,
                "game_dir": str(game_dir),
                "seeds": str(made.seeds_path),
                "report": str(report),
                "report_sha256": made.report_sha256,
                "awaiting": made.awaiting,
                **(
                    {"referee_only": str(game_dir / "secret")}
                    if made.config.secrets is not None
                    else {}
                ),
            }
        )
        return
    if quiet:
        typer.echo(str(game_dir))
        return
    typer.echo(f"created game {made.game_id} in {game_dir}")
    typer.echo(f"dice seeds (secret, keep them): {made.seeds_path}")
    if made.config.secrets is not None:
        typer.echo(
            "your plaintext working copy of the referee-only part (never publish it; "
            f"each step also keeps it encrypted in referee.age): {game_dir}/secret/"
        )
    typer.echo(f"report: {report}")
    typer.echo(f"report SHA-256: {made.report_sha256}")
    if made.awaiting:
        typer.echo(f"waiting for: {made.awaiting['what']}")


def sign(
    orders: Path = typer.Argument(
        ..., metavar="ORDERS", help="The orders file to sign; - reads standard input."
    ),
    key: Path = typer.Option(..., "--key", metavar="FILE.key", help="Your private key."),
    passphrase_file: Path | None = passphrase_file_option(),
    game_dir: Path | None = typer.Option(
        None,
        "--game-dir",
        metavar="GAME_DIR",
        help="The game archive: fill in and check the envelope headers.",
    ),
    game_old: Path | None = typer.Option(None, "--game", hidden=True),
    detached: bool = typer.Option(
        False,
        "--detached",
        help="Write only the signature, to ORDERS.sig (or -o FILE.sig), and leave ORDERS as it is.",
    ),
    out: Path | None = typer.Option(
        None,
        "-o",
        "--out",
        metavar="FILE",
        help="Write the signed orders (with --detached: the signature) here, not in place; "
        "- for standard output.",
    ),
    fmt: TextOrJson = format_option(),
    as_json: bool = json_option(),
    quiet: bool = quiet_option("Print nothing but errors."),
) -> None:
    """Sign an orders file: an armoured block at its end, or (--detached) a separate
    signature file."""
    from referee.commands.common import (
        is_stdio,
        read_input_bytes,
        renamed,
        shown_name,
        write_output,
    )
    from referee.errors import UserError
    from referee.pbem.envelope import (
        MAX_ORDERS_BYTES,
        decode_orders,
        normalise_body,
        read_orders_file,
    )
    from referee.pbem.problems import Refusal
    from referee.pbem.signing import sign_orders

    how = output_format(fmt, as_json)
    game = renamed(game_dir, game_old, "--game-dir", "--game")
    from_stdin = is_stdio(orders)
    name = "orders.txt" if from_stdin else orders.name
    try:
        if from_stdin:
            text = decode_orders(read_input_bytes(orders, MAX_ORDERS_BYTES), "<stdin>")
        else:
            text = read_orders_file(orders)
        signed = sign_orders(text, name, load_key(key, passphrase_file), game)
    except Refusal as exc:
        if exc.code in ("bad-input", "too-large"):  # a file we cannot read: exit 2
            raise UserError(str(exc)) from None
        refused(exc, how == "json")
        return
    written: dict[str, str | None] = {"orders": None, "signature": None}
    notes = list(signed.notes)
    if detached:
        sig = out if out is not None else (orders if from_stdin else None)
        if sig is None:
            sig = orders.with_name(orders.name + ".sig")
        if signed.body != normalise_body(text):
            # the signature covers headers (or the removal of an old block) that the
            # file lacks: it would never verify against the file as it is
            if from_stdin:
                raise UserError(
                    "signing changed the orders (" + "; ".join(notes) + "), so a detached "
                    "signature would not match what you send",
                    hint="sign a file, or put those headers in yourself",
                )
            write_output(orders, signed.body)
            written["orders"] = str(orders)
            notes.append(f"rewrote {orders} so that it matches its signature")
        if is_stdio(sig) and how == "json":
            raise UserError("-o - and --json both want standard output", hint="give one")
        write_output(sig, signed.block.armour())
        written["signature"] = shown_name(sig)
    else:
        target = out if out is not None else orders
        if is_stdio(target) and how == "json":
            raise UserError("-o - and --json both want standard output", hint="give one")
        write_output(target, signed.text)
        written["orders"] = shown_name(target)
    if how == "json":
        print_json({"ok": True, **written, "notes": notes})
        return
    if quiet:
        return
    to_stdout = is_stdio(out if out is not None else orders)
    if written["signature"]:
        typer.echo(f"signed: {name} (signature in {written['signature']})", err=to_stdout)
    elif to_stdout:  # name the input, not the stream the signed text went to
        typer.echo(f"signed: {shown_name(orders)} (to standard output)", err=True)
    else:
        typer.echo(f"signed: {written['orders']}")
    for n in notes:
        typer.echo(f"  {n}", err=to_stdout)


def adjudicate(
    game_dir: Path = typer.Argument(..., metavar="GAME_DIR", help="The game archive."),
    orders: list[Path] = typer.Argument(
        ...,
        metavar="ORDERS",
        help="Signed orders files, in order (a detached ORDERS.sig beside each is used).",
    ),
    key: Path = typer.Option(
        ..., "--key", metavar="FILE.key", envvar="REFEREE_KEY", help="The referee's key."
    ),
    passphrase_file: Path | None = passphrase_file_option(),
    module_src: Path | None = module_option(),
    example: str | None = example_option(),
    referee_dir: Path | None = typer.Option(
        None, "--referee-dir", metavar="DIR", envvar="REFEREE_DIR", help=REFEREE_DIR_HELP
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Check and resolve; write nothing."),
    fmt: TextOrJson = format_option(),
    as_json: bool = json_option(),
    quiet: bool = quiet_option("Print only the folders written (or the verdicts)."),
    no_cache: bool = no_cache_option(),
) -> None:
    """Authenticate, validate and resolve signed orders; write signed reports.

    Exits 75 when another adjudication of the same game is running.
    """
    from referee.cache import activated, cache_from_env
    from referee.pbem.adjudicate import adjudicate as run
    from referee.pbem.game import refuse_private_inside
    from referee.pbem.problems import Refusal

    as_json = output_format(fmt, as_json) == "json"
    refuse_private_inside(game_dir, key)
    try:
        # the cache answers the module's load and the shape checks of earlier reports
        # (the same bytes as without it; see docs/performance.md)
        with activated(cache_from_env(enabled=not no_cache)):
            module = game_module(game_dir, module_src, example)
            results = run(
                game_dir,
                list(orders),
                referee_key=load_key(key, passphrase_file),
                module=module,
                referee_dir=referee_dir,
                dry_run=dry_run,
            )
    except Refusal as exc:
        refused(exc, as_json)
        return
    if as_json:
        print_json({"ok": True, "results": [r.to_json() for r in results]})
        return
    for r in results:
        if quiet:
            if r.status == "adjudicated":
                typer.echo(f"{game_dir}/{r.folder}")
            elif r.status == "dry-run":
                typer.echo(f"{r.orders_file}: accepted")
            continue
        for n in r.notes:
            typer.echo(f"note: {n}")
        if r.status == "dry-run":
            # the verdict and what is certain before any die (warnings): rolls and their
            # outcomes stay secret until the real adjudication
            for w in r.warnings:
                pos = w.get("where") or {}
                at = f"{pos['file']}:{pos['line']}:{pos['col']}: " if pos else ""
                typer.echo(f"{at}warning: [{w['rule']}] {w['message']}")
            typer.echo(
                f"{r.orders_file}: accepted (signature, envelope, turn and every order "
                "checked); nothing written"
            )
            continue
        if r.status == "adjudicated":
            typer.echo(f"{r.orders_file}: wrote {game_dir}/{r.folder}")
        rep = r.report
        rolls = rep.get("rolls", [])
        # a summary on the terminal, the detail in the report (issue 31: a Carrier
        # Battlegroup turn printed 155 roll lines)
        for roll in rolls if len(rolls) <= ROLLS_SHOWN else ():
            typer.echo(
                f"  roll {roll['index']}: d{roll['sides']} = {roll['value']} "
                f"({roll['purpose']}) [{roll['rule']}]"
            )
        if len(rolls) > ROLLS_SHOWN:
            typer.echo(
                f"  {len(rolls)} die rolls: each with its purpose and rule in "
                f"{game_dir}/{r.folder}/report.md"
            )
        for p in rep.get("pending", []):
            typer.echo(f"  decision owed by {p['side']}: {p['id']} [{p['rule']}]")
        aw = rep.get("awaiting")
        typer.echo(f"  waiting for: {aw['what']}" if aw else "  the game is over")
        typer.echo(f"  report SHA-256: {r.report_sha256}")


def verify(
    target: Path = typer.Argument(
        ..., metavar="GAME_DIR|REPORT", help="A game archive, or a report.json inside one."
    ),
    module_src: Path | None = module_option(),
    example: str | None = example_option(),
    referee_fingerprint: str | None = typer.Option(
        None,
        "--referee-fingerprint",
        metavar="HEX",
        help="Also require this referee key (hex prefix).",
    ),
    head: str | None = typer.Option(
        None,
        "--head",
        metavar="HASH|FILE",
        help="The latest report you hold (its report.json SHA-256, the report.json, "
        "report.md or view, or your signed orders answering it): fail when the archive "
        "does not reach it (truncated or forked).",
    ),
    keys: list[Path] = typer.Option(
        [],
        "--key",
        metavar="KEY",
        help="Your private key (a player's or the referee's; repeatable): opens your "
        "part of each step of a game with parts, which is then checked completely. The "
        "parts you hold no key for are checked by their signed hash, and listed.",
    ),
    passphrase_file: Path | None = typer.Option(
        None, "--passphrase-file", help="The first line is the --key's passphrase."
    ),
    since: str | None = typer.Option(
        None,
        "--since",
        metavar="HASH|FILE",
        help="A report you verified before (as --head takes it): every record is checked, "
        "the reports, views, pictures and saves only of the steps after it.",
    ),
    fmt: TextOrJson = format_option(),
    as_json: bool = json_option(),
    quiet: bool = quiet_option(
        "Print nothing: the exit code says it (0 ok, 1 failed, 3 files unchecked)."
    ),
    no_cache: bool = no_cache_option(),
) -> None:
    """Check every signature, the hash chain, every die roll, and replay the game; render
    every file a player opens again and compare. A step whose files an earlier run on this
    machine proved (the same report, the same files, the same program) is not rendered
    again; --no-cache renders every step.

    Exit 0: everything this run could check holds (the parts it could not open or that
    are missing from this copy are listed as notes, and under "parts" in --json). 1: a
    check failed (the file is named). 2: a usage error. 3: the record holds, but some
    files (pictures, viewers or saves written by an earlier referee version) could not
    be proved; they are listed."""
    from referee.cache import activated, cache_from_env
    from referee.pbem.problems import Refusal
    from referee.pbem.verify import (
        VerifyFailure,
        check_head,
        find_archive,
        head_of,
    )

    as_json = output_format(fmt, as_json) == "json"
    try:
        game_dir, upto = find_archive(target)
    except Refusal as exc:
        refused(exc, as_json)
        return
    try:
        # the cache answers the module's load and the steps proved by an earlier run
        # (referee/pbem/proofs.py: the same verdict as without it)
        with activated(cache_from_env(enabled=not no_cache)):
            try:
                module = game_module(game_dir, module_src, example)
            except Refusal as exc:  # a damaged game.toml: the archive fails verification
                raise VerifyFailure("game.toml", "archive", exc.message) from None
            want_head = head_of(head) if head is not None else None
            loaded = [load_key(k, passphrase_file) for k in keys]
            since_sha = head_of(since, "--since") if since is not None else None
            result = _verify_with_bar(
                game_dir, module, upto, since_sha, show=not (quiet or as_json), keys=loaded
            )
        if want_head is not None:
            check_head(result, want_head)
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
        if result.unchecked:
            raise typer.Exit(EXIT_UNCHECKED)
        return
    if quiet:
        if result.unchecked:
            raise typer.Exit(EXIT_UNCHECKED)
        return
    typer.echo(
        f"{game_dir}: {'UNCHECKED FILES' if result.unchecked else 'ok'}: game "
        f"{result.game_id}, {result.reports} report(s) to "
        f"{result.last_report}, {result.rolls} die roll(s) checked, "
        + ("replay matches" if result.replayed else "replay waits for `referee reveal`")
    )
    typer.echo(f"  referee key {result.referee[:16]}")
    for side, fp_ in sorted(result.players.items()):
        typer.echo(f"  {side} key {fp_[:16]}")
    for n in result.notes:
        typer.echo(f"note: {n}")
    for f, why in result.unchecked:
        typer.echo(f"unchecked: {f}: {why}", err=True)
    if result.unchecked:
        typer.echo(
            f"referee: verify: {len(result.unchecked)} file(s) a player opens could not "
            "be proved (above); the record itself holds",
            err=True,
        )
        raise typer.Exit(EXIT_UNCHECKED)


COMMANDS = (keygen, new, sign, adjudicate, verify)


def register(app: typer.Typer) -> None:
    """The play-by-email commands, one function each (their names are the commands')."""
    for command in COMMANDS:
        app.command()(command)
