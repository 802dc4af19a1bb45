"""Issue 17 §2 with issue 11: ``verify`` renders each step's ``viewer-SIDE.html`` again from
the views it has checked and compares, like every other file a player opens. A forged viewer
re-signed into the manifest fails naming the file; a step that drops the viewers after steps
that had them fails; a viewer made with other templates is not compared, and a note says so."""

from __future__ import annotations

import json

from referee.pbem.verify import verify_archive
from tests.pbem.test_forged_renderings import STEP, _fails, forge, played


def test_every_step_writes_each_sides_viewer_and_verify_checks_it(make_game) -> None:
    g = played(make_game, dpi=20)
    for folder in sorted((g.dir / "turns").iterdir()):
        manifest = json.loads((folder / "manifest.json").read_text())
        assert {"viewer-NATO.html", "viewer-Soviet.html"} <= set(manifest["files"])
        assert set(manifest["viewer"]) == {"templates_sha256", "pillow", "drawing"}
    assert verify_archive(g.dir, g.module).notes == []


def test_no_viewer_without_pictures(make_game) -> None:
    g = played(make_game, dpi=0)
    assert not list(g.dir.rglob("viewer-*.html"))


def test_a_forged_viewer_fails_naming_the_file(make_game) -> None:
    g = played(make_game, dpi=20)
    folder = g.dir / STEP
    html = (folder / "viewer-NATO.html").read_bytes()
    forged = html.replace(b'"text":"', b'"text":"(the referee says) ', 1)
    assert forged != html
    forge(folder, g.keys["ref"], {"viewer-NATO.html": forged})
    _fails(g, f"{STEP}/viewer-NATO.html", "rendering")


def test_dropping_the_viewers_after_steps_that_had_them_fails(make_game) -> None:
    g = played(make_game, dpi=20)
    folder = g.dir / STEP
    manifest = json.loads((folder / "manifest.json").read_text())
    for name in ("viewer-NATO.html", "viewer-Soviet.html"):
        (folder / name).unlink()
        del manifest["files"][name]
    manifest.pop("viewer")
    (folder / "manifest.json").write_text(json.dumps(manifest))
    forge(folder, g.keys["ref"], {})
    _fails(g, STEP, "rendering")


def test_a_viewer_of_other_templates_is_not_compared_and_a_note_says_so(make_game) -> None:
    g = played(make_game, dpi=20)
    folder = g.dir / STEP
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["viewer"]["templates_sha256"] = "0" * 64
    (folder / "manifest.json").write_text(json.dumps(manifest))
    forge(folder, g.keys["ref"], {"viewer-NATO.html": b"<!DOCTYPE html>an older viewer\n"})
    notes = verify_archive(g.dir, g.module).notes
    assert any(
        "viewer-NATO.html: not compared: made with other viewer templates" in n for n in notes
    ), notes
