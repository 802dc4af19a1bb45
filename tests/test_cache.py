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


def _held(root: Path) -> int:
    """The bytes of the entries in a cache folder (temporary files aside), listed."""
    return sum(
        f.stat().st_size
        for f in (root / "v1").rglob("*")
        if f.is_file() and not f.name.startswith(".")
    )


def _walks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each listing of a cache folder, recorded."""
    import referee.cache as cache_mod

    seen: list[str] = []
    listing = cache_mod._files

    def counted(top: str) -> list[tuple[str, str, os.stat_result]]:
        seen.append(top)
        return listing(top)

    monkeypatch.setattr(cache_mod, "_files", counted)
    return seen


def test_commands_walk_the_cache_only_when_its_ledger_may_exceed_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eighty commands each storing one entry of 250 bytes in a cache bounded at 10 kB: the
    folder is walked when the ledger has no total yet and when the ledger's count passes
    the bound (then pruned to 9 kB, so the next walk is four commands later), not after
    every command; after each command the entries fit the bound."""
    walks = _walks(monkeypatch)
    root = tmp_path / "c"
    for i in range(80):
        with activated(Cache(root, max_bytes=10_000)) as cache:
            cache.put("png", digest("entry", i), bytes(100))
            size = cache.stats.stored_bytes
        assert _held(root) <= 10_000, i
    assert size == 250
    # the first command; none while filling (40 entries); then one in every four or five
    assert 1 + 40 // 5 <= len(walks) <= 1 + 40 // 4, len(walks)
    assert 8_500 < _held(root) <= 10_000  # pruned to 90 % of the bound, not emptied


def test_a_command_storing_nothing_neither_writes_the_ledger_nor_walks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "c"
    for key in (KEY, digest("two")):  # the first walks (no total yet), the second only counts
        with activated(Cache(root)) as cache:
            cache.put("png", key, b"payload")
    walks = _walks(monkeypatch)
    ledger = (root / "v1.added").read_bytes()
    assert ledger == b"%d\n" % (_held(root) // 2)  # the second command's entry, two alike
    with activated(Cache(root)) as cache:
        assert cache.get("png", KEY) == b"payload"
    assert walks == [] and (root / "v1.added").read_bytes() == ledger


def test_a_missing_or_day_old_ledger_means_a_walk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "c"
    with activated(Cache(root)) as cache:
        cache.put("png", KEY, b"payload")
    walks = _walks(monkeypatch)
    with activated(Cache(root)) as cache:
        cache.put("png", digest("two"), b"payload")
    assert walks == []  # far under the bound: the ledger says so
    (root / "v1.total").unlink()
    with activated(Cache(root)) as cache:
        cache.put("png", digest("three"), b"payload")
    assert len(walks) == 1  # no total: listed, and the total written again
    total, when = (root / "v1.total").read_text().split()
    assert int(total) == _held(root)
    (root / "v1.total").write_text(f"{total} {int(when) - 2 * 24 * 3600}\n")
    with activated(Cache(root)) as cache:
        cache.put("png", digest("four"), b"payload")
    assert len(walks) == 2  # the last walk two days ago


def test_entries_another_run_stores_during_a_walk_stay_counted(tmp_path: Path) -> None:
    """A walk starts a new ledger before it lists: a run that appends meanwhile is counted
    either by the listing or by the new ledger, never by neither."""
    root = tmp_path / "c"
    with activated(Cache(root, max_bytes=100_000)) as cache:
        cache.put("png", KEY, bytes(1000))
    walker = Cache(root, max_bytes=100_000)
    other = Cache(root, max_bytes=100_000)
    real = walker._walk

    def walk_while_another_stores(folder: Path) -> int:
        removed = real(folder)  # listed (without the entry below) and the total written
        other.put("png", digest("meanwhile"), bytes(5000))
        other.settle()  # appends to the new ledger, which the walk must keep
        return removed

    walker._walk = walk_while_another_stores  # type: ignore[method-assign]
    walker.prune()
    from referee.cache import _ledger

    counted = _ledger(root)
    assert counted is not None and counted >= _held(root) > 6000


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
