"""``verify``: any changed byte is caught and the file named; a cheating referee is caught."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.pbem.archive import sha256_hex
from referee.pbem.keys import CONTEXT_REPORT
from referee.pbem.record import CONTEXT_MANIFEST, pretty_json, sign_file
from referee.pbem.verify import VerifyFailure, find_archive, verify_archive
from tests.pbem.conftest import setup_both


def played(make_game):
    g = make_game()
    setup_both(g)
    g.run(g.signed("NATO", ["attack US-DD-1 SO-SG-1", "move US-CV-1 0303"]))
    return g


def test_every_changed_byte_is_caught_and_named(make_game):
    g = played(make_game)
    verify_archive(g.dir, g.module)
    files = sorted(
        p for p in g.dir.rglob("*") if p.is_file() and p.name not in (".lock", ".gitignore")
    )
    assert len(files) > 40
    for p in files:
        rel = p.relative_to(g.dir).as_posix()
        original = p.read_bytes()
        for pos in (len(original) // 2, len(original) - 1):
            data = bytearray(original)
            data[pos] ^= 0x01
            p.write_bytes(bytes(data))
            with pytest.raises(VerifyFailure) as info:
                verify_archive(g.dir, g.module)
            assert rel in str(info.value) or rel.removesuffix(".sig") in str(info.value), (
                rel,
                str(info.value),
            )
        p.write_bytes(original)
    verify_archive(g.dir, g.module)


def test_an_added_or_removed_file_is_caught(make_game):
    g = played(make_game)
    extra = g.dir / "turns/002-Soviet-setup/notes.txt"
    extra.write_text("hello")
    with pytest.raises(VerifyFailure, match=r"notes\.txt: manifest"):
        verify_archive(g.dir, g.module)
    extra.unlink()
    (g.dir / "turns/001-NATO-setup/view-NATO.md").unlink()
    with pytest.raises(VerifyFailure, match=r"view-NATO\.md: manifest: missing"):
        verify_archive(g.dir, g.module)


def _resign(folder: Path, report: dict, key) -> None:
    """What a dishonest referee would do: rewrite the record and sign it again."""
    rbytes = pretty_json(report)
    (folder / "report.json").write_bytes(rbytes)
    (folder / "report.json.sig").write_bytes(sign_file(rbytes, key, CONTEXT_REPORT))
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["report_sha256"] = sha256_hex(rbytes)
    mbytes = pretty_json(manifest)
    (folder / "manifest.json").write_bytes(mbytes)
    (folder / "manifest.json.sig").write_bytes(sign_file(mbytes, key, CONTEXT_MANIFEST))


def test_a_referee_who_rewrites_a_roll_and_signs_again_is_caught(make_game):
    g = played(make_game)
    folder = g.dir / "turns/003-NATO-move"
    report = json.loads((folder / "report.json").read_text())
    roll = report["rolls"][0]
    roll["value"] = roll["value"] % 6 + 1
    _resign(folder, report, g.keys["ref"])
    with pytest.raises(VerifyFailure) as info:
        verify_archive(g.dir, g.module)
    assert info.value.check == "dice" and "003-NATO-move/report.json" in info.value.file


def test_a_referee_who_reveals_another_seed_is_caught(make_game):
    g = played(make_game)
    folder = g.dir / "turns/003-NATO-move"
    report = json.loads((folder / "report.json").read_text())
    report["dice"]["seed"] = "00" * 32
    _resign(folder, report, g.keys["ref"])
    with pytest.raises(VerifyFailure) as info:
        verify_archive(g.dir, g.module)
    assert info.value.check == "dice seed chain"


def test_a_referee_who_changes_an_event_is_caught_by_the_replay(make_game):
    g = played(make_game)
    folder = g.dir / "turns/003-NATO-move"
    report = json.loads((folder / "report.json").read_text())
    report["events"][-1]["text"] = "NATO wins"
    _resign(folder, report, g.keys["ref"])
    with pytest.raises(VerifyFailure) as info:
        verify_archive(g.dir, g.module)
    assert info.value.check == "replay"


def test_verify_up_to_one_report(make_game):
    g = played(make_game)
    root, upto = find_archive(g.dir / "turns/001-NATO-setup/report.json")
    assert upto == 1 and root.resolve() == g.dir.resolve()
    assert verify_archive(root, g.module, upto=upto).reports == 2


def test_another_module_source_is_refused(make_game, tmp_path):
    import shutil

    from referee.source.loader import load_module

    g = played(make_game)
    other = tmp_path / "other"
    shutil.copytree(g.module.root, other)
    with (other / "units.csv").open("a") as fh:
        fh.write("\n")
    module, _ = load_module(other)
    assert module is not None
    with pytest.raises(VerifyFailure, match="module"):
        verify_archive(g.dir, module)
