"""Issue 11, "what a player reads is what verify checks": a referee who rewrites a file a
player opens, or the record's fields, or a folder's name, and signs again, is caught; the
failure names the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.pbem.archive import sha256_hex
from referee.pbem.keys import CONTEXT_REPORT
from referee.pbem.record import CONTEXT_MANIFEST, pretty_json, sign_file
from referee.pbem.verify import VerifyFailure, verify_archive
from tests.pbem.conftest import setup_both

STEP = "turns/003-NATO-move"


def played(make_game, dpi: int = 0):
    g = make_game(dpi=dpi)
    setup_both(g)
    g.run(g.signed("NATO", ["attack US-DD-1 SO-SG-1", "move US-CV-1 0303"]))
    verify_archive(g.dir, g.module)
    return g


def forge(folder: Path, key, files: dict[str, bytes], report: dict | None = None) -> None:
    """A dishonest referee: replace files, fix the manifest, sign everything again. A file
    in a side's encrypted part (a game with parts) is replaced inside the part, which is
    encrypted again (with the parts key the referee's copy or the reveal holds)."""
    manifest = json.loads((folder / "manifest.json").read_text())
    parts = manifest.get("parts") or {}
    for name, data in files.items():
        owner = next((o for o, names in parts.items() if name in names), None)
        if owner is not None:
            _forge_in_part(folder, manifest, owner, name, data)
            continue
        (folder / name).write_bytes(data)
        manifest["files"][name] = sha256_hex(data)
    if report is not None:
        rbytes = pretty_json(report)
        (folder / "report.json").write_bytes(rbytes)
        (folder / "report.json.sig").write_bytes(sign_file(rbytes, key, CONTEXT_REPORT))
        manifest["report_sha256"] = sha256_hex(rbytes)
    mbytes = pretty_json(manifest)
    (folder / "manifest.json").write_bytes(mbytes)
    (folder / "manifest.json.sig").write_bytes(sign_file(mbytes, key, CONTEXT_MANIFEST))


def _forge_in_part(folder: Path, manifest: dict, owner: str, name: str, data: bytes) -> None:
    from referee.pbem import parts as pt
    from referee.pbem.archive import GameConfig

    game = folder.parents[1]
    cfg = GameConfig.parse((game / "game.toml").read_text())
    seed = step_seed(game, folder.name)
    ident = pt.x25519_identity(pt.parts_identity(seed))
    part = folder / pt.part_file(owner)
    inside = pt.unpack(pt.decrypt(part.read_bytes(), [ident]) or b"", str(part))
    inside[name] = data
    sealer = pt.sealer_for(cfg, seed)
    assert sealer is not None
    key = cfg.referee if owner == pt.REFEREE else cfg.players[owner]
    part.write_bytes(sealer.encrypt(inside, key))
    manifest["files"][part.name] = sha256_hex(part.read_bytes())


def step_seed(game: Path, name: str) -> bytes:
    """A step's hidden seed, from the referee's working copy or from what reveal released."""
    for root in ("secret", "revealed"):
        p = game / root / "turns" / name / "secrets.json"
        if p.is_file():
            return bytes.fromhex(json.loads(p.read_text())["hidden_seed"])
    raise AssertionError(f"no hidden seed of {name} here")


def _fails(g, file: str, check: str | None = None) -> VerifyFailure:
    with pytest.raises(VerifyFailure) as info:
        verify_archive(g.dir, g.module)
    assert info.value.file == file, str(info.value)
    if check:
        assert info.value.check == check, str(info.value)
    return info.value


def test_other_templates_and_a_rewritten_report_md_are_caught(make_game):
    g = played(make_game)
    folder = g.dir / STEP
    rep = json.loads((folder / "report.json").read_text())
    rep["templates_sha256"] = "ab" * 32
    md = (folder / "report.md").read_bytes().replace(b"= 6", b"= 1").replace(b"NATO", b"NAT0")
    forge(folder, g.keys["ref"], {"report.md": md}, rep)
    exc = _fails(g, f"{STEP}/report.json", "rendering")
    assert "no referee version" in exc.message


@pytest.mark.parametrize("name", ["report.md", "view-NATO.md", "view-Soviet.json", "report.html"])
def test_a_rewritten_file_a_player_reads_is_named(make_game, name):
    g = played(make_game)
    folder = g.dir / STEP
    data = (folder / name).read_bytes()
    forge(folder, g.keys["ref"], {name: data.replace(b"US-DD-1", b"US-DD-2", 1)})
    _fails(g, f"{STEP}/{name}", "rendering")


def test_an_earlier_position_swapped_in_is_caught(make_game):
    g = played(make_game, dpi=30)
    folder = g.dir / STEP
    earlier = g.dir / "turns/002-Soviet-setup"
    forge(
        folder,
        g.keys["ref"],
        {n: (earlier / n).read_bytes() for n in ("position.vsav", "position.svg")},
    )
    _fails(g, f"{STEP}/position.svg", "rendering")


def test_an_earlier_vassal_save_swapped_in_is_caught(make_game):
    g = played(make_game)
    folder = g.dir / STEP
    earlier = g.dir / "turns/001-NATO-setup/position.vsav"
    forge(folder, g.keys["ref"], {"position.vsav": earlier.read_bytes()})
    _fails(g, f"{STEP}/position.vsav", "rendering")


def _with_renderer(folder: Path, **fields: object) -> None:
    """What earlier referee versions wrote into a manifest of how its files were made, and
    a dishonest referee may write: another Pillow, drawing code, VASSAL writer, viewer."""
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest.update(fields)
    (folder / "manifest.json").write_bytes(pretty_json(manifest))


OTHER_MAKERS = {
    "renderer": {"pillow": "9.9.9", "drawing": "0" * 64, "vassal": "0" * 64},
    "viewer": {"templates_sha256": "0" * 64, "pillow": "9.9.9", "drawing": "0" * 64},
}


def test_a_forged_save_with_another_renderer_field_fails(make_game):
    """Issue 24: no manifest field turns a check off. A save with another VASSAL writer
    recorded is still compared, and an earlier step's save fails, naming the file."""
    g = played(make_game)
    folder = g.dir / STEP
    _with_renderer(folder, **OTHER_MAKERS)
    earlier = g.dir / "turns/001-NATO-setup/position.vsav"
    forge(folder, g.keys["ref"], {"position.vsav": earlier.read_bytes()})
    _fails(g, f"{STEP}/position.vsav", "rendering")


def test_a_forged_picture_with_another_renderer_field_fails(make_game):
    g = played(make_game, dpi=30)
    folder = g.dir / STEP
    _with_renderer(folder, **OTHER_MAKERS)
    svg = (folder / "position.svg").read_bytes().replace(b"US-DD-1", b"US-DD-9")
    forge(folder, g.keys["ref"], {"position.svg": svg})
    exc = _fails(g, f"{STEP}/position.svg", "rendering")
    assert "does not show the position" in exc.message


def test_a_forged_viewer_with_another_renderer_field_fails(make_game):
    """A step today's referee writes holds no viewer; one added to it (the forged viewer of
    the issue: "Soviet forces surrendered.") is a file the code does not make: it fails."""
    g = played(make_game, dpi=30)
    folder = g.dir / STEP
    _with_renderer(folder, **OTHER_MAKERS)
    forge(folder, g.keys["ref"], {"viewer-NATO.html": b"<p>Soviet forces surrendered.</p>"})
    exc = _fails(g, f"{STEP}/viewer-NATO.html", "rendering")
    assert "does not make" in exc.message


def test_a_forged_legacy_picture_is_reported_unchecked(make_game):
    """A step in the form earlier referee versions wrote (``position.png``): the PNG is
    drawn again and proved only when this machine draws the same bytes; a forged one is
    never passed: verify lists it as unchecked (the CLI exits 3), whatever the manifest
    says of its making."""
    from referee.engine.core import GameState
    from referee.picture.png import position_png

    g = played(make_game, dpi=30)
    folder = g.dir / STEP
    _with_renderer(folder, **OTHER_MAKERS)
    (folder / "position.svg").unlink()
    manifest = json.loads((folder / "manifest.json").read_text())
    del manifest["files"]["position.svg"]
    (folder / "manifest.json").write_bytes(pretty_json(manifest))
    html = (folder / "report.html").read_bytes().replace(b"position.svg", b"position.png")
    earlier = json.loads((g.dir / "turns/002-Soviet-setup/state.json").read_text())
    png = position_png(g.module, None, GameState.from_json(earlier), (), 30)
    forge(folder, g.keys["ref"], {"position.png": png, "report.html": html})
    v = verify_archive(g.dir, g.module)
    assert [f for f, _ in v.unchecked] == [f"{STEP}/position.png"]
    assert "not proved" in v.unchecked[0][1]
    assert v.to_json()["ok"] is False


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("title", "Game-Turn 1, NATO wins"),
        ("options", ["14.1"]),
        ("referee", {"fingerprint": "00" * 32}),
        ("after", {"turn": 9, "phase": "end", "active_side": None}),
        ("before", None),
    ],
)
def test_every_report_field_is_bound(make_game, key, value):
    g = played(make_game)
    folder = g.dir / STEP
    rep = json.loads((folder / "report.json").read_text())
    rep[key] = value
    forge(folder, g.keys["ref"], {}, rep)
    exc = _fails(g, f"{STEP}/report.json")
    assert key in exc.message


def test_a_renamed_turn_folder_is_caught(make_game):
    g = played(make_game)
    (g.dir / STEP).rename(g.dir / "turns/003-Soviet-setup")
    exc = _fails(g, "turns/003-Soviet-setup", "record")
    assert "003-NATO-move" in exc.message


def test_a_committed_game_with_unknown_templates_fails(tmp_path):
    """The same check in a game with commitments (verify_commit)."""
    from referee.pbem.keys import load_private
    from tests.pbem import toys_common
    from tests.pbem.cliflow import Table
    from tests.pbem.test_sealed_open import RULESET

    t = Table(tmp_path, toys_common.module_dir(tmp_path, RULESET.id), ("NATO", "Soviet"))
    t.new()
    t.send("Soviet", "move SO-DD-1 0404")
    assert t.verify()[0] == 0
    folder = t.game / "turns/001-Soviet-sealed"
    rep = json.loads((folder / "report.json").read_text())
    rep["templates_sha256"] = "ab" * 32
    forge(folder, load_private(t.key("referee")), {}, rep)
    code, out = t.verify()
    assert code == 1 and out["check"] == "rendering" and "001-Soviet-sealed" in out["file"]


@pytest.mark.parametrize(
    ("folder", "change", "word"),
    [
        ("003-NATO-move", lambda r: r["orders"].update(signer="00" * 32), "orders.signer"),
        ("003-NATO-move", lambda r: r["orders"].update(answers=["x"]), "orders.answers"),
        ("003-NATO-move", lambda r: r["orders"].update(extra=1), "orders.extra"),
        ("003-NATO-move", lambda r: r["dice"].update(note="x"), "dice"),
        ("000-setup-request", lambda r: r.pop("events"), "events"),
        ("000-setup-request", lambda r: r.update(rolls=[]) or r.update(events=[{}]), "events"),
        ("000-setup-request", lambda r: r["players"]["NATO"].update(key="x"), "key"),
    ],
)
def test_nested_record_fields_are_bound(make_game, folder, change, word):
    """Found by tests/fuzz (report target, seed 21): these passed verify or crashed it."""
    g = played(make_game)
    where = g.dir / "turns" / folder
    rep = json.loads((where / "report.json").read_text())
    change(rep)
    forge(where, g.keys["ref"], {}, rep)
    exc = _fails(g, f"turns/{folder}/report.json")
    assert word in exc.message or word in exc.check
