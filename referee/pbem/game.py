"""``referee new``: create a game archive and sign report 000, the set-up request.

Report 000 fixes everything a replay needs and everything players must trust from the start:
the module (by the hash of its source files), the ruleset, the scenario and optional rules,
the players' and the referee's public keys (by the hash of ``game.toml``), the commitment to
the dice seeds (``docs/dice.md``) and what the first player must send (``ruleset.awaiting``).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from referee.engine.core import GameState
from referee.engine.ruleset import (
    Ruleset,
    get_ruleset,
    hidden_pools,
    hides_information,
    referee_sides,
    uses_commitments,
)
from referee.errors import UserError
from referee.pbem import dice as dicemod
from referee.pbem.archive import (
    GITIGNORE,
    GITIGNORE_SECRET,
    PARTS_FORMAT,
    Archive,
    GameConfig,
    Secrets,
    module_info,
    module_sha256,
    sha256_hex,
    slug,
)
from referee.pbem.commitments import pool_commitments
from referee.pbem.keys import PrivateKey, PublicKey
from referee.pbem.parts import sealer_for
from referee.pbem.publish import hidden_turn_files, secrets_json
from referee.pbem.record import (
    awaiting_info,
    base_report,
    build_turn_files,
    phase_info,
)
from referee.pbem.rulings import TODAY, new_start
from referee.pbem.transaction import write_turn
from referee.safeio import write_bytes_atomic
from referee.source.model import Module

DEFAULT_PICTURE_DPI = 100  # hex numbers ~11 px high: legible on a phone (referee/picture/)
SETUP_FOLDER = "000-setup-request"


@dataclass(frozen=True, slots=True)
class NewGame:
    game_dir: Path
    game_id: str
    seeds_path: Path
    report_sha256: str
    awaiting: dict[str, str] | None
    config: GameConfig


def refuse_private_inside(game_dir: Path, *paths: Path) -> None:
    """A private key or seed file must never be inside the (public) archive."""
    root = game_dir.resolve()
    for p in paths:
        try:
            p.resolve().relative_to(root)
        except ValueError:
            continue
        raise UserError(
            f"{p} is inside the game archive {game_dir}, which players receive",
            hint="keep private keys and --referee-dir outside the game folder",
        )


def create_game(
    game_dir: Path,
    module: Module,
    *,
    scenario: str,
    players: dict[str, PublicKey],
    referee_key: PrivateKey,
    options: tuple[str, ...] = (),
    game_id: str | None = None,
    dice_length: int = dicemod.DEFAULT_LENGTH,
    referee_dir: Path | None = None,
    seed_root: bytes | None = None,
    picture_dpi: int = DEFAULT_PICTURE_DPI,
    ruleset: Ruleset | None = None,
    player_nonces: bool = True,
) -> NewGame:
    gid = game_id or slug(game_dir.resolve().name)
    if not dicemod.GAME_ID_RE.match(gid):
        raise UserError(
            f"game id {gid!r} is not allowed",
            hint="use letters, digits, '-', '_' or '.' (at most 64), e.g. --game-id sf-2024-1",
        )
    module.scenario(scenario)  # an unknown one: a UserError naming those there are
    rs = ruleset or get_ruleset(module.ruleset)
    automatic = referee_sides(rs)
    sides = sorted(s.id for s in module.sides if s.id not in automatic)
    if sorted(players) != sides:
        played = f" ({', '.join(automatic)} is played by the ruleset)" if automatic else ""
        raise UserError(
            f"name one public key per side: {', '.join(sides)}{played} "
            f"(got {', '.join(sorted(players))})",
            hint=" ".join(f"--player {s}={s.lower()}.pub" for s in sides),
        )
    _refuse_request(module, players, options, picture_dpi, game_dir)
    archive = Archive(game_dir)
    schema = module.schema if ruleset is None else None
    if schema is not None and module.map.kind not in schema.map_kinds:
        raise UserError(
            f"ruleset {module.ruleset} plays on {', '.join(schema.map_kinds)} maps; "
            f"the map of module {module.id} is {module.map.kind}",
            hint="a game on this map needs a ruleset that declares its map kind (map_kinds)",
        )
    options = tuple(sorted(set(options)))
    state = new_start(rs, module, scenario, gid, options)
    secret = dicemod.SeedSecret.new(gid, dice_length, seed_root)
    folder = dicemod.referee_dir(gid, referee_dir)
    refuse_private_inside(game_dir, folder)
    cfg = GameConfig(
        game_id=gid,
        ruleset=rs.id,
        scenario=scenario,
        options=options,
        module_id=module.id,
        module_name=module.name,
        module_version=module.version,
        module_sha256=module_sha256(module.root),
        referee=referee_key.public,
        players=dict(players),
        dice_algorithm=dicemod.ALGORITHM,
        dice_head=secret.head.hex(),
        dice_length=secret.length,
        picture_dpi=picture_dpi,
        player_nonces=player_nonces,
        secrets=(
            Secrets(
                hides_information(rs),
                dicemod.HIDDEN_ALGORITHM,
                secret.hidden_head.hex(),
                automatic,
                PARTS_FORMAT,
            )
            if uses_commitments(rs)
            else None
        ),
    )
    toml_bytes = cfg.to_toml().encode()
    report = base_report(
        game_id=gid,
        sequence=0,
        title="set-up request",
        previous_report=None,
        game_toml_sha256=sha256_hex(toml_bytes),
        module=module_info(cfg),
        ruleset=rs.id,
        scenario=scenario,
        options=options,
        referee_fingerprint=cfg.referee.fingerprint,
    )
    report.update(
        players={
            s: {"key": k.line(), "fingerprint": k.fingerprint} for s, k in sorted(players.items())
        },
        dice={"commitment": secret.commitment()},
        orders=None,
        before=None,
        after=phase_info(state),
        rolls=[],
        events=[],
        pending=[p.to_json() for p in state.pending],
        awaiting=awaiting_info(module, rs, state),
        score=TODAY.score(rs, module, state),  # a new game reads the score as today
    )
    secret_files: dict[str, bytes] | None = None
    if cfg.secrets is None:
        files, rsha = build_turn_files(
            module,
            rs,
            report=report,
            state=state,
            before=None,
            events=(),
            orders_text=None,
            referee_key=referee_key,
            picture_dpi=picture_dpi,
        )
        state_bytes = files["state.json"]
    else:
        files, secret_files, rsha, state_bytes = _setup_with_commitments(
            module, rs, report, state, secret, referee_key, picture_dpi, cfg
        )
    ref_made, game_made = _missing_folders(folder), _missing_folders(game_dir)
    before = set() if game_made else {p.name for p in game_dir.iterdir()}
    seeds_path = dicemod.save_secret(secret, folder)
    try:
        game_dir.mkdir(parents=True, exist_ok=True)
        archive.turns.mkdir()
        write_turn(archive, SETUP_FOLDER, files, secret_files)
        gitignore = GITIGNORE if cfg.secrets is None else GITIGNORE_SECRET
        write_bytes_atomic(game_dir / ".gitignore", gitignore.encode())
        write_bytes_atomic(archive.game_toml, toml_bytes)
        write_bytes_atomic(archive.state_path(None, cfg.hides_information), state_bytes)
    except BaseException:
        # a refused `new` leaves nothing behind: not the seeds, nor a folder it made
        with contextlib.suppress(OSError):
            os.unlink(seeds_path)
        for d in ref_made:  # deepest first; a folder something else filled meanwhile stays
            with contextlib.suppress(OSError):
                d.rmdir()
        if game_made:
            shutil.rmtree(game_made[-1], ignore_errors=True)
        else:  # the folder was there (without a game): take back only what this run added
            for p in game_dir.iterdir():
                if p.name not in before:
                    if p.is_dir() and not p.is_symlink():
                        shutil.rmtree(p, ignore_errors=True)
                    else:
                        with contextlib.suppress(OSError):
                            p.unlink()
        raise
    return NewGame(game_dir, gid, seeds_path, rsha, report["awaiting"], cfg)


def _refuse_request(
    module: Module,
    players: dict[str, PublicKey],
    options: tuple[str, ...],
    picture_dpi: int,
    game_dir: Path,
) -> None:
    """What ``new`` refuses before it writes anything: two sides with one key, an optional
    rule the module lacks, a picture resolution out of range, a folder that holds a game or
    a private key."""
    fps = [k.fingerprint for k in players.values()]
    if len(set(fps)) != len(fps):
        raise UserError("two sides have the same public key", hint="each player makes a key")
    for o in options:
        if o not in module.optional_rules:
            raise UserError(
                f"module {module.id} has no optional rule {o!r}",
                hint="optional rules: " + (", ".join(sorted(module.optional_rules)) or "none"),
            )
    if not 0 <= picture_dpi <= 300:
        raise UserError(f"picture dpi must be 0..300, not {picture_dpi}")
    refuse_game_folder(game_dir)


def refuse_game_folder(game_dir: Path) -> None:
    """A game folder ``new`` must not write into: a file, a folder that holds a game or a
    private key."""
    archive = Archive(game_dir)
    if game_dir.exists():
        if not game_dir.is_dir():
            raise UserError(f"{game_dir} exists and is not a folder")
        taken = [n for n in ("game.toml", "state.json", "turns") if (game_dir / n).exists()]
        if taken:
            raise UserError(
                f"{game_dir} already holds a game ({', '.join(taken)})",
                hint="choose a new folder",
            )
        keys = archive.key_files()
        if keys:
            raise UserError(
                f"{keys[0]}: a private key or seed file inside the game folder",
                hint="move private files out of the game folder; players receive the archive",
            )


def _missing_folders(path: Path) -> list[Path]:
    """The folders that must be made for ``path`` to exist, deepest first (what a failed
    ``new`` must remove again)."""
    made: list[Path] = []
    while not os.path.lexists(path) and path != path.parent:
        made.append(path)
        path = path.parent
    return made


def _setup_with_commitments(
    module: Module,
    rs: Ruleset,
    report: dict,
    state: GameState,
    secret: dicemod.SeedSecret,
    referee_key: PrivateKey,
    picture_dpi: int,
    cfg: GameConfig,
) -> tuple[dict[str, bytes], dict[str, bytes], str, bytes]:
    """Report 000 of a game with commitments: the hidden-dice head and a commitment to
    every entry of every hidden pool (``docs/pbem.md``); what is hidden goes to
    ``secret/turns/000-setup-request/``."""
    hseed = secret.hidden_seed(0)
    report["dice"]["hidden"] = {
        "algorithm": dicemod.HIDDEN_ALGORITHM,
        "head": secret.hidden_head.hex(),
        "length": secret.length + 1,
    }
    pools = hidden_pools(rs, module, state)
    if pools:
        report["commitments"] = {"pools": pool_commitments(hseed, pools)}
    if not hides_information(rs):
        kept = {"secrets.json": secrets_json(0, hseed)}
        files, rsha = build_turn_files(
            module,
            rs,
            report=report,
            state=state,
            before=None,
            events=(),
            orders_text=None,
            referee_key=referee_key,
            picture_dpi=picture_dpi,
            sealer=sealer_for(cfg, hseed),
            referee_files=kept,
        )
        return files, kept, rsha, files["state.json"]
    files, kept, rsha = hidden_turn_files(
        module,
        rs,
        record=report,
        state=state,
        before=None,
        events=(),
        secret_orders={},
        hidden_seed=hseed,
        step=0,
        referee_key=referee_key,
        picture_dpi=picture_dpi,
        sealer=sealer_for(cfg, hseed),
    )
    return files, kept, rsha, kept["state.json"]


_PLAYER_RE = re.compile(r"^([^=]+)=(.+)$")


def parse_player_option(text: str) -> tuple[str, Path]:
    """``SIDE=path/to/key.pub`` from ``--player``."""
    m = _PLAYER_RE.match(text)
    if not m:
        raise UserError(f"--player {text!r}: expected SIDE=KEY.pub", hint="--player NATO=nato.pub")
    return m.group(1).strip(), Path(m.group(2).strip())
