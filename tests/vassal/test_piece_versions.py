"""A game's VASSAL saves keep the piece definitions the game began with (issue 27).

``referee new`` records the piece version (``state.data["vassal_pieces"]``); the save
writer builds the counters of the recorded version, and a game begun before versions were
recorded gets version 1, the pieces it was played with. So a new trait (the movement trail
of version 2) reaches new games only, and ``verify`` still proves every save of an older
archive (``referee/pbem/rendercheck.py``: a save is proved when its command stream is the
same)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from referee.engine.ruleset import get_ruleset
from referee.errors import UserError
from referee.pbem.adjudicate import adjudicate
from referee.pbem.game import create_game
from referee.pbem.keys import generate, load_private
from referee.pbem.rulings import matching_start, new_start
from referee.pbem.signing import sign_orders
from referee.pbem.verify import verify_archive
from referee.source.loader import load_module
from referee.vassal.codec.savefile import read_save_bytes
from referee.vassal.module import piece_versions as pv
from referee.vassal.position.placement import table_for
from referee.vassal.position.save import position_vsav_bytes

ROOT = Path(__file__).resolve().parents[2]
OLD = ROOT / "tests" / "pbem" / "fixtures" / "before-score-tables"
TRAIL = "footprint;"


def _stream(vsav: bytes) -> str:
    return read_save_bytes(vsav).stream


@pytest.fixture(scope="module")
def sixth_fleet():
    module, diags = load_module(ROOT / "module_src" / "sixth_fleet")
    assert module is not None, [str(d) for d in diags.items]
    return module


def test_a_state_without_a_version_is_version_1_and_a_bad_one_is_refused() -> None:
    assert pv.recorded_version({}) == pv.FIRST == 1
    assert pv.recorded_version({pv.PIECES_KEY: 2}) == pv.TRAILS
    assert max(pv.VERSIONS) == pv.CURRENT
    for bad in (0, 99, "2", True, None, 2.0):
        with pytest.raises(UserError, match="no VASSAL piece version"):
            pv.recorded_version({pv.PIECES_KEY: bad})


def test_the_writer_builds_the_pieces_of_the_recorded_version(sixth_fleet) -> None:
    rs = get_ruleset(sixth_fleet.ruleset)
    scenario = next(iter(sixth_fleet.scenarios))
    old = rs.new_game(sixth_fleet, scenario, "g", ())
    new = new_start(rs, sixth_fleet, scenario, "g", ())
    assert pv.PIECES_KEY not in old.data and new.data[pv.PIECES_KEY] == pv.CURRENT
    table = table_for(sixth_fleet)
    old_save, new_save = position_vsav_bytes(table, old), position_vsav_bytes(table, new)
    assert TRAIL not in _stream(old_save)
    assert _stream(new_save).count(TRAIL) == len(old.units)  # every unit, no marker
    # the same save as an explicit version 1, and the rest of every counter the same
    assert old_save == position_vsav_bytes(table, new, piece_version=pv.FIRST)
    assert table.with_pieces(pv.FIRST) is table.with_pieces(pv.FIRST)  # planned once
    assert table.with_pieces(pv.CURRENT) is table


def test_verify_accepts_a_start_recorded_before_the_version(sixth_fleet) -> None:
    rs = get_ruleset(sixth_fleet.ruleset)
    scenario = next(iter(sixth_fleet.scenarios))
    new = new_start(rs, sixth_fleet, scenario, "g", ())
    before = rs.new_game(sixth_fleet, scenario, "g", ())
    assert matching_start(rs, new, before.canonical().encode()) == before
    assert matching_start(rs, new, new.canonical().encode()) == new


def test_a_game_begun_under_any_earlier_version_keeps_it(sixth_fleet) -> None:
    """A game begun when the newest piece version was an earlier one (a referee before the
    last trait was added) replays from the start it recorded, with that version's pieces."""
    rs = get_ruleset("sixth_fleet_1975")
    new = new_start(rs, sixth_fleet, next(iter(sixth_fleet.scenarios)), "g", ())
    for version in sorted(pv.VERSIONS):
        begun = new.with_data(**{pv.PIECES_KEY: version})
        got = matching_start(rs, new, begun.canonical().encode())
        assert got == begun and pv.recorded_version(got.data) == version


def test_a_new_game_gets_the_new_traits_and_verifies(tmp_path: Path, sixth_fleet) -> None:
    keys = {s.id: generate(s.id.lower()) for s in sixth_fleet.sides}
    ref = generate("ref")
    game = tmp_path / "game"
    create_game(
        game,
        sixth_fleet,
        scenario=next(iter(sixth_fleet.scenarios)),
        players={s: k.public for s, k in keys.items()},
        referee_key=ref,
        game_id="trails",
        referee_dir=tmp_path / "ref",
        seed_root=bytes(32),
        picture_dpi=0,
    )
    [setup] = (game / "turns").iterdir()
    saves = sorted(setup.glob("*.vsav"))
    assert saves and all(TRAIL in _stream(p.read_bytes()) for p in saves)
    assert json.loads((setup / "state.json").read_text())["data"][pv.PIECES_KEY] == pv.CURRENT
    v = verify_archive(game, sixth_fleet)
    assert not v.unchecked


@pytest.fixture(scope="module")
def old_module():
    m, diags = load_module(OLD / "module")
    assert m is not None, [str(d) for d in diags.items]
    return m


def test_an_old_archive_keeps_its_pieces_and_every_save_is_proved(
    tmp_path: Path, old_module
) -> None:
    """The Denmark Strait game begun before the score tables (and before piece versions):
    every save proved (only Markdown and HTML of the older templates are unchecked), and a
    step adjudicated today writes its save with the game's own pieces, no trail."""
    game = tmp_path / "game"
    shutil.copytree(OLD / "game", game)
    seeds = tmp_path / "referee-dir"
    shutil.copytree(OLD / "referee-dir", seeds)
    v = verify_archive(game, old_module)
    assert not [f for f, _ in v.unchecked if f.endswith(".vsav")]
    soviet = load_private(OLD / "keys" / "soviet.key")
    signed = sign_orders("turn: 1\nside: Soviet\n\n[movement]\n", "move.txt", soviet, game)
    orders = tmp_path / "move.txt"
    orders.write_text(signed.text)
    [step] = adjudicate(
        game,
        [orders],
        referee_key=load_private(OLD / "keys" / "referee.key"),
        module=old_module,
        referee_dir=seeds,
    )
    assert step.status == "adjudicated"
    folder = max((game / "turns").iterdir())
    saves = sorted(folder.glob("*.vsav"))
    assert saves and not any(TRAIL in _stream(p.read_bytes()) for p in saves)
    v = verify_archive(game, old_module)
    assert v.reports == 4
    assert not [f for f, _ in v.unchecked if f.endswith(".vsav")]
