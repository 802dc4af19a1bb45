"""A dry run of a batch of sealed orders (issue 10 §4, issue 11 "a dry run of a batch is the
exact preview of what the batch would do, without revealing rolls"): both sides' sealed files
of one phase given to one `adjudicate --dry-run` are committed and opened together exactly as
the real batch does it, nothing is written, and no roll or outcome is shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.pbem.adjudicate import StepResult, adjudicate
from referee.pbem.keys import load_private
from tests.pbem import toy_sealed, toys_common
from tests.pbem.cliflow import Table, cli
from tests.pbem.test_sealed_open import RULESET as OPEN

SIDES = ("NATO", "Soviet")
PLOTS = {
    "NATO": ["move US-DD-1 0303", "hold US-CV-1"],
    "Soviet": ["move SO-SG-1 0405", "move SO-DD-1 0404"],
}


def _tree(*roots: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``roots``: its bytes and its modification time."""
    out = {}
    for root in roots:
        for p in sorted(root.rglob("*")):
            if p.is_file():
                out[str(p)] = (p.read_bytes(), p.stat().st_mtime_ns)
    return out


def _signed(t: Table, side: str, lines: list[str], name: str | None = None) -> Path:
    p = t.root / (name or f"{side}.txt")
    p.write_text("\n".join(lines) + "\n")
    code, out = cli("sign", p, "--key", t.key(side.lower()), "--game-dir", t.game)
    assert code == 0, out
    return p


def _run(t: Table, paths: list[Path], *, dry_run: bool) -> list[StepResult]:
    return adjudicate(
        t.game,
        paths,
        referee_key=load_private(t.key("referee")),
        module=toys_common.load(t.root, t.module.name.removeprefix("module-")),
        referee_dir=t.root / "referee-secret",
        dry_run=dry_run,
    )


def _table(tmp_path: Path, ruleset_id: str) -> Table:
    t = Table(tmp_path, toys_common.module_dir(tmp_path, ruleset_id), SIDES)
    t.new()
    return t


@pytest.mark.parametrize("ruleset_id", [toy_sealed.ID, OPEN.id])
@pytest.mark.parametrize("first", SIDES)
def test_a_dry_run_of_both_sealed_files_is_the_exact_preview(
    tmp_path: Path, ruleset_id: str, first: str
) -> None:
    t = _table(tmp_path, ruleset_id)
    second = SIDES[1] if first == SIDES[0] else SIDES[0]
    paths = [_signed(t, first, PLOTS[first]), _signed(t, second, PLOTS[second])]
    before = _tree(t.game, t.root / "referee-secret")
    code, out = cli(
        "adjudicate",
        t.game,
        *paths,
        "--key",
        t.key("referee"),
        "--module",
        t.module,
        "--referee-dir",
        t.root / "referee-secret",
        "--dry-run",
        "--json",
    )
    assert code == 0, out
    shown = json.loads(out)["results"]
    assert [r["status"] for r in shown] == ["dry-run", "dry-run"]
    assert [r["sequence"] for r in shown] == [1, 2]
    assert f"{first}'s sealed orders would be committed unopened" in shown[0]["notes"][0]
    assert shown[1]["notes"] == [
        "the sealed orders of NATO, Soviet would be opened and resolved together"
    ]
    for r in shown:  # no roll, event, outcome or report hash before the real run
        assert set(r) == {"ok", "orders_file", "status", "sequence", "notes"}, r
    code, text = cli(
        "adjudicate",
        t.game,
        *paths,
        "--key",
        t.key("referee"),
        "--module",
        t.module,
        "--referee-dir",
        t.root / "referee-secret",
        "--dry-run",
    )
    assert code == 0 and "roll" not in text and "weather" not in text, text
    assert text.count("nothing written") == 2
    preview = _run(t, paths, dry_run=True)
    assert _tree(t.game, t.root / "referee-secret") == before, "a dry run wrote something"
    real = _run(t, paths, dry_run=False)
    assert [r.status for r in real] == ["adjudicated", "adjudicated"]
    assert [r.report_sha256 for r in preview] == [r.report_sha256 for r in real]
    assert [r.report for r in preview] == [r.report for r in real]
    assert [r.folder for r in preview] == [r.folder for r in real]
    assert real[1].report["orders"]["sealed"] == "resolved"
    assert any(x["purpose"] == "weather" for x in real[1].report["rolls"])
    code, v = t.verify(t.player_copy())
    assert code == 0, v


def test_a_sealed_file_given_twice_in_a_dry_run_is_previewed_once(tmp_path: Path) -> None:
    t = _table(tmp_path, toy_sealed.ID)
    nato, soviet = _signed(t, "NATO", PLOTS["NATO"]), _signed(t, "Soviet", PLOTS["Soviet"])
    preview = _run(t, [nato, nato, soviet], dry_run=True)
    assert [r.sequence for r in preview] == [1, 1, 2]
    assert "the same orders as an earlier file of this run" in preview[1].notes[0]
    real = _run(t, [nato, nato, soviet], dry_run=False)
    assert [r.status for r in real] == ["adjudicated", "already-applied", "adjudicated"]
    assert preview[2].report_sha256 == real[2].report_sha256
    assert preview[0].report_sha256 == real[0].report_sha256


def test_a_dry_run_of_the_second_sealed_file_after_the_first_was_adjudicated(
    tmp_path: Path,
) -> None:
    t = _table(tmp_path, toy_sealed.ID)
    nato, soviet = _signed(t, "NATO", PLOTS["NATO"]), _signed(t, "Soviet", PLOTS["Soviet"])
    _run(t, [nato], dry_run=False)
    before = _tree(t.game, t.root / "referee-secret")
    [preview] = _run(t, [soviet], dry_run=True)
    assert _tree(t.game, t.root / "referee-secret") == before
    [real] = _run(t, [soviet], dry_run=False)
    assert (preview.sequence, preview.report_sha256) == (real.sequence, real.report_sha256)


def test_a_dry_run_still_refuses_a_second_sealed_file_of_the_same_side(tmp_path: Path) -> None:
    t = _table(tmp_path, toy_sealed.ID)
    one = _signed(t, "NATO", PLOTS["NATO"])
    other = _signed(t, "NATO", ["hold US-DD-1"], name="NATO-2.txt")
    code, out = cli(
        "adjudicate",
        t.game,
        one,
        other,
        "--key",
        t.key("referee"),
        "--module",
        t.module,
        "--referee-dir",
        t.root / "referee-secret",
        "--dry-run",
    )
    assert code == 1 and "NATO already sent sealed orders" in out, out
    assert not (t.game / "turns" / "001-NATO-sealed").exists()
