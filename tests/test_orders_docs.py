"""Every orders example in the documentation is read by the parser it documents.

``docs/orders.md`` (the core syntax) and ``docs/orders/<ruleset>.md`` (one page per ruleset)
hold fenced blocks tagged for this test:

* ```` ```orders [RULESET] ````: a whole orders file that must parse in the ruleset's words
  (a page under ``docs/orders/`` names its ruleset by its file name);
* ```` ```json orders [RULESET] ````: the same, as JSON;
* ```` ```orders-error RULESET ```` followed by ```` ```errors ````: a file that must be
  refused with exactly those messages (file name ``o.txt``).

Each ruleset page's verb table is the one :func:`verb_table` makes from the declaration, and
every registered ruleset with a vocabulary has a page. For Sixth Fleet the examples' unit
ids and hexes are also checked against the module source, so the examples stay real.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.engine.orders import OrdersDoc, OrdersSyntaxError
from referee.engine.ruleset import get_ruleset, ruleset_ids
from referee.engine.vocabulary import verb_table
from referee.source.loader import load_module

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [DOCS / "orders.md", *sorted((DOCS / "orders").glob("*.md"))]
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```$", re.M | re.S)
TABLE_START = "<!-- verb table: made from VOCABULARY; tests/test_orders_docs.py keeps it equal -->"
TABLE_END = "<!-- end of verb table -->"
# module sources whose pieces and map the examples of a ruleset's page must use
MODULES = {"sixth_fleet_1975": ROOT / "module_src" / "sixth_fleet"}
# the toy vocabularies of tests/engine/test_vocabulary.py the core page may show
TOYS = {"toy_area": "AREA", "toy_points": "P2P", "toy_hex": "HEXES"}


def _blocks(page: Path) -> list[tuple[str, list[str], str]]:
    """(kind, info words, body) of every fenced block; kind is the first info word."""
    out = []
    text = re.sub(r"^ +```", "```", page.read_text(encoding="utf-8"), flags=re.M)
    for m in FENCE.finditer(text):
        info = m.group(1).split()
        out.append((info[0] if info else "", info[1:], m.group(2)))
    return out


def _ruleset_of(page: Path, info: list[str]) -> str:
    words = [w for w in info if w != "orders"]
    if words:
        return words[0]
    assert page.parent.name == "orders", f"{page}: name the ruleset after the fence's tag"
    return page.stem


def _examples() -> list[tuple[str, str, str, str | None]]:
    """(page, ruleset, text, expected errors or None) for every tagged example."""
    out: list[tuple[str, str, str, str | None]] = []
    for page in PAGES:
        blocks = _blocks(page)
        for i, (kind, info, body) in enumerate(blocks):
            name = page.relative_to(ROOT).as_posix()
            if kind == "orders" or (kind == "json" and "orders" in info):
                out.append((name, _ruleset_of(page, info), body, None))
            elif kind == "orders-error":
                nxt = blocks[i + 1] if i + 1 < len(blocks) else ("", [], "")
                assert nxt[0] == "errors", f"{name}: an orders-error block needs an errors block"
                out.append((name, _ruleset_of(page, info), body, nxt[2]))
    return out


EXAMPLES = _examples()


def test_the_pages_have_examples() -> None:
    per_page = {p for p, *_ in EXAMPLES}
    assert per_page == {p.relative_to(ROOT).as_posix() for p in PAGES}
    assert len(EXAMPLES) >= 8


@pytest.mark.parametrize(("page", "ruleset", "text", "errors"), EXAMPLES)
def test_example(page: str, ruleset: str, text: str, errors: str | None) -> None:
    if ruleset in TOYS:
        from referee.engine.orders import parse_orders
        from tests.engine import test_vocabulary

        assert errors is None
        vocab = getattr(test_vocabulary, TOYS[ruleset])
        assert parse_orders(text, "example.txt", vocab).orders
        return
    rs = get_ruleset(ruleset)
    if errors is not None:
        with pytest.raises(OrdersSyntaxError) as exc:
            rs.parse_orders(text, "o.txt")
        assert [str(e) for e in exc.value.errors] == errors.strip().splitlines()
        return
    doc = rs.parse_orders(text, "example.txt")
    assert doc.orders or doc.standing or doc.answers
    if ruleset in MODULES:
        _real_words(ruleset, doc)


def _real_words(ruleset: str, doc: OrdersDoc) -> None:
    module, diags = load_module(MODULES[ruleset])
    assert module is not None, diags
    pieces = set(module.pieces())
    hexes = set(module.map.hexes)
    for o in (*doc.orders, *doc.standing):
        for u in (*o.units, *([o.carrier] if o.carrier else [])):
            assert u in pieces, f"{o.text}: no piece {u!r} in {MODULES[ruleset].name}"
        for h in (*o.hexes, *(t[4:] for t in o.targets if t.startswith("hex:"))):
            assert h in hexes, f"{o.text}: no hex {h} on the map"
        for t in o.targets:
            assert t.startswith("hex:") or t in pieces, f"{o.text}: no piece {t!r}"


def _shipped() -> list[str]:
    """The rulesets shipped in ``referee/rules/`` (not toys a test registered)."""
    from referee.engine.ruleset import get_ruleset

    return [
        r for r in ruleset_ids() if type(get_ruleset(r)).__module__.startswith("referee.rules.")
    ]


@pytest.mark.parametrize("ruleset", _shipped())
def test_each_ruleset_page_holds_its_declared_verb_table(ruleset: str) -> None:
    vocab = getattr(get_ruleset(ruleset), "vocabulary", None)
    if vocab is None:
        pytest.skip(f"{ruleset} has its own orders language")
    page = DOCS / "orders" / f"{ruleset}.md"
    assert page.is_file(), f"{ruleset} needs docs/orders/{ruleset}.md"
    text = page.read_text(encoding="utf-8")
    assert TABLE_START in text and TABLE_END in text, f"{page}: mark the verb table"
    shown = text.split(TABLE_START, 1)[1].split(TABLE_END, 1)[0].strip()
    assert shown == verb_table(vocab).strip(), (
        f"{page}: the verb table differs from the declaration; replace it with:\n"
        + verb_table(vocab)
    )
    assert f"orders/{ruleset}.md" in (DOCS / "orders.md").read_text(encoding="utf-8")


def test_the_authors_guide_vocabulary_example_works() -> None:
    """The declaration shown in ``docs/rulesets.md`` is real code that reads real orders."""
    guide = (DOCS / "rulesets.md").read_text(encoding="utf-8")
    code = next(b for k, _, b in _blocks(DOCS / "rulesets.md") if "VOCABULARY = " in b)
    assert code in guide
    scope: dict[str, object] = {}
    exec(compile(code, "docs/rulesets.md", "exec"), scope)
    from referee.engine.orders import parse_orders

    doc = parse_orders(
        '[movement]\nmove SO-1 SO-2 -> Aegean "Eastern Med"\n[combat]\npass final\nbuy 2 crews\n',
        "guide.txt",
        scope["VOCABULARY"],  # type: ignore[arg-type]
    )
    move, pas, buy = doc.orders
    assert move.locations == ("Aegean", "Eastern Med")
    assert pas.mode == "final" and buy.arg("count") == ("2",)


def test_the_vocabulary_command_prints_the_declaration() -> None:
    from referee.cli import app
    from tests.clirun import Runner

    runner = Runner()
    md = runner.invoke(app, ["vocabulary", "sixth_fleet_1975", "--format", "markdown"])
    assert md.exit_code == 0
    page = (DOCS / "orders" / "sixth_fleet_1975.md").read_text(encoding="utf-8")
    assert md.output.strip() in page
    js = runner.invoke(app, ["vocabulary", "sixth_fleet_1975", "--json"])
    import json

    data = json.loads(js.output)
    assert [v["verb"] for v in data["verbs"]][:3] == ["place", "move", "stack"]
    text = runner.invoke(app, ["vocabulary", "sixth_fleet_1975"])
    assert "  retreat HEX prefer HEX [HEX ...]" in text.output
    bad = runner.invoke(app, ["vocabulary", "sixth_fleet_1957"])
    assert "no bundled module or ruleset 'sixth_fleet_1957'" in str(bad.exception)  # exit 2
    assert "did you mean 'sixth_fleet_1975'?" in str(bad.exception)
    # issue 31: the module name every other command takes names its ruleset here too
    by_module = runner.invoke(app, ["vocabulary", "sixth_fleet"])
    assert by_module.exit_code == 0 and by_module.output == text.output
    dtp = runner.invoke(app, ["vocabulary", "dtp_denmark_strait", "-q"])
    assert dtp.output == runner.invoke(app, ["vocabulary", "sixth_fleet_dtp", "-q"]).output
