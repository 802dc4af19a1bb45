"""Orders vocabularies other than Sixth Fleet's: the core parser reads any ruleset's words.

Three toy vocabularies, one per kind of game the seed rule systems need: an area game with
zone names (some with spaces), a point-to-point game with space names and purchases, and a
hex game with detection attempts and impulse passes. Each declares only data; the parser,
its messages, the JSON form and the documentation table come from the declaration.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.engine.orders import Order, OrdersSyntaxError, parse_orders, parse_orders_json
from referee.engine.ruleset import Ruleset
from referee.engine.vocabulary import (
    LocationSyntax,
    Part,
    Verb,
    Vocabulary,
    form,
    keyword,
    location,
    match_name,
    path,
    targets,
    unit,
    units,
    verb_table,
)
from referee.source.schema import RulesetSchema

ZONES = ("Aegean", "Eastern Med", "Western Med", "Tyrrhenian Sea", "Black Sea")

AREA = Vocabulary(
    ruleset="toy_area",
    sections=("actions",),
    locations=(LocationSyntax.name("zone"),),
    verbs=(
        Verb(
            "move",
            ("actions",),
            (form(units(), keyword("->"), path()),),
            meaning="a force moves zone by zone",
        ),
        Verb(
            "strike",
            ("actions", "standing"),
            (form(units(), keyword("->"), targets()),),
            meaning="air strike on units or a zone",
        ),
        Verb(
            "patrol",
            ("actions",),
            (form(unit(), location()),),
            meaning="a naval unit patrols a zone",
        ),
    ),
)

SPACES = ("Norwegian Sea 3", "Norwegian Sea 4", "Faeroes Gap", "Barents Sea 1")

P2P = Vocabulary(
    ruleset="toy_points",
    sections=("logistics", "movement", "launch"),
    locations=(LocationSyntax.name("space"),),
    verbs=(
        Verb("move", ("movement",), (form(unit(), path()),), meaning="along a line"),
        Verb(
            "launch",
            ("launch",),
            (form(units(), keyword("from"), unit(role="carrier"), keyword("->"), location()),),
            meaning="aircraft take off for a space",
        ),
        Verb(
            "buy",
            ("logistics",),
            (form(Part("number", "count"), Part("word", "item", choices=("aircraft", "crews"))),),
            meaning="spend logistics points",
        ),
    ),
)

HEXES = Vocabulary(
    ruleset="toy_hex",
    sections=("movement", "detection", "combat"),
    verbs=(
        Verb(
            "detect",
            ("detection", "standing"),
            (form(units(), keyword("->"), targets(prefix="hex:")),),
            meaning="a detection attempt",
        ),
        Verb(
            "strike",
            ("combat",),
            (form(units(), keyword("->"), targets()),),
            meaning="an impulse's strike",
        ),
        Verb(
            "pass",
            ("combat",),
            (form(keyword("final", sets_mode=True, optional=True)),),
            meaning="pass this impulse; `final` ends the phase for this player",
        ),
        Verb(
            "move",
            ("movement",),
            (form(unit(), path()),),
            meaning="hex by hex",
            note="the starting hex may be left out",
        ),
    ),
)


def test_area_game_zone_names_with_and_without_quotes() -> None:
    doc = parse_orders(
        'game: g\n[actions]\nmove SO-CV-1 SO-DD-2 -> Aegean "Eastern Med"  # via the Aegean\n'
        'strike SO-TU-16 -> "Western Med"\npatrol US-CV-1 "tyrrhenian   sea"\n',
        "area.txt",
        AREA,
    )
    move, strike, patrol = doc.orders
    assert move.units == ("SO-CV-1", "SO-DD-2")
    assert move.locations == ("Aegean", "Eastern Med")
    assert move.col_of("Eastern Med") == 32  # the opening quote
    assert strike.targets == ("Western Med",)
    # the parser keeps the name as written; the ruleset matches it against its board
    assert match_name(patrol.hexes[0], ZONES) == ("Tyrrhenian Sea", None)


def test_area_game_errors_name_the_kind_of_location() -> None:
    with pytest.raises(OrdersSyntaxError) as exc:
        parse_orders(
            '[actions]\nmove SO-1 -> 1423\nmove SO-1 -> "Eastern Med\npatol SO-1 Aegean\n',
            "area.txt",
            AREA,
        )
    errs = [str(e) for e in exc.value.errors]
    assert errs[0].startswith("area.txt:2:14: expected a zone name, got '1423'")
    assert "usage: move UNIT [UNIT ...] -> ZONE [ZONE ...]" in errs[0]
    assert errs[1].startswith("area.txt:3:14: expected a closing '\"'")
    assert errs[2].startswith("area.txt:4:1: expected an order verb")
    assert "did you mean 'patrol'?" in errs[2]


def test_unknown_zone_gets_the_nearest_name() -> None:
    assert match_name("Aegen", ZONES) == (None, "did you mean 'Aegean'?")
    assert match_name("Eastern Med", ZONES) == ("Eastern Med", None)
    assert match_name("Atlantis", ZONES) == (None, None)


def test_point_to_point_space_names_and_named_roles() -> None:
    doc = parse_orders(
        '[movement]\nmove CVBG-1 "Norwegian Sea 3" "Norwegian Sea 4"\n'
        '[launch]\nlaunch F14-1 F14-2 from CV-67 -> "Norwegian Sea 4"\n'
        "[logistics]\nbuy 3 Crews\n",
        "cbg.txt",
        P2P,
    )
    move, launch, buy = doc.orders
    assert move.hexes == ("Norwegian Sea 3", "Norwegian Sea 4")
    assert (launch.units, launch.carrier, launch.hexes) == (
        ("F14-1", "F14-2"),
        "CV-67",
        ("Norwegian Sea 4",),
    )
    assert buy.arg("count") == ("3",) and buy.arg("item") == ("crews",)
    assert Order.from_json(json.loads(json.dumps(buy.to_json()))) == buy
    assert doc.sections == ("movement", "launch", "logistics")


def test_point_to_point_json_quotes_names_with_spaces() -> None:
    data = {"sections": {"movement": [{"verb": "move", "args": ["CVBG-1", "Norwegian Sea 3"]}]}}
    doc = parse_orders_json(json.dumps(data), "cbg.json", P2P)
    assert doc.orders[0].hexes == ("Norwegian Sea 3",)


def test_point_to_point_bad_words() -> None:
    with pytest.raises(OrdersSyntaxError) as exc:
        parse_orders("[logistics]\nbuy three crews\nbuy 2 tanks\n", "cbg.txt", P2P)
    errs = [str(e) for e in exc.value.errors]
    assert errs[0].startswith("cbg.txt:2:5: expected a whole number, got 'three'")
    assert errs[1].startswith("cbg.txt:3:7: expected one of aircraft, crews, got 'tanks'")


def test_hex_game_detection_impulses_and_passes() -> None:
    doc = parse_orders(
        "[combat]\nstrike US-F14.1 -> SO-KIEV\npass\nPASS Final\n"
        "[standing]\ndetect US-P3.1 -> hex:2025\n",
        "dtp.txt",
        HEXES,
    )
    strike, pass1, pass2 = doc.orders
    assert strike.targets == ("SO-KIEV",)
    assert (pass1.verb, pass1.mode, pass2.mode) == ("pass", None, "final")
    assert doc.standing[0].targets == ("hex:2025",)


def test_hex_game_errors_come_from_the_declaration() -> None:
    with pytest.raises(OrdersSyntaxError) as exc:
        parse_orders("[combat]\npass later\ndetect US-P3.1\n[movement]\npas\n", "d.txt", HEXES)
    errs = [str(e) for e in exc.value.errors]
    assert errs[0].startswith("d.txt:2:")
    assert "usage: pass [final]" in errs[0]
    assert "'detect' is not an order of the [combat] section" in errs[1]
    assert "belongs in: [detection], [standing]" in errs[1]
    assert "did you mean 'pass'?" in errs[2]


def test_a_name_only_game_never_reads_hex_ids_and_a_hex_game_no_quotes() -> None:
    with pytest.raises(OrdersSyntaxError, match="four-digit hex id"):
        parse_orders('[movement]\nmove A "Norwegian Sea 3"\n', "h.txt", HEXES)


def test_mixed_hexes_and_ports() -> None:
    vocab = Vocabulary(
        ruleset="toy_naval",
        sections=("naval",),
        locations=(LocationSyntax.hex(4), LocationSyntax.name("port")),
        verbs=(Verb("sail", ("naval",), (form(unit(), path()),)),),
    )
    doc = parse_orders('[naval]\nsail T-1 Sevastopol 1423 "Kerch Port"\n', "n.txt", vocab)
    assert doc.orders[0].hexes == ("Sevastopol", "1423", "Kerch Port")
    assert vocab.describe_location() == "a four-digit hex id or a port name"


def test_declarations_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown section"):
        Vocabulary("bad", ("movement",), (Verb("move", ("combat",), (form(unit()),)),))
    with pytest.raises(ValueError, match="declared twice"):
        Vocabulary(
            "bad",
            ("movement",),
            (Verb("move", ("movement",), ()), Verb("move", ("movement",), ())),
        )


def test_documentation_and_json_come_from_the_declaration() -> None:
    table = verb_table(HEXES)
    assert "| `pass [final]` | combat | pass this impulse;" in table
    assert "| `answer DECISION-ID OPTION` | answer |" in table
    assert "| hex by hex (the starting hex may be left out) |" in table
    move = HEXES.verb("move")
    assert move is not None
    assert move.usage(HEXES) == "move UNIT HEX [HEX ...]   (the starting hex may be left out)"
    data = HEXES.to_json()
    assert data["sections"] == ["movement", "detection", "combat", "answer", "standing"]
    assert [v["verb"] for v in data["verbs"]] == ["detect", "strike", "pass", "move", "answer"]
    assert AREA.to_json()["quotes"] is True and data["quotes"] is False


def test_an_optional_argument() -> None:
    vocab = Vocabulary(
        "toy_opt",
        ("combat",),
        (Verb("fire", ("combat",), (form(unit(), Part("number", "shots", optional=True)),)),),
    )
    doc = parse_orders("[combat]\nfire B-52\nfire B-52 3\n", "o.txt", vocab)
    assert [o.arg("shots") for o in doc.orders] == [(), ("3",)]
    assert vocab.verbs[0].usage(vocab) == "fire UNIT [N]"


def test_a_line_of_garbage_gets_a_few_messages_not_one_per_word() -> None:
    line = "strike " + "-> " * 600
    with pytest.raises(OrdersSyntaxError) as exc:
        parse_orders(f"[combat]\n{line}\n", "g.txt", HEXES)
    errs = exc.value.errors
    assert 2 <= len(errs) <= 6
    assert errs[-1].message == "... and more problems in this order"
    assert all(e.line == 2 for e in errs)


def test_names_differing_only_in_case_are_not_guessed() -> None:
    assert match_name("aegean", ("AEGEAN", "Aegean"))[0] is None
    assert match_name("Aegean", ("AEGEAN", "Aegean")) == ("Aegean", None)


def test_an_answer_may_name_a_space_with_spaces() -> None:
    doc = parse_orders('[answer]\nanswer D3-1 "Norwegian Sea 3"\n', "a.txt", P2P)
    assert (doc.answers[0].decision, doc.answers[0].value) == ("D3-1", "Norwegian Sea 3")


class _AreaToy(Ruleset):
    """Just enough of a ruleset for the registry-facing helpers: an id, a name, a vocabulary;
    no game is played with it."""

    id = "toy_area"
    name = "Toy area game"
    vocabulary = AREA

    def new_game(self, *args: Any, **kw: Any) -> Any:
        raise AssertionError("not played")

    awaiting = validate = carry_out = view = score = new_game


_AREA_SCHEMA = RulesetSchema(
    id="toy_area", name="Toy area game", values=(), categories=(), rules=_AreaToy
)


def test_a_registered_rulesets_orders_and_vocabulary_reach_the_core() -> None:
    from referee.cli import app
    from referee.engine import ruleset as registry
    from referee.source import schema
    from tests.clirun import Runner

    schema.register(_AREA_SCHEMA)
    try:
        rs = registry.get_ruleset("toy_area")
        doc = rs.parse_orders('[actions]\npatrol US-CV-1 "Black Sea"\n', "t.txt")
        assert doc.orders[0].hexes == ("Black Sea",)
        out = Runner().invoke(app, ["vocabulary", "toy_area", "--json"])
        assert json.loads(out.output)["locations"] == [
            {"kind": "name", "noun": "zone", "digits": None}
        ]
    finally:
        schema.unregister("toy_area")


def test_the_scripted_player_needs_the_rulesets_own_method() -> None:
    from referee.engine.scripted import orders_for
    from referee.errors import UserError

    with pytest.raises(UserError, match="has no scripted player"):
        orders_for(None, None, _AreaToy())  # type: ignore[arg-type]
