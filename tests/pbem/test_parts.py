"""Issue 24 §1: one part per recipient. A step of a game with commitments is a public part,
one part per side (``side-SIDE.age``) and the referee-only part (``referee.age``), each
encrypted with age to its owner's OpenSSH key (and the game's parts key): Debian's ``age``
opens a side's part with the player's own key and nothing else; a fresh clone of the
published game (a CI runner with the referee's key and seeds) adjudicates on; a part that
is not what the referee signed, or that its owner's key does not open, fails ``verify``."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from referee.pbem import parts as pt
from referee.pbem.archive import GameConfig, sha256_hex
from referee.pbem.keys import load_private
from referee.pbem.record import CONTEXT_MANIFEST, pretty_json, sign_file
from tests.pbem import toy_sealed, toys_common
from tests.pbem.cliflow import Table, age_decrypt, cli
from tests.pbem.test_forged_renderings import step_seed
from tests.pbem.test_sealed_hidden import PLOTS, SIDES

pytestmark = pytest.mark.skipif(shutil.which("age") is None, reason="Debian's age is needed")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Table:
    root = tmp_path_factory.mktemp("parts")
    t = Table(root, toys_common.module_dir(root, toy_sealed.ID), SIDES)
    t.new()
    for nato, soviet in PLOTS[:2]:
        t.send("NATO", *nato)
        t.send("Soviet", *soviet)
    return t


def _tar_names(data: bytes) -> list[str]:
    return sorted(pt.unpack(data, "part"))


def test_each_part_opens_with_its_owners_openssh_key_in_debians_age(played: Table) -> None:
    folder = played.game / "turns" / "003-NATO-sealed"
    nato, soviet, referee = (played.key(n) for n in ("nato", "soviet", "referee"))
    mine = age_decrypt(folder / "side-NATO.age", nato)
    assert mine is not None
    assert _tar_names(mine) == [
        "options-NATO.json",  # what the viewer offers NATO to draft its orders (issue 28)
        "position-NATO.vsav",
        "view-NATO.json",
        "view-NATO.md",
    ]  # no viewer: it is built on demand from the views (issue 24 item 3)
    assert age_decrypt(folder / "side-NATO.age", soviet) is None
    assert age_decrypt(folder / "side-NATO.age", referee) is None  # the referee has the parts key
    assert age_decrypt(folder / "referee.age", nato) is None
    kept = age_decrypt(folder / "referee.age", referee)
    assert kept is not None
    assert _tar_names(kept) == ["orders.txt", "record.json", "secrets.json", "state.json"]
    # `age -d | tar x`, as docs/pbem.md tells a player
    out = played.root / "untarred"
    out.mkdir()
    subprocess.run(
        f"age -d -i {nato} {folder / 'side-NATO.age'} | tar x -C {out}", shell=True, check=True
    )
    assert json.loads((out / "view-NATO.json").read_text())["side"] == "NATO"
    # the published folder holds no side's file in the clear, and the manifest lists the parts
    names = {p.name for p in folder.iterdir()}
    assert not {n for n in names if n.startswith(("view-", "viewer-", "position-"))}
    manifest = json.loads((folder / "manifest.json").read_text())
    assert set(manifest["parts"]) == {"NATO", "Soviet", "referee"}
    assert manifest["files"]["side-NATO.age"] == sha256_hex((folder / "side-NATO.age").read_bytes())


def test_a_players_own_ssh_keygen_key_opens_his_part(tmp_path: Path) -> None:
    """A player who made his key with OpenSSH (not `referee keygen`) opens his part with it."""
    keys = tmp_path / "keys"
    keys.mkdir()
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "nato", "-f", str(keys / "nato")],
        check=True,
    )
    for name in ("soviet", "referee"):
        assert cli("keygen", name, "--out", keys)[0] == 0
    module = toys_common.module_dir(tmp_path, toy_sealed.ID)
    code, out = cli(
        "new", tmp_path / "game", "--module", module, "--scenario", "skirmish",
        "--player", f"NATO={keys / 'nato.pub'}", "--player", f"Soviet={keys / 'soviet.pub'}",
        "--referee-key", keys / "referee.key", "--referee-dir", tmp_path / "referee-secret",
        "--game-id", "g", "--picture-dpi", "20",
    )  # fmt: skip
    assert code == 0, out
    part = tmp_path / "game" / "turns" / "000-setup-request" / "side-NATO.age"
    plain = age_decrypt(part, keys / "nato")
    assert plain is not None and "view-NATO.json" in _tar_names(plain)
    assert age_decrypt(part, keys / "soviet.key") is None


def test_each_steps_parts_key_comes_from_its_hidden_seed(played: Table) -> None:
    """The parts key of a step is derived from its hidden seed: the referee's working copy
    (and, after reveal, everyone) derives it; Debian's age takes it as an identity and
    opens every part of that step and of no other."""
    cfg = GameConfig.parse((played.game / "game.toml").read_text())
    assert cfg.secrets is not None and cfg.secrets.parts == "referee-parts/1"
    key = played.root / "step-2.key"
    key.write_text(pt.parts_identity(step_seed(played.game, "002-Soviet-sealed")) + "\n")
    for part in (played.game / "turns" / "002-Soviet-sealed").glob("*.age"):
        assert age_decrypt(part, key) is not None, part.name
    for part in (played.game / "turns" / "003-NATO-sealed").glob("*.age"):
        assert age_decrypt(part, key) is None, part.name
    assert "secret/" in (played.game / ".gitignore").read_text().splitlines()


def test_signed_files_still_verify_with_plain_ssh_keygen(played: Table) -> None:
    cfg = GameConfig.parse((played.game / "game.toml").read_text())
    signers = played.root / "allowed_signers"
    signers.write_text(cfg.referee.allowed_signers("referee") + "\n")
    folder = played.game / "turns" / "003-NATO-sealed"
    for name, ns in (
        ("manifest.json", "referee-manifest-v1"),
        ("report.json", "referee-report-v1"),
    ):
        r = subprocess.run(
            [
                "ssh-keygen",
                "-Y",
                "verify",
                "-f",
                str(signers),
                "-I",
                "referee",
                "-n",
                ns,
                "-s",
                str(folder / f"{name}.sig"),
            ],
            input=(folder / name).read_bytes(),
            capture_output=True,
            check=False,
        )
        assert r.returncode == 0, r.stderr


def test_a_fresh_clone_adjudicates_with_the_referees_key_and_seeds(played: Table) -> None:
    """What a CI runner has: the published archive (no secret/), the referee's key and the
    seeds. adjudicate makes secret/ again from referee.age and goes on; verify agrees."""
    clone = played.root / "clone"
    shutil.copytree(played.game, clone, ignore=shutil.ignore_patterns("secret", ".lock"))
    p = played.root / "clone-orders.txt"
    p.write_text("\n".join(PLOTS[2][0]) + "\n")
    code, out = cli("sign", p, "--key", played.key("nato"), "--game-dir", clone)
    assert code == 0, out
    code, out = cli(
        "adjudicate", clone, p, "--key", played.key("referee"), "--module", played.module,
        "--referee-dir", played.root / "referee-secret", "--json",
    )  # fmt: skip
    assert code == 0, out
    res = json.loads(out)[0] if out.lstrip().startswith("[") else json.loads(out)
    assert any("restored the referee's working copy" in n for n in json.dumps(res).split('"'))
    for t in (played.game / "secret" / "turns").iterdir():
        for f in t.iterdir():
            assert (clone / "secret" / "turns" / t.name / f.name).read_bytes() == f.read_bytes()
    code, out = cli("verify", clone, "--module", played.module, "--key", played.key("referee"))
    assert code == 0 and "replay matches" in out, out


def test_a_changed_part_fails_verify_by_its_signed_hash(played: Table) -> None:
    copy = played.player_copy("changed-part")
    part = copy / "turns" / "002-Soviet-sealed" / "side-Soviet.age"
    data = bytearray(part.read_bytes())
    data[-1] ^= 1
    part.write_bytes(bytes(data))
    code, out = played.verify(copy)  # even without any key
    assert code == 1 and out["check"] == "hash", out
    assert out["file"] == "turns/002-Soviet-sealed/side-Soviet.age"


def test_a_part_its_owner_cannot_open_fails_his_verify(played: Table) -> None:
    """A dishonest referee encrypts NATO's part to another key and signs it: NATO's verify
    with his key fails naming the part; a verify without his key lists it as not opened."""
    copy = played.player_copy("wrong-recipient")
    folder = copy / "turns" / "001-NATO-sealed"
    cfg = GameConfig.parse((copy / "game.toml").read_text())
    seed = step_seed(played.game, folder.name)
    sealer = pt.sealer_for(cfg, seed)
    assert sealer is not None
    ident = pt.x25519_identity(pt.parts_identity(seed))
    inside = pt.unpack(pt.decrypt((folder / "side-NATO.age").read_bytes(), [ident]) or b"", "p")
    (folder / "side-NATO.age").write_bytes(sealer.encrypt(inside, cfg.players["Soviet"]))
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"]["side-NATO.age"] = sha256_hex((folder / "side-NATO.age").read_bytes())
    mbytes = pretty_json(manifest)
    (folder / "manifest.json").write_bytes(mbytes)
    key = load_private(played.key("referee"))
    (folder / "manifest.json.sig").write_bytes(sign_file(mbytes, key, CONTEXT_MANIFEST))
    code, out = cli(
        "verify", copy, "--module", played.module, "--json", "--key", played.key("nato")
    )
    res = json.loads(out)
    assert code == 1 and res["check"] == "part", res
    assert res["file"] == "turns/001-NATO-sealed/side-NATO.age"
    code, out = played.verify(copy)
    assert code == 0 and out["parts"]["unopened"]["NATO"] >= 1, out


def test_a_key_of_no_player_is_refused(played: Table, tmp_path: Path) -> None:
    code, out = cli("keygen", "stranger", "--out", tmp_path)
    assert code == 0, out
    code, out = cli(
        "verify",
        played.game,
        "--module",
        played.module,
        "--json",
        "--key",
        tmp_path / "stranger.key",
    )
    res = json.loads(out)
    assert code == 1 and res["check"] == "key" and "no player's or referee's key" in res["message"]


def test_a_plain_copy_beside_a_part_is_refused(played: Table) -> None:
    copy = played.player_copy("plain-beside")
    folder = copy / "turns" / "001-NATO-sealed"
    (folder / "view-NATO.json").write_text("{}\n")
    code, out = played.verify(copy)
    assert code == 1 and out["file"] == "turns/001-NATO-sealed/view-NATO.json", out


def test_a_game_made_before_parts_still_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 24 §6: an archive of a hidden-information game written as referee versions
    before parts wrote it (no `parts` in game.toml: per-side files in the clear, secret/
    beside them) is read by today's verify unchanged, before and after the reveal, with or
    without a key; no migration is needed."""
    import referee.pbem.game as game_mod

    monkeypatch.setattr(game_mod, "PARTS_FORMAT", "")
    t = Table(tmp_path, toys_common.module_dir(tmp_path, toy_sealed.ID), SIDES)
    t.new()
    for nato, soviet in PLOTS:
        t.send("NATO", *nato)
        t.send("Soviet", *soviet)
    assert "parts" not in (t.game / "game.toml").read_text()
    folder = t.game / "turns" / "002-Soviet-sealed"
    assert (folder / "view-NATO.json").is_file() and not list(folder.glob("*.age"))
    monkeypatch.undo()  # today's referee reads it
    code, out = t.verify(t.player_copy())
    assert code == 0 and "parts" not in out, out
    code, text = cli("verify", t.player_copy(), "--module", t.module, "--key", t.key("nato"))
    assert code == 0, text
    assert cli("reveal", t.game, "--module", t.module)[0] == 0
    code, out = t.verify(t.player_copy("after"))
    assert code == 0 and "replayed" not in out, out
