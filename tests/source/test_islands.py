"""``[[island]]`` in map.toml: decoration the board draws, checked like every other entry, and
read by no rule (the hex keeps its terrain)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from referee.source.loader import load_module
from referee.source.model import Island

Edit = Callable[[Path, str, str], None]

GOOD = """
[[island]]
name = "Rock"
hex = "0305"
at = [0.1, -0.2]
size = [0.3, 0.15]
angle = 30
label = true
"""


def _append(mini: Path, text: str) -> None:
    p = mini / "map.toml"
    p.write_text(p.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_an_island_is_read_and_changes_no_terrain(mini: Path) -> None:
    before, _ = load_module(mini)
    _append(mini, GOOD)
    module, diags = load_module(mini)
    assert module is not None and before is not None, [str(d) for d in diags.items]
    assert module.map.islands == (Island("Rock", "0305", (0.1, -0.2), (0.3, 0.15), 30.0, True),)
    assert module.map.hexes == before.map.hexes  # same terrain, names, everything the rules read


def test_bad_islands_are_reported_with_their_line(mini: Path) -> None:
    start = len((mini / "map.toml").read_text(encoding="utf-8").splitlines())
    bad = (
        GOOD.replace('"0305"', '"0909"')
        + GOOD.replace("[0.1, -0.2]", "[0.9, 0]")
        + GOOD.replace("[0.3, 0.15]", '"big"')
        + GOOD.replace("label = true", 'label = "yes"')
        + GOOD.replace("angle = 30", "angle = 400")
        + GOOD.replace('name = "Rock"\n', "")
    )
    _append(mini, bad)
    module, diags = load_module(mini)
    assert module is None
    errs = [str(d) for d in diags.errors]
    block = len(GOOD.splitlines())
    expect = [
        ("0909", 0),
        ("'at' = [0.9, 0] has 0.9 out of range (-0.5..0.5)", 1),
        ("'size' must be two numbers, got 'big'", 2),
        ("'label' must be true or false", 3),
        ("'angle' = 400 is out of range", 4),
        ("[[island]]: missing 'name'", 5),
    ]
    for needle, k in expect:
        hit = [e for e in errs if needle in e]
        assert hit, (needle, errs)
        line = int(hit[0].split(":")[1])
        assert start + k * block + 2 <= line <= start + (k + 1) * block + 1, (needle, hit[0])


def test_the_aegean_islands_of_sixth_fleet_are_decoration() -> None:
    """Lesbos, Chios, Samos, Euboea, the Cyclades and the Dodecanese are drawn; the hexes
    they lie in keep the terrain of map.txt [10.0], which the rules read."""
    root = Path(__file__).resolve().parents[2] / "module_src" / "sixth_fleet"
    module, _ = load_module(root)
    assert module is not None
    m = module.map
    names = {i.name for i in m.islands}
    aegean = {"Crete", "Rhodes", "Lesbos", "Chios", "Samos", "Euboea", "Lemnos"}
    cyclades = {"Naxos", "Paros", "Andros", "Tinos", "Milos", "Santorini"}
    dodecanese = {"Kos", "Kalymnos", "Leros", "Patmos", "Karpathos", "Astypalaia"}
    assert aegean | cyclades | dodecanese <= names
    terrain = {i.name: m.hexes[i.hex].terrain for i in m.islands}
    # small islands in water hexes: the water stays water (Restricted Water [10.14])
    assert terrain["Naxos"] == "coastal" and terrain["Andros"] == "restricted"
    assert terrain["Samos"] == "restricted" and terrain["Euboea"] == "restricted"
