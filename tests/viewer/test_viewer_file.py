"""The viewer file without a browser: the command, self-containment, determinism, size, and
that a side's file never holds what the ruleset hides from that side (issue 17 §2)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee.demos.sixth_fleet_1975 import SRC
from referee.engine.core import GameState
from referee.source.loader import load_module
from referee.viewer.data import step_from_view
from referee.viewer.page import render_viewer, viewer_files
from tests.pbem import toy_sealed, toys_common
from tests.pbem.cliflow import Table, cli
from tests.pbem.test_sealed_hidden import PLOTS, SIDES


def _turns(game: Path) -> list[Path]:
    return sorted((game / "turns").iterdir())


def test_the_demo_makes_each_sides_viewer_on_demand_not_in_every_step(demo_game: Path) -> None:
    """Issue 24: a step holds no viewer (it repeated the whole game in every step)."""
    assert not list((demo_game / "game").rglob("viewer-*.html"))
    for side in ("NATO", "Soviet"):
        assert (demo_game / "viewer" / f"viewer-{side}.html").stat().st_size < 5_000_000


def test_the_file_is_self_contained(demo_game: Path) -> None:
    text = (demo_game / "viewer" / "viewer-NATO.html").read_text()
    links = re.findall(r'\b(?:src|href|action|xlink:href)="([^"]*)"', text)
    assert links and all(u.startswith(("data:", "#")) for u in links), sorted(set(links))[:5]
    bare = text.replace("http://www.w3.org/2000/svg", "")  # SVG's namespace name, not a link
    assert "http://" not in bare and "https://" not in bare and "//cdn" not in bare
    refs = re.findall(r"url\(([^)]*)\)", text)  # only the page's own arrow heads
    assert refs and all(u.startswith("#head-") for u in refs), refs
    assert "default-src 'none'" in text  # the page may fetch nothing, even if told to
    assert "<script src" not in text and "@import" not in text and "@font-face" not in text


def test_the_viewer_is_made_from_the_views_alone_and_byte_identical(
    demo_game: Path,
) -> None:
    module, _ = load_module(SRC)
    assert module is not None
    folders = _turns(demo_game / "game")
    views = {
        s: [json.loads((f / f"view-{s}.json").read_text()) for f in folders]
        for s in ("NATO", "Soviet")
    }
    last = {s: v[-1] for s, v in views.items()}
    before = {s: v[:-1] for s, v in views.items()}
    referee = json.loads((folders[0] / "report.json").read_text())["referee"]["fingerprint"]
    again = viewer_files(module, before, last, referee)
    assert set(again) == {"viewer-NATO.html", "viewer-Soviet.html"}
    assert viewer_files(module, before, last, referee) == again
    # made over the first four steps, it shows the fourth last, and nothing after it
    early_docs = {s: v[:3] for s, v in views.items()}
    early = viewer_files(module, early_docs, {s: v[3] for s, v in views.items()}, referee)[
        "viewer-NATO.html"
    ].decode()
    assert f'"report_sha256":"{views["NATO"][3]["report_sha256"]}"' in early
    assert views["NATO"][4]["report_sha256"] not in early


def test_the_command(demo_game: Path, tmp_path: Path) -> None:
    game = demo_game / "game"
    code, out = cli("viewer", "--help")
    assert code == 0 and "--side" in out and "FILE.html" in out
    out_file = tmp_path / "v.html"
    code, out = cli("viewer", game, "--side", "Soviet", "-o", out_file, "--json")
    assert code == 0, out
    got = json.loads(out)
    assert got["steps"] == 9 and got["bad_signatures"] == 0 and got["side"] == "Soviet"
    assert out_file.stat().st_size == got["bytes"]
    code, out = cli("viewer", game, "--side", "Klingon", "-o", tmp_path / "k.html")
    assert code == 2 and "no side 'Klingon'" in out and "NATO, Soviet, referee" in out
    assert not (tmp_path / "k.html").exists()
    code, out = cli("viewer", tmp_path / "nowhere", "-o", tmp_path / "n.html")
    assert code == 2 and "not a game archive" in out
    for where in (tmp_path, tmp_path / "no-such-folder" / "v.html"):
        code, out = cli("viewer", game, "-o", where)
        assert code == 2 and "-o names the HTML file to write" in out, out
    code, out = cli("viewer", game, "-o", tmp_path / "r.html", "-q")
    assert code == 0 and out == ""
    # the file says when a folder's signatures do not hold
    folder = _turns(game)[2]
    sig = folder / "report.json.sig"
    saved = sig.read_bytes()
    try:
        sig.write_bytes(saved.replace(b"A", b"B", 1) if b"A" in saved else saved[:-5] + b"\n")
        code, out = cli("viewer", game, "--side", "NATO", "-o", tmp_path / "bad.html")
        assert code == 0 and "warning: 1 step(s) failed their signature check" in out
        assert "BAD: " in (tmp_path / "bad.html").read_text()
    finally:
        sig.write_bytes(saved)


def test_a_malformed_view_is_refused_naming_the_file_and_the_value(
    demo_game: Path, tmp_path: Path
) -> None:
    import shutil

    game = tmp_path / "game"
    shutil.copytree(demo_game / "game", game)
    view = game / "turns/003-Soviet-movement/view-NATO.json"
    doc = json.loads(view.read_text())
    doc["state"]["units"][0]["location"] = 5
    view.write_text(json.dumps(doc))
    out = tmp_path / "v.html"
    code, msg = cli("viewer", game, "--side", "NATO", "-o", out)
    assert code == 1, msg
    assert "turns/003-Soviet-movement/view-NATO.json: malformed: $.state.units[0].location" in msg
    assert not out.exists()
    view.write_text("[1, 2]")
    code, msg = cli("viewer", game, "--side", "NATO", "-o", out, "--json")
    assert code == 1 and json.loads(msg)["reason"] == "archive" and not out.exists()


# ---- hidden information ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def sealed(tmp_path_factory: pytest.TempPathFactory) -> Table:
    """The toy game of simultaneous plots and hidden units (tests/pbem/test_sealed_hidden.py),
    with pictures on."""
    root = tmp_path_factory.mktemp("viewer-sealed")
    t = Table(root, toys_common.module_dir(root, toy_sealed.ID), SIDES)
    t.new()
    for nato, soviet in PLOTS:
        t.send("NATO", *nato)
        t.send("Soviet", *soviet)
    return t


def _hidden_until(t: Table, upto: str, side: str) -> set[str]:
    """Units hidden from ``side`` at every step up to the folder ``upto`` (the referee's copy):
    a unit shown at some step may appear in the viewer of that step and later ones."""
    secret = t.game / "secret" / "turns"
    hidden: set[str] | None = None
    for folder in sorted(p.name for p in secret.iterdir()):
        state = GameState.from_json(json.loads((secret / folder / "state.json").read_text()))
        shown = toy_sealed.RULESET.view(None, state, side)  # type: ignore[arg-type]
        here = {u for u in state.units if u not in shown.units}
        hidden = here if hidden is None else hidden & here
        if folder == upto:
            break
    return hidden or set()


def test_a_sides_viewer_never_holds_a_hidden_unit(sealed: Table, tmp_path: Path) -> None:
    module, _ = load_module(sealed.module)
    assert module is not None
    folders = _turns(sealed.opened())  # each side's views, from its encrypted part
    ref = json.loads((folders[0] / "report.json").read_text())["referee"]["fingerprint"]
    searched = 0
    for n, folder in enumerate(folders):  # the viewer a side would have made at each step
        for side in SIDES:
            docs = [json.loads((f / f"view-{side}.json").read_text()) for f in folders[: n + 1]]
            text = render_viewer(module, [step_from_view(d) for d in docs], side=side, referee=ref)
            for uid in _hidden_until(sealed, folder.name, side):
                searched += 1
                assert uid not in text, f"{folder.name}: the viewer of {side} shows {uid}"
    assert searched >= 4  # SO-SG-1 and US-DD-1 are hidden at least through the first turn
    # the command on a player's copy: the same, and the referee's record is not there
    copy = sealed.player_copy()
    last = _turns(sealed.game)[-1].name
    for side in SIDES:
        out = tmp_path / f"{side}.html"
        code, msg = cli(
            "viewer", copy, "--side", side, "-o", out, "--module", sealed.module,
            "--key", sealed.key(side.lower()),
        )  # fmt: skip
        assert code == 0, msg
        text = out.read_text()
        for uid in _hidden_until(sealed, last, side):
            assert uid not in text, f"referee viewer --side {side} shows {uid}"
    # without the side's key: its views are in its encrypted parts, and the message says so
    code, msg = cli("viewer", copy, "--side", "NATO", "-o", tmp_path / "x.html", "--module",
                    sealed.module)  # fmt: skip
    assert code == 1 and "side-NATO.age" in msg and "--key" in msg, msg
    code, msg = cli("viewer", copy, "-o", tmp_path / "ref.html", "--module", sealed.module)
    assert code == 1 and "only in the referee's copy" in msg
    assert not (tmp_path / "ref.html").exists()
    # the referee's copy: the full record does name them (the search above can find them)
    code, msg = cli("viewer", sealed.game, "-o", tmp_path / "ref.html", "--module", sealed.module)
    assert code == 0, msg
    full = (tmp_path / "ref.html").read_text()
    assert "SO-SG-1" in full and "US-DD-1" in full


def test_the_viewer_shows_that_sides_view_of_every_step(sealed: Table, tmp_path: Path) -> None:
    folders = _turns(sealed.opened())  # the views, from each side's encrypted part
    out = tmp_path / "nato.html"
    code, msg = cli(
        "viewer", sealed.game, "--side", "NATO", "--key", sealed.key("nato"), "-o", out,
        "--module", sealed.module,
    )  # fmt: skip
    assert code == 0, msg
    text = out.read_text()
    for f in folders:
        sha = json.loads((f / "view-NATO.json").read_text())["report_sha256"]
        assert f'"report_sha256":"{sha}"' in text, f.name


def test_after_reveal_verify_refuses_a_viewer_added_to_a_step(sealed: Table) -> None:
    """Issue 24: today's steps hold no viewer, so one written into a step (and signed) is a
    file the referee's code does not make: it fails, naming the file."""
    from referee.pbem.keys import load_private
    from tests.pbem.test_forged_renderings import forge

    assert cli("reveal", sealed.game, "--module", sealed.module)[0] == 0
    copy = sealed.player_copy("viewer-revealed")
    code, out = sealed.verify(copy)
    assert code == 0, out
    assert not any("viewer" in n for n in out.get("notes", [])), out
    folder = _turns(copy)[-1]
    forged = b"<!DOCTYPE html><p>Soviet forces surrendered.</p>"
    forge(folder, load_private(sealed.key("referee")), {"viewer-Soviet.html": forged})
    code, out = sealed.verify(copy)
    assert code == 1
    assert out["file"] == f"turns/{folder.name}/viewer-Soviet.html", out
    assert out["check"] == "rendering", out
