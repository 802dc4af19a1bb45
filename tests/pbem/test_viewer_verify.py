"""Issue 24 §2-3 with issue 17: a step holds no viewer (``referee viewer`` makes one on
demand from the views), so the archive grows by a step's own data. Archives from earlier
referee versions hold ``position.png`` and ``viewer-SIDE.html`` in every step: ``verify``
makes both again and proves them when this machine makes the same bytes; a file it cannot
prove is listed as unchecked (the CLI exits 3), whatever the manifest says of its making, and
a forged one is never passed."""

from __future__ import annotations

import json

from referee.engine.core import Event, GameState
from referee.pbem.record import player_files
from referee.pbem.verify import verify_archive
from referee.viewer.page import step_viewers
from tests.pbem.test_forged_renderings import STEP, forge, played
from tests.pbem.toy import RULESET


def _events(rep: dict) -> tuple[Event, ...]:
    return tuple(
        Event(e["kind"], e["rule"], e["text"], e["data"], tuple(e["hidden_from"]))
        for e in rep["events"]
    )


def as_earlier_versions_wrote_it(g, dpi: int) -> None:
    """Rewrite every step of ``g`` in the form referee versions before issue 24 wrote it:
    ``position.png`` instead of ``position.svg`` and each side's viewer over the game so far,
    with the manifest's ``renderer`` and ``viewer`` fields of that time; signed again."""
    history: dict[str, list[dict]] = {}
    before = None
    for folder in sorted((g.dir / "turns").iterdir()):
        rep = json.loads((folder / "report.json").read_text())
        rsha = json.loads((folder / "manifest.json").read_text())["report_sha256"]
        state = GameState.from_json(json.loads((folder / "state.json").read_text()))
        files = player_files(
            g.module, RULESET, rep, rsha, state, before, _events(rep), dpi, picture="png"
        )
        files.update(step_viewers(g.module, RULESET, files, history, rep["referee"]["fingerprint"]))
        (folder / "position.svg").unlink()
        manifest = json.loads((folder / "manifest.json").read_text())
        del manifest["files"]["position.svg"]
        manifest["renderer"] = {"pillow": "x", "drawing": "0" * 64, "vassal": "0" * 64}
        manifest["viewer"] = {"templates_sha256": "0" * 64, "pillow": "x", "drawing": "0" * 64}
        (folder / "manifest.json").write_text(json.dumps(manifest))
        forge(folder, g.keys["ref"], files)
        for name, data in sorted(files.items()):
            if name.startswith("view-") and name.endswith(".json"):
                doc = json.loads(data)
                history.setdefault(doc["side"], []).append(doc)
        before = state


def test_no_step_holds_a_viewer(make_game) -> None:
    g = played(make_game, dpi=20)
    assert not list(g.dir.rglob("viewer-*.html"))
    for folder in sorted((g.dir / "turns").iterdir()):
        manifest = json.loads((folder / "manifest.json").read_text())
        assert "viewer" not in manifest and "renderer" not in manifest


def test_an_earlier_versions_pictures_and_viewers_are_proved_when_made_the_same(
    make_game,
) -> None:
    g = played(make_game, dpi=20)
    as_earlier_versions_wrote_it(g, 20)
    assert (g.dir / STEP / "viewer-NATO.html").is_file()
    v = verify_archive(g.dir, g.module)
    assert v.unchecked == [] and v.to_json()["ok"] is True


def test_a_forged_legacy_viewer_is_unchecked_never_passed(make_game) -> None:
    g = played(make_game, dpi=20)
    as_earlier_versions_wrote_it(g, 20)
    folder = g.dir / STEP
    html = (folder / "viewer-NATO.html").read_bytes()
    forged = html.replace(b'"text":"', b'"text":"(the referee says) ', 1)
    assert forged != html
    forge(folder, g.keys["ref"], {"viewer-NATO.html": forged})
    v = verify_archive(g.dir, g.module)
    assert [f for f, _ in v.unchecked] == [f"{STEP}/viewer-NATO.html"]
    assert "referee viewer" in v.unchecked[0][1] and v.to_json()["ok"] is False


def test_a_legacy_step_dropping_its_viewers_still_verifies(make_game) -> None:
    """A viewer is a convenience copy of the views, never the record: a step without one
    loses nothing a player must trust (the views are checked)."""
    g = played(make_game, dpi=20)
    as_earlier_versions_wrote_it(g, 20)
    folder = g.dir / STEP
    manifest = json.loads((folder / "manifest.json").read_text())
    for name in ("viewer-NATO.html", "viewer-Soviet.html"):
        (folder / name).unlink()
        del manifest["files"][name]
    (folder / "manifest.json").write_text(json.dumps(manifest))
    forge(folder, g.keys["ref"], {})
    assert verify_archive(g.dir, g.module).unchecked == []


def test_the_cli_exits_3_and_names_an_unchecked_file(make_game) -> None:
    from tests.pbem.cliflow import cli
    from tests.pbem.conftest import TOY_DIR

    g = played(make_game, dpi=20)
    as_earlier_versions_wrote_it(g, 20)
    folder = g.dir / STEP
    forge(folder, g.keys["ref"], {"viewer-Soviet.html": b"<p>Soviet forces surrendered.</p>"})
    code, out = cli("verify", g.dir, "--module", TOY_DIR, "--json")
    assert code == 3, out
    doc = json.loads(out)
    assert doc["ok"] is False and doc["unchecked"][0]["file"] == f"{STEP}/viewer-Soviet.html"
    code, out = cli("verify", g.dir, "--module", TOY_DIR)
    assert code == 3 and f"unchecked: {STEP}/viewer-Soviet.html" in out, out
