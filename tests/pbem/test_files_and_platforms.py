"""Files we write: who may read them (issue 11, Permissions) and that every module imports on
platforms without ``fcntl`` (Windows), so ``adjudicate`` and ``keygen`` run there too."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.cli import app
from referee.safeio import atomic_path, write_bytes_atomic, write_new_file
from tests.clirun import Runner
from tests.pbem.conftest import Game, setup_both

REPO = Path(__file__).resolve().parents[2]
posix_only = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


@posix_only
def test_the_one_writer_follows_the_umask_except_for_private_files(tmp_path, umask_022):
    write_bytes_atomic(tmp_path / "shared.txt", b"x")
    write_bytes_atomic(tmp_path / "secret.key", b"x", private=True)
    write_new_file(tmp_path / "new.txt", b"x")
    with atomic_path(tmp_path / "zip.vmod") as tmp:
        tmp.write_bytes(b"PK")
    assert _mode(tmp_path / "shared.txt") == 0o644
    assert _mode(tmp_path / "new.txt") == 0o644
    assert _mode(tmp_path / "zip.vmod") == 0o644
    assert _mode(tmp_path / "secret.key") == 0o600
    os.umask(0o077)
    write_bytes_atomic(tmp_path / "shared.txt", b"y")
    assert _mode(tmp_path / "shared.txt") == 0o600  # the user's umask decides
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@posix_only
def test_keygen_under_umask_022_shares_the_public_key_only(tmp_path, umask_022):
    r = Runner().invoke(app, ["keygen", "alice", "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert _mode(tmp_path / "alice.key") == 0o600
    assert _mode(tmp_path / "alice.pub") == 0o644


@posix_only
def test_a_game_archive_is_shared_and_its_seeds_private(make_game, umask_022):
    g: Game = make_game(dpi=20)
    setup_both(g)
    files = [p for p in g.dir.rglob("*") if p.is_file() and p.name != ".lock"]
    assert {p.name for p in files} >= {"game.toml", "state.json", "report.json", "report.md"}
    assert any(p.suffix == ".svg" for p in files) and any(p.suffix == ".vsav" for p in files)
    wrong = {str(p.relative_to(g.dir)): oct(_mode(p)) for p in files if _mode(p) != 0o644}
    assert wrong == {}
    assert _mode(g.referee_dir / "seeds.json") == 0o600


@posix_only
def test_state_files_and_signed_orders_are_shared(tmp_path, umask_022):
    from tests.conformance.rulesets.sixth_fleet_1975 import FIXTURES

    out = tmp_path / "s.json"
    r = Runner().invoke(
        app, ["state", "new", str(FIXTURES / "mini"), "--scenario", "skirmish", "-o", str(out)]
    )
    assert r.exit_code == 0, r.output
    assert _mode(out) == 0o644
    Runner().invoke(app, ["keygen", "bob", "-o", str(tmp_path)])
    orders = tmp_path / "o.txt"
    orders.write_text("game: g\nside: NATO\nturn: 0\n[setup]\n")
    os.chmod(orders, 0o600)
    r = Runner().invoke(app, ["sign", str(orders), "--key", str(tmp_path / "bob.key")])
    assert r.exit_code == 0, r.output
    assert _mode(orders) == 0o644


def test_every_module_imports_without_fcntl() -> None:
    """As on Windows: no module of ``referee`` may need ``fcntl`` (or ``os.fchmod``) to import,
    and the CLI must still start and take the game lock."""
    code = r"""
import os, pkgutil, sys, importlib, tempfile, pathlib
sys.modules["fcntl"] = None  # import fcntl now raises ImportError, as on Windows
if hasattr(os, "fchmod"):
    del os.fchmod
import referee
failed = []
names = [m.name for m in pkgutil.walk_packages(referee.__path__, "referee.")]
names = [n for n in names if not n.endswith("__main__")]  # that one runs the CLI
for name in names:
    try:
        importlib.import_module(name)
    except Exception as exc:
        failed.append(f"{name}: {type(exc).__name__}: {exc}")
print("\n".join(failed))
assert not failed
from referee.pbem.archive import Archive
from referee.pbem.transaction import game_lock
from referee.safeio import write_bytes_atomic
d = pathlib.Path(tempfile.mkdtemp())
write_bytes_atomic(d / "k.key", b"x", private=True)
from referee.pbem.problems import Refusal
with game_lock(Archive(d)):
    try:
        with game_lock(Archive(d)):
            raise SystemExit("a second adjudication got the lock")
    except Refusal as exc:
        assert exc.code == "locked", exc.code
with game_lock(Archive(d)):  # released: free again
    pass
print("ok", len(names))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    count = int(done.stdout.split("ok ")[-1])
    assert count > 100  # every module of the package, not a few
