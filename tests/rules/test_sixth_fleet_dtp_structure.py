"""The DTP ruleset's shape: the kit's case-by-case table readable in the code [DTP 101.1].

SPI cases DTP keeps are SPI's own objects (imported, never copied); the SPI ruleset knows
nothing of DTP (no branch on it); the sequence of play [DTP 4.1] is declared once for the
tracker and once for the engine, and the two agree; the orders vocabulary reads the words
of the new cases.
"""

from __future__ import annotations

import re
from pathlib import Path

from referee.engine.orders import parse_orders
from referee.rules.sixth_fleet_1975 import strengths as spi_strengths
from referee.rules.sixth_fleet_1975.schema import SCHEMA as SPI_SCHEMA
from referee.rules.sixth_fleet_1975.vocabulary import VOCABULARY as SPI_VOCABULARY
from referee.rules.sixth_fleet_dtp import crt, detection
from referee.rules.sixth_fleet_dtp.schema import SCHEMA
from referee.rules.sixth_fleet_dtp.sequence import PHASES
from referee.rules.sixth_fleet_dtp.vocabulary import KEPT_FROM_SPI, VOCABULARY
from referee.source.schema import ruleset_schema

ROOT = Path(__file__).resolve().parents[2]


def test_the_spi_ruleset_has_no_dtp_branch() -> None:
    """DTP is composed from SPI's functions; SPI's code never asks whether it runs for DTP
    (its docstrings may mention DTP as a user of its pieces)."""
    branch = re.compile(r"^\s*(if|elif|while)\b.*dtp", re.IGNORECASE | re.MULTILINE)
    for path in (ROOT / "referee" / "rules" / "sixth_fleet_1975").glob("*.py"):
        assert not branch.search(path.read_text(encoding="utf-8")), path.name
        assert "sixth_fleet_dtp" not in path.read_text(encoding="utf-8"), path.name


def test_kept_cases_are_the_spi_objects() -> None:
    assert crt.attack_key_8_43 is spi_strengths.attack_key_8_43  # [8.43] kept
    assert detection.attack_key_8_43 is spi_strengths.attack_key_8_43
    spi_verbs = {v.name: v for v in SPI_VOCABULARY.verbs}
    dtp_verbs = {v.name: v for v in VOCABULARY.verbs}
    for name in KEPT_FROM_SPI:
        assert dtp_verbs[name] is spi_verbs[name], name
    assert SCHEMA.values == SPI_SCHEMA.values
    # SPI's unit types, plus Westpac's special ships after them [DTP 11.509, 11.5131]
    spi_surface = SPI_SCHEMA.unit_types["surface"]
    assert SCHEMA.unit_types["surface"][: len(spi_surface)] == spi_surface
    assert set(SCHEMA.unit_types["surface"][len(spi_surface) :]) == {
        "CL", "CCL", "LCC", "AK", "TK", "LHA", "LPH", "LPD", "LST", "LSD", "LSM"
    }  # fmt: skip
    assert {k: v for k, v in SCHEMA.unit_types.items() if k != "surface"} == {
        k: v for k, v in SPI_SCHEMA.unit_types.items() if k != "surface"
    }


def test_the_schema_is_registered() -> None:
    assert ruleset_schema("sixth_fleet_dtp") is SCHEMA


def test_sequence_of_play_4_1() -> None:
    """[DTP 4.1]: A ships, B ships, B air, A air, combat, rebasing, Night removal."""
    assert [p.side or p.acts for p in PHASES] == ["A", "B", "B", "A", "impulses", "both", "nobody"]
    assert [p.acts for p in PHASES][:4] == ["side"] * 4
    assert [p.night_only for p in PHASES] == [False] * 6 + [True]
    # the VASSAL tracker's steps are read from these phases (declared once): set-up, then
    # the seven phases, A's "first" and B's "second", the markers that end with a phase
    assert [(d.id, d.player, d.ends, d.once) for d in SCHEMA.sequence] == [
        ("setup", "", (), True),
        ("ship_movement_a", "first", (), False),
        ("ship_movement_b", "second", (), False),
        ("air_movement_b", "second", (), False),
        ("air_movement_a", "first", (), False),
        ("combat", "", ("attacked",), False),
        ("rebasing", "", (), False),
        ("night", "", ("detected_surface",), False),
    ]
    assert [(d.name, d.rule) for d in SCHEMA.sequence[1:]] == [(p.title, p.rule) for p in PHASES]


def test_the_new_orders_parse() -> None:
    text = (
        "game: g1\nturn: 2\nside: NATO\nphase: combat\n\n[combat]\n"
        "strike US-P3 BR-NIM -> SO-SN-1\n"
        "attack SO-SG-1 -> US-DD-1 US-CG-2 first-strike\n"
        "bounce US-F4C -> SO-T16\npass\n\n"
        "[standing]\ndetect whenever-allowed\nbounce min-aa 8\npass below 10\n"
    )
    doc = parse_orders(text, "t.txt", VOCABULARY)
    got = [(o.verb, o.units, o.targets, o.mode) for o in doc.orders]
    assert got == [
        ("strike", ("US-P3", "BR-NIM"), ("SO-SN-1",), None),
        ("attack", ("SO-SG-1",), ("US-DD-1", "US-CG-2"), "first-strike"),
        ("bounce", ("US-F4C",), ("SO-T16",), None),
        ("pass", (), (), None),
    ]


def test_the_orders_page_is_the_declaration_and_its_example_parses() -> None:
    """``docs/orders/sixth_fleet_dtp.md``: its verb table is made from the vocabulary, and its
    example file parses (the core's docs test covers registered rulesets only)."""
    from referee.engine.vocabulary import verb_table

    page = (ROOT / "docs" / "orders" / "sixth_fleet_dtp.md").read_text(encoding="utf-8")
    start = page.index("<!-- verb table")
    table = page[page.index("\n", start) + 1 : page.index("<!-- end of verb table -->")]
    assert table.strip() == verb_table(VOCABULARY).strip()
    block = page.split("```orders\n", 1)[1].split("```", 1)[0]
    doc = parse_orders(block, "sixth_fleet_dtp.md", VOCABULARY)
    assert [o.verb for o in doc.orders] == ["strike"]
