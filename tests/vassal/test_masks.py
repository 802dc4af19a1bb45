"""Face-down counters in live play: VASSAL's Mask belongs to sides the roster has.

VASSAL compares a Mask's access list (``sides:A:B``) with the roster side a player took, by
name: a side id there ("USN" for "US Navy") locks the counter for everybody once masked
(issue 27). The fast tests read every trait of every bundled module's buildFile; the
``vassal`` test presses each Mask key as each roster side in real VASSAL 3.7.26
(``tests/vassal/java/VPlay.java``) and shows who may mask, unmask and see the face.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from lxml import etree

from referee.source.loader import load_module
from referee.source.model import Module
from referee.source.schema import ruleset_schema
from referee.vassal.codec.sequence import decode_sequence
from referee.vassal.module.buildfile import buildfile_xml
from referee.vassal.module.module_writer import plan_build
from referee.vassal.module.traits import SOLITAIRE_SIDE
from tests.vassal.vplay_run import Stage, played, plays, records

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(p.name for p in (ROOT / "module_src").iterdir() if (p / "module.toml").is_file())


@cache
def _module(name: str) -> Module:
    module, _ = load_module(ROOT / "module_src" / name)
    assert module is not None
    return module


def _roster_and_masks(name: str) -> tuple[list[str], list[list[str]]]:
    """The roster's sides and the fields of every Mask (``obs;``) of slots and prototypes."""
    root = etree.fromstring(buildfile_xml(plan_build(_module(name))))
    roster = [e.text or "" for e in root.iter("entry")]
    masks = []
    for el in root.iter():
        tag = el.tag if isinstance(el.tag, str) else ""
        if not tag.endswith(("PieceSlot", "PrototypeDefinition")) or not el.text:
            continue
        for part in el.text.split("obs;")[1:]:
            masks.append(["obs", *decode_sequence(part.split("\t", 1)[0], ";")])
    return roster, masks


@pytest.mark.parametrize("name", SOURCES)
def test_every_side_a_mask_names_is_a_roster_side(name: str) -> None:
    roster, masks = _roster_and_masks(name)
    assert roster[-1] == SOLITAIRE_SIDE and len(set(roster)) == len(roster)
    assert roster[:-1] == [s.name for s in _module(name).sides]
    for fields in masks:
        access = fields[6]
        assert access.startswith("sides:"), fields
        named = decode_sequence(access.removeprefix("sides:"), ":")
        assert named and set(named) <= set(roster), (named, roster)
        assert SOLITAIRE_SIDE in named


def test_the_modules_with_face_down_counters_have_masks() -> None:
    for name in SOURCES:
        schema = ruleset_schema(_module(name).ruleset)
        _, masks = _roster_and_masks(name)
        assert bool(masks) == bool(schema is not None and schema.masked_backs), name


def test_a_solitaire_mask_belongs_to_the_player_and_never_peeks() -> None:
    """Carrier Battlegroup [1.0]: the player reveals the game's face-down Soviet units when
    the rules say [17.0], so their Masks are his (and the Solitaire seat's); no side sees a
    face through a Peek or an inset."""
    _, masks = _roster_and_masks("carrier_battlegroup")
    assert masks
    for fields in masks:
        assert fields[6] == "sides:US Navy:Solitaire"
        assert fields[4] == "P" and fields[7] == ""  # display style Peek, no peek command
    _, masks = _roster_and_masks("sixth_fleet_2019")  # two players: the owner may peek
    assert masks
    assert {f[6] for f in masks} <= {"sides:NATO:Solitaire", "sides:Soviet:Solitaire"}
    assert all(f[4] == "I" and f[7] == "Peek" for f in masks)


MASKING = ("carrier_battlegroup", "sixth_fleet_2019")


@plays(*MASKING, request="masks")
def _masks(stage: Stage) -> list[str]:
    """Each side presses each Mask key of the palette, and every side looks."""
    return ["--masks"]


@pytest.mark.vassal
@pytest.mark.parametrize("name", MASKING)
def test_each_side_presses_each_mask_key_in_real_vassal(name: str) -> None:
    out = played(name, "masks")  # the module's one VPlay run of the session, exit 0
    assert not records(out, "PROBLEM")
    sides = records(out, "SIDES")[0]
    assert SOLITAIRE_SIDE in sides
    looks = records(out, "MASK")
    presses = records(out, "UNMASK")
    assert looks and presses
    slots = {r[0] for r in looks}
    for slot, owners_text, masker, viewer, masked, hidden, can_unmask, seen in looks:
        owners = owners_text.split(":")
        assert set(owners) <= set(sides), owners
        assert masked == "true"  # the key masks the counter
        if masker in owners and viewer not in owners:
            # the other side sees only the back and its kind, and cannot turn it up
            assert (hidden, can_unmask) == ("true", "false"), (slot, masker, viewer)
            assert seen.startswith("face-down ") and slot.split(" ")[0] not in seen
        if viewer in owners:
            assert can_unmask == "true", (slot, masker, viewer)
        if masker in owners and viewer in owners:
            assert hidden == "false"
    for slot, masker, presser, still_masked in presses:
        owners = next(r[1] for r in looks if r[0] == slot).split(":")
        want = "false" if presser in owners else "true"
        assert still_masked == want, (slot, masker, presser)
    assert len(slots) >= 10
