"""The map examples of docs/module-source.md load as they are written."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from referee.source.loader import load_module

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "module-source.md"
FIXTURES = ROOT / "tests" / "fixtures" / "modules"


def _example(heading: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    section = text.split(heading, 1)[1]
    m = re.search(r"```toml\n(.*?)```", section, re.S)
    assert m is not None
    return m.group(1)


def _scenario(names: tuple[str, ...]) -> str:
    """Every piece of the fixtures' roster fixed at the first location."""
    units = ["US-CV-1", "US-DD-1", "US-F4.1", "US-F4.2", "SO-SG-1", "SO-DD-1", "SO-T16.1",
             "SO-T16.2"]  # fmt: skip
    out = [
        '[scenario]\nid = "opening"\nname = "Doc"\nturns = 1\nfirst_player = "NATO"',
        '[calendar]\ncycle = ["AM"]\nnight = []',
        '[forces]\nNATO = ["US-CV-1", "US-DD-1", "US-F4"]\n'
        'Soviet = ["SO-SG-1", "SO-DD-1", "SO-T16"]',
    ]
    out += [f'[[fixed]]\nunit = "{u}"\nat = "{names[0]}"' for u in units]
    return "\n\n".join(out) + "\n"


@pytest.mark.parametrize(
    ("heading", "kind", "zones", "spaces"),
    [("### An area map", "area", 5, 0), ("### A point-to-point map", "point", 0, 8)],
)
def test_doc_example_loads(
    tmp_path: Path, heading: str, kind: str, zones: int, spaces: int
) -> None:
    root = tmp_path / "doc"
    shutil.copytree(FIXTURES / "area_med", root)
    (root / "map.toml").write_text(_example(heading), encoding="utf-8")
    first = "Italy" if kind == "area" else "NATO Base"
    (root / "scenarios" / "opening.toml").write_text(_scenario((first,)), encoding="utf-8")
    module, diags = load_module(root)
    assert module is not None, [str(d) for d in diags.errors]
    m = module.map
    assert m.kind == kind
    assert len(m.zones.zones if m.zones else ()) == zones
    assert len(m.spaces.spaces if m.spaces else ()) == spaces


def test_doc_combined_example_loads(tmp_path: Path) -> None:
    root = tmp_path / "doc"
    shutil.copytree(FIXTURES / "naval_mix", root)
    mini_map = (FIXTURES / "mini" / "map.toml").read_text(encoding="utf-8")
    (root / "map.toml").write_text(
        mini_map + "\n" + _example("### Zones and ports over a hex map"), encoding="utf-8"
    )
    (root / "scenarios" / "convoy.toml").write_text(
        _scenario(("Southport",)).replace('id = "opening"', 'id = "convoy"'), encoding="utf-8"
    )
    module, diags = load_module(root)
    assert module is not None, [str(d) for d in diags.errors]
    assert module.map.kind == "hex+area+point"
