"""Fixtures for the PBEM tests: the toy ruleset, keys, games with fixed dice seeds."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.pbem import dice as dicemod
from referee.pbem.adjudicate import StepResult, adjudicate
from referee.pbem.archive import Archive
from referee.pbem.envelope import normalise_body
from referee.pbem.game import create_game
from referee.pbem.keys import PrivateKey, generate, write_key_pair
from referee.pbem.signing import sign_orders
from referee.source.loader import load_module
from referee.source.model import Module
from tests.pbem import toy

toy.install()

SEED_ROOT = bytes(range(32))
TOY_DIR = Path(toy.TOY_FIXTURE)


@pytest.fixture(scope="session")
def toy_module() -> Module:
    module, diags = load_module(TOY_DIR)
    assert module is not None, [str(d) for d in diags.items]
    return module


@pytest.fixture(scope="session")
def keys(tmp_path_factory: pytest.TempPathFactory) -> dict[str, PrivateKey]:
    folder = tmp_path_factory.mktemp("keys")
    out = {}
    for name in ("nato", "soviet", "ref", "stranger"):
        k = generate(name)
        write_key_pair(k, folder)
        out[name] = k
    return out


@dataclass
class Game:
    """A toy game under test: its folder, the referee's private folder, the keys."""

    dir: Path
    referee_dir: Path
    module: Module
    keys: dict[str, PrivateKey]

    @property
    def archive(self) -> Archive:
        return Archive(self.dir)

    def signed(self, side: str, lines: list[str], name: str | None = None, **head: str) -> Path:
        """Write orders for ``side`` with a filled-in envelope, signed by that side's key."""
        key = self.keys["nato" if side == "NATO" else "soviet"]
        text = "\n".join(f"{k}: {v}" for k, v in head.items()) + "\n" + "\n".join(lines) + "\n"
        signed = sign_orders(text, "orders", key, self.dir)
        path = self.dir.parent / (name or f"{side}-{len(self.archive.turn_dirs())}.txt")
        path.write_text(signed.text)
        return path

    def run(self, *paths: Path, dry_run: bool = False) -> list[StepResult]:
        return adjudicate(
            self.dir,
            list(paths),
            referee_key=self.keys["ref"],
            module=self.module,
            referee_dir=self.referee_dir,
            dry_run=dry_run,
        )

    def seed(self, k: int) -> bytes:
        return dicemod.seed_at(SEED_ROOT, 64, k)

    def orders_rolling(self, side: str, lines: list[str], first_roll: set[int]) -> Path:
        """Signed orders whose first d6 roll is in ``first_roll`` (varies a comment line)."""
        k = len(self.archive.turn_dirs())
        for i in range(500):
            path = self.signed(side, [*lines, f"# try {i}"], name=f"{side}-{k}.txt")
            from referee.pbem.envelope import open_envelope

            env = open_envelope(path.read_text(), path.name)
            raw = hashlib.sha256(normalise_body(env.body).encode()).digest()
            v, _, _ = dicemod.derive(self.seed(k), raw, 0, 6)
            if v in first_roll:
                return path
        raise AssertionError("no orders found with that roll")


@pytest.fixture
def make_game(
    tmp_path: Path, toy_module: Module, keys: dict[str, PrivateKey]
) -> Callable[..., Game]:
    def make(
        name: str = "g1", dpi: int = 0, scenario: str = "skirmish", player_nonces: bool = True
    ) -> Game:
        game_dir = tmp_path / name
        ref_dir = tmp_path / f"{name}-secret"
        create_game(
            game_dir,
            toy_module,
            scenario=scenario,
            players={"NATO": keys["nato"].public, "Soviet": keys["soviet"].public},
            referee_key=keys["ref"],
            game_id=name,
            dice_length=64,
            referee_dir=ref_dir,
            seed_root=SEED_ROOT,
            picture_dpi=dpi,
            player_nonces=player_nonces,
        )
        return Game(game_dir, ref_dir, toy_module, keys)

    return make


def setup_both(g: Game) -> None:
    """Play both set-ups: NATO DD at 0202, F4.2 at 0203; Soviets at 0304/0303/0506."""
    g.run(g.signed("NATO", ["place US-DD-1 0202", "place US-F4.2 0203"]))
    g.run(g.signed("Soviet", ["place SO-DD-1 0403", "place SO-SG-1 0302", "place SO-T16.1 0506"]))
