"""The rules data of a game: the module source it was created with, found and checked.

``game.toml`` records the module's id, version and the SHA-256 of its source files
(:func:`referee.pbem.archive.module_sha256`). Adjudication and verification load a module
source (``--module SRC``, ``--example NAME``, by default the bundled example with the game's
module id) and refuse it unless its hash matches: a replay with other rules data would prove
nothing. A game started from a VASSAL module (``referee new --vmod FILE.vmod``) keeps the
source imported from it in the archive, in :data:`GAME_SOURCE`: that is its module by default.
"""

from __future__ import annotations

from pathlib import Path

from referee.errors import UserError
from referee.pbem.archive import GameConfig, module_sha256
from referee.source.model import Module

GAME_SOURCE = "module"
"""The folder of a game archive that holds the module source ``referee new --vmod`` imported
(public: the players have the .vmod; its hash is in report 000 as any module's)."""


def module_source(
    cfg: GameConfig, src: Path | None, example: str | None, game_dir: Path | None = None
) -> Path:
    """The module source of a game: ``--module``, ``--example``, the source a game started
    from a .vmod keeps in ``GAME_DIR/module``, or the bundled example of its module id."""
    from referee.resources import example_names, example_path

    if src is not None:
        return src
    own = None if game_dir is None else game_dir / GAME_SOURCE
    if example is None and own is not None and (own / "module.toml").is_file():
        return own
    name = example or cfg.module_id
    p = example_path(name)
    if p is None:
        raise UserError(
            f"no bundled module {name!r} for game {cfg.game_id}",
            hint="give the module source with --module SRC (bundled: "
            + (", ".join(example_names()) or "none")
            + ")",
        )
    return p


def load_game_module(cfg: GameConfig, folder: Path) -> Module:
    """Load ``folder`` and check it is the module the game was created with (answered from
    the active cache when this exact source was loaded before: ``load_module_cached``)."""
    from referee.source.cached import load_module_cached as load_module
    from referee.vassal.foreign.vassal_only import is_vassal_only

    got = module_sha256(folder)
    if got != cfg.module_sha256:
        raise UserError(
            f"{folder}: this module source is not the one game {cfg.game_id} was created with "
            f"(source SHA-256 {got[:16]}..., the game records {cfg.module_sha256[:16]}...)",
            hint=f"use the {cfg.module_id} {cfg.module_version} source the game started with",
        )
    if is_vassal_only(folder):  # an imported VASSAL module, played as a declared game
        from referee.vassal.foreign.game import load_imported_game

        module, diags = load_module(folder, load_imported_game, salt="imported-game")
    else:
        module, diags = load_module(folder)
    if module is None:
        first = diags.errors[0] if diags.errors else "unknown error"
        raise UserError(f"{folder}: the module source does not load: {first}")
    return module
