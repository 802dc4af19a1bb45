"""The cache store (referee/cache.py): entries are used only when every check passes; a
truncated, altered, renamed or foreign entry is refused and the result computed again;
nothing is ever unpickled; the folder must be ours; the size stays bounded."""

from __future__ import annotations

import os
import pickle
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.cache import (
    Cache,
    activated,
    active,
    cache_from_env,
    canonical,
    default_location,
    digest,
)

KEY = digest("a picture")


def _entry(cache: Cache, key: str = KEY, kind: str = "png") -> Path:
    assert cache.root is not None
    return cache.root / "v1" / kind / key[:2] / key


def test_put_then_get(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c")
    assert cache.get("png", KEY) is None
    cache.put("png", KEY, b"payload")
    assert cache.get("png", KEY) == b"payload"
    assert (cache.stats.hits, cache.stats.misses, cache.stats.stored) == (1, 1, 1)


def test_disabled_cache_stores_nothing(tmp_path: Path) -> None:
    cache = Cache(None)
    cache.put("png", KEY, b"payload")
    assert cache.get("png", KEY) is None
    assert not cache.enabled


@pytest.mark.parametrize(
    "spoil",
    [
        lambda b: b[:-3],  # truncated
        lambda b: b[:-1] + bytes([b[-1] ^ 1]),  # one bit of the payload flipped
        lambda b: b.replace(b"referee-cache 1", b"referee-cache 9"),  # another format
        lambda b: b"",  # empty
    ],
)
def test_a_spoilt_entry_is_refused_and_recomputed(tmp_path: Path, spoil) -> None:
    cache = Cache(tmp_path / "c")
    cache.put("png", KEY, b"the true payload")
    path = _entry(cache)
    path.write_bytes(spoil(path.read_bytes()))
    made = []

    def make() -> bytes:
        made.append(1)
        return b"the true payload"

    assert cache.fetch("png", KEY, make, lambda d: True) == b"the true payload"
    assert made == [1]
    assert cache.stats.refused == 1
    assert cache.get("png", KEY) == b"the true payload"  # stored again, whole


def test_an_entry_filed_under_another_key_is_refused(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c")
    other = digest("another picture")
    cache.put("png", other, b"not this one")
    target = _entry(cache)
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(_entry(cache, other), target)
    assert cache.get("png", KEY) is None


class _Booby:
    def __reduce__(self):  # what a stranger's pickle would do when loaded
        return (Path.touch, (Path(os.environ["BOOBY_MARK"]),))


def test_a_pickle_in_the_cache_is_never_loaded(tmp_path: Path, monkeypatch) -> None:
    mark = tmp_path / "pwned"
    monkeypatch.setenv("BOOBY_MARK", str(mark))
    cache = Cache(tmp_path / "c")
    cache.put("module", KEY, b"{}")
    _entry(cache, kind="module").write_bytes(pickle.dumps(_Booby()))
    assert cache.get("module", KEY) is None
    assert not mark.exists()


def test_a_valid_entry_that_fails_the_callers_check_is_recomputed(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c")
    cache.put("png", KEY, b"not a png")
    got = cache.fetch("png", KEY, lambda: b"\x89PNG fresh", lambda d: d.startswith(b"\x89PNG"))
    assert got == b"\x89PNG fresh"
    assert cache.stats.refused == 1


@pytest.mark.skipif(os.name != "posix", reason="folder ownership and modes are POSIX")
def test_a_folder_others_can_write_is_not_used(tmp_path: Path) -> None:
    root = tmp_path / "shared"
    root.mkdir()
    root.chmod(0o777)
    cache = Cache(root)
    cache.put("png", KEY, b"payload")
    assert cache.get("png", KEY) is None
    assert not (root / "v1").exists()


def test_prune_keeps_the_cache_under_its_bound(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c", max_bytes=3000)
    keys = [digest(i) for i in range(10)]
    for i, key in enumerate(keys):
        cache.put("png", key, bytes(1000))
        os.utime(_entry(cache, key), (1000 + i, 1000 + i))
    cache.get("png", keys[0])  # used just now: kept
    cache.prune()
    left = [k for k in keys if _entry(cache, k).exists()]
    total = sum(_entry(cache, k).stat().st_size for k in left)
    assert total <= 3000
    assert keys[0] in left
    assert keys[1] not in left  # the least recently used went first


def test_a_write_failure_only_costs_time(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    cache = Cache(blocker / "c")
    cache.put("png", KEY, b"payload")  # no exception
    assert cache.get("png", KEY) is None


def test_location(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path / "here"))
    assert default_location() == tmp_path / "here"
    for off in ("off", "0", ""):
        monkeypatch.setenv("REFEREE_CACHE", off)
        assert default_location() is None
        assert not cache_from_env().enabled
    monkeypatch.delenv("REFEREE_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if os.name != "nt":
        assert default_location() == tmp_path / "xdg" / "referee"
    monkeypatch.setenv("REFEREE_CACHE", str(tmp_path / "here"))
    assert not cache_from_env(enabled=False).enabled


def test_library_calls_use_no_cache_unless_a_command_turns_it_on(tmp_path: Path) -> None:
    assert not active().enabled
    with activated(Cache(tmp_path / "c")) as cache:
        assert active() is cache
    assert not active().enabled


@dataclass(frozen=True)
class _Fact:
    name: str
    origin: str = ""


def test_canonical_keys() -> None:
    assert digest({"a": 1, "b": 2}) == digest({"b": 2, "a": 1})
    assert digest(frozenset({"x", "y"})) == digest(frozenset({"y", "x"}))
    assert digest(1) != digest(1.0) != digest("1")
    assert digest((1, 2)) != digest((2, 1))
    # where a fact was written is not what it says
    assert digest(_Fact("a", origin="units.csv:3")) == digest(_Fact("a", origin="units.csv:9"))
    assert digest(_Fact("a")) != digest(_Fact("b"))
    with pytest.raises(TypeError):
        canonical(object())


def test_prune_clears_only_old_temporary_files(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c")
    cache.put("png", KEY, b"payload")
    folder = _entry(cache).parent
    old, new = folder / ".old.tmp", folder / ".new.tmp"
    old.write_bytes(b"x")
    new.write_bytes(b"x")
    os.utime(old, (1000, 1000))
    cache.prune()
    assert not old.exists()
    assert new.exists()  # perhaps another run's entry being written
    assert cache.get("png", KEY) == b"payload"


def test_both_code_fingerprints_from_one_reading_are_the_per_scope_ones() -> None:
    """``code_fingerprint`` reads the program's files once for both scopes; each digest is
    the one a reading for that scope alone gives (and the scopes differ)."""
    from referee import cache as c

    both = c._fingerprints()
    assert both["all"] == c._fingerprint("all") and both["code"] == c._fingerprint("code")
    assert both["all"] != both["code"]
    assert c.code_fingerprint("all") == both["all"] and c.code_fingerprint("code") == both["code"]
