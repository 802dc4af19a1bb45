"""Loading a module source through the cache (referee/source/cached.py): the rebuilt model is
equal to a fresh load; any change to the folder is a new key; an entry that is not exactly a
model of the known classes with well-typed fields is refused and the source loaded again."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from referee.cache import Cache, activated
from referee.cli import app
from referee.source.cached import Refused, decode, encode, load_module_cached, source_key
from referee.source.loader import load_module
from referee.source.model import Module
from tests.clirun import Runner

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "modules"
SOURCES = [
    REPO / "module_src" / "sixth_fleet",
    *(FIXTURES / name for name in ("mini", "sf75ex", "area_med", "naval_mix", "point_north")),
]
"""Every kind of map: a module holding a class the codec does not know would not be cached."""


@pytest.mark.parametrize("src", SOURCES, ids=lambda p: p.name)
def test_the_rebuilt_model_equals_a_fresh_load(src: Path, tmp_path: Path) -> None:
    fresh, diags = load_module(src)
    assert fresh is not None
    with activated(Cache(tmp_path / "c")) as cold:
        first, _ = load_module_cached(src)
    with activated(Cache(tmp_path / "c")) as warm:
        again, again_diags = load_module_cached(src)
    assert (cold.stats.misses, cold.stats.stored) == (1, 1)
    assert (warm.stats.hits, warm.stats.misses) == (1, 0)
    assert first == fresh
    assert again == fresh
    assert again is not fresh
    assert again_diags.items == diags.items
    assert again.root == fresh.root


def test_a_process_gets_its_module_object_again(tmp_path: Path) -> None:
    """The commands of one process (a demo, a test session) share the module object loaded
    from one cache entry, so what is built from it once (``per_module``) serves them all; the
    entry is still read (a hit) and each caller gets diagnostics of its own."""
    src = FIXTURES / "mini"
    with activated(Cache(tmp_path / "c")):
        first, first_diags = load_module_cached(src)
    with activated(Cache(tmp_path / "c")) as warm:
        again, again_diags = load_module_cached(src)
        third, _ = load_module_cached(src)
    assert first is not None
    assert again is first and third is first
    assert warm.stats.hits == 2 and warm.stats.misses == 0
    assert again_diags.items == first_diags.items
    assert again_diags.items is not first_diags.items
    with activated(Cache(tmp_path / "other")):
        elsewhere, _ = load_module_cached(src)  # a miss: loaded from the source again
    assert elsewhere == first
    with activated(Cache(None)):
        off, _ = load_module_cached(src)  # no cache: loaded from the source
    assert off == first and off is not first


def test_any_change_to_the_folder_is_a_new_key(tmp_path: Path) -> None:
    src = tmp_path / "mini"
    shutil.copytree(FIXTURES / "mini", src)
    key = source_key(src)
    assert key is not None and source_key(src) == key
    units = src / "units.csv"
    units.write_text(units.read_text().replace("Farragut", "Farragut II"))
    edited = source_key(src)
    assert edited != key
    (src / "notes.txt").write_text("a new file")
    assert source_key(src) not in (key, edited)
    moved = tmp_path / "elsewhere"
    shutil.copytree(src, moved)
    assert source_key(moved) != source_key(src)  # diagnostics name files in the folder


def test_a_source_with_errors_is_not_stored(tmp_path: Path) -> None:
    src = tmp_path / "broken"
    shutil.copytree(FIXTURES / "mini", src)
    (src / "module.toml").write_text("[module\n")
    with activated(Cache(tmp_path / "c")) as cache:
        module, diags = load_module_cached(src)
    assert module is None and diags.errors
    assert cache.stats.stored == 0


def _stored(tmp_path: Path, src: Path) -> Path:
    with activated(Cache(tmp_path / "c")):
        load_module_cached(src)
    (entry,) = (p for p in (tmp_path / "c" / "v1" / "module").rglob("*") if p.is_file())
    return entry


def _rewrite(entry: Path, change) -> None:
    """Alter the JSON payload and write the entry back with a correct header, as a stranger
    with write access to the cache folder could."""
    from referee.cache import Cache as _Cache

    blob = entry.read_bytes()
    payload = blob.split(b"\n", 4)[4]
    doc = json.loads(payload)
    change(doc)
    _Cache(entry.parents[3]).put("module", entry.name, json.dumps(doc).encode())


@pytest.mark.parametrize(
    "change",
    [
        # a class that is not part of the model
        lambda doc: doc["module"].update(C="subprocess.Popen"),
        # a number where the model has a string (the module id)
        lambda doc: doc["module"]["v"].__setitem__(0, 42),
        # a field too many
        lambda doc: doc["module"]["v"].append(None),
        # a list where the model has a tuple
        lambda doc: doc["module"]["v"][6].__setitem__("T", {"x": 1}),
    ],
)
def test_a_hostile_entry_is_refused_and_the_source_loaded(tmp_path: Path, change) -> None:
    src = FIXTURES / "mini"
    entry = _stored(tmp_path, src)
    _rewrite(entry, change)
    with activated(Cache(tmp_path / "c")) as cache:
        module, _ = load_module_cached(src)
    assert cache.stats.refused == 1
    assert module == load_module(src)[0]


def test_decode_checks_types() -> None:
    assert decode(encode((1, "a")), tuple[int, str]) == (1, "a")
    assert decode(encode(frozenset({"x"})), frozenset[str]) == frozenset({"x"})
    assert decode(encode({2: None}), dict[int, str | None]) == {2: None}
    for data, hint in (
        (True, int),
        ("1", int),
        ([1], tuple[int, ...]),
        ({"T": [1, 2]}, tuple[int]),
        ({"C": "builtins.object", "v": []}, Module),
        ("pointy", int),
    ):
        with pytest.raises(Refused):
            decode(data, hint)


def test_cli_validate_with_cold_warm_and_no_cache(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path / "cache"))
    src = REPO / "module_src" / "sixth_fleet"
    runner = Runner()
    state = tmp_path / "state.json"
    made = runner.invoke(app, ["state", "new", str(src), "--scenario", "short", "-o", str(state)])
    assert made.exit_code == 0, made.output
    orders = src / "examples" / "01-nato-setup.txt"
    args = ["validate", "--state", str(state), "--module", str(src), str(orders), "--json"]
    outs = [runner.invoke(app, args) for _ in range(2)]
    outs.append(runner.invoke(app, [*args, "--no-cache"]))
    assert len({(r.exit_code, r.stdout) for r in outs}) == 1
    assert any((tmp_path / "cache" / "v1" / "module").rglob("*"))
