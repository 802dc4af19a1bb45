"""Loading a module source through the cache (:mod:`referee.cache`).

``referee validate`` and ``referee build`` load the whole module source every run although it
rarely changes. A loaded module is a pure function of the folder's bytes, the folder's path
(diagnostics and origins name files in it) and the loader's code, so it is stored under the
digest of exactly those (:func:`source_key`) as canonical, self-describing JSON.

Nothing is unpickled: the JSON is rebuilt into the model's frozen dataclasses by
:func:`decode`, which accepts only the model's own classes (:data:`MODEL_MODULES`) and checks
every field's value against the field's type hint as it goes. An entry that fails any check
(or a module holding something this codec does not know) is ignored and the source loaded
again, so the cache can cost time but never change a result. A source that does not load
(errors) is never stored.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import types
import typing
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path, PurePath
from typing import Any, Final

from referee.cache import active, code_fingerprint, digest
from referee.source.diagnostics import Diagnostics
from referee.source.model import Module
from referee.source.schema import schema_for

__all__ = ["decode", "encode", "load_module_cached", "source_key"]

MODEL_MODULES: Final = (
    "referee.source.model",
    "referee.source.tablemodel",
    "referee.source.mapkinds",
    "referee.source.origin",
    "referee.source.diagnostics",
    "referee.source.gamedecl",
    "referee.hexgrid",
)
"""The modules whose dataclasses a cached module may be rebuilt from."""

MAX_FILES: Final = 2000
MAX_BYTES: Final = 64 * 1024 * 1024
SKIP_DIRS: Final = frozenset({".git", ".hg", ".svn", "__pycache__", ".venv"})


class Refused(ValueError):
    """A cached entry that is not a well-formed module."""


# ---- key ----------------------------------------------------------------------------------


def source_key(root: Path) -> str | None:
    """The digest of every file in ``root`` (names and bytes; version-control folders
    aside), the folder's absolute path and the loader's code. ``None`` when the folder is too
    large to be worth it or cannot be read (then the module is simply loaded)."""
    h = hashlib.sha256()
    files = 0
    size = 0
    try:
        base = root.resolve()
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            for name in sorted(filenames):
                path = Path(dirpath) / name
                if not path.is_file():
                    h.update(f"{path.relative_to(base).as_posix()}\0special\0".encode())
                    continue
                data = path.read_bytes()
                files += 1
                size += len(data)
                if files > MAX_FILES or size > MAX_BYTES:
                    return None
                h.update(f"{path.relative_to(base).as_posix()}\0{len(data)}\0".encode())
                h.update(data)
    except OSError:
        return None
    return digest("module-source", code_fingerprint("code"), str(base), str(root), h.hexdigest())


# ---- codec --------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _classes() -> dict[str, type]:
    import importlib

    out: dict[str, type] = {}
    for name in MODEL_MODULES:
        mod = importlib.import_module(name)
        for obj in vars(mod).values():
            if (
                isinstance(obj, type)
                and dataclasses.is_dataclass(obj)
                and obj.__module__ == mod.__name__
            ):
                out[f"{mod.__name__}.{obj.__qualname__}"] = obj
    return out


@lru_cache(maxsize=128)
def _fields(cls: type) -> tuple[tuple[str, Decoder], ...]:
    """Each field of a model class with the decoder of its type hint."""
    names: dict[str, Any] = {c.__name__: c for c in _classes().values()}
    hints = typing.get_type_hints(cls, localns=names)  # some names are imported for typing only
    return tuple((f.name, _decoder(hints[f.name])) for f in _stored(cls))


def _stored(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    """The fields of a model class the cache stores: all but the ``derived`` ones (a
    module's schema, attached again from its ruleset when the module is rebuilt)."""
    return tuple(f for f in dataclasses.fields(cls) if not f.metadata.get("derived"))


def encode(value: object) -> object:
    """``value`` as self-describing JSON data: tuples, sets, dicts, paths and dataclasses are
    tagged (``{"T": [...]}``, ``{"C": "module.Class", "v": [...]}``...). Raises TypeError
    for anything else."""
    if value is None or isinstance(value, bool | int | str | float):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        name = f"{cls.__module__}.{cls.__qualname__}"
        if _classes().get(name) is not cls:
            raise TypeError(f"{name} is not a model class")
        return {"C": name, "v": [encode(getattr(value, f.name)) for f in _stored(cls)]}
    if isinstance(value, tuple):
        return {"T": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {"D": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, frozenset):
        return {"F": sorted((encode(v) for v in value), key=_order)}
    if isinstance(value, PurePath):
        return {"P": str(value)}
    raise TypeError(f"cannot store a {type(value).__name__} in a cached module")


def _order(item: object) -> str:
    return json.dumps(item, sort_keys=True)


def decode(data: object, hint: Any = Any) -> Any:
    """Rebuild a value :func:`encode` made, checking it against the type ``hint``; raises
    :class:`Refused` for anything that does not fit."""
    return _decoder(hint)(data)


Decoder = typing.Callable[[object], Any]


@lru_cache(maxsize=512)
def _decoder(hint: Any) -> Decoder:
    """A checking decoder for one type hint, built once (the model has a few dozen)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return _union_decoder(hint)
    container = _CONTAINERS.get(origin)
    if container is not None:
        return container(typing.get_args(hint))
    plain = _plain_decoder(hint, origin)
    if plain is not None:
        return plain
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return lambda data: _decode_dataclass(data, hint)
    raise Refused(f"no decoder for {hint}")


def _plain_decoder(hint: Any, origin: Any) -> Decoder | None:
    """The decoder of a value that holds no other: anything, null, a literal, a bool, str,
    int or float, a path (``None`` for any other hint)."""
    if hint is Any or hint is object:
        return _decode_any
    if hint is type(None):
        return _none
    if origin is typing.Literal:
        return _literal_decoder(typing.get_args(hint))
    if hint in (bool, str, int):

        def exact(data: object) -> Any:
            if type(data) is hint:
                return data
            raise Refused(f"expected {hint.__name__}")

        return exact
    if hint is float:
        return _float
    if hint is Path:
        return lambda data: Path(_tagged(data, "P", str))
    return None


def _union_decoder(hint: Any) -> Decoder:
    """The first of the union's options that accepts the value."""
    options = [_decoder(a) for a in typing.get_args(hint)]

    def union(data: object) -> Any:
        for option in options:
            try:
                return option(data)
            except Refused:
                continue
        raise Refused(f"{data!r:.60} is none of {hint}")

    return union


def _literal_decoder(allowed: tuple[Any, ...]) -> Decoder:
    def literal(data: object) -> Any:
        if isinstance(data, str | int | bool) and data in allowed:
            return data
        raise Refused(f"{data!r:.60} is not one of {allowed}")

    return literal


def _tuple_decoder(args: tuple[Any, ...]) -> Decoder:
    """``tuple[X, ...]`` (any length) or ``tuple[X, Y]`` (exactly those)."""
    if len(args) == 2 and args[1] is Ellipsis:
        item = _decoder(args[0])
        return lambda data: tuple([item(v) for v in _tagged(data, "T", list)])
    parts = [_decoder(a) for a in args]

    def fixed(data: object) -> Any:
        items = _tagged(data, "T", list)
        if len(items) != len(parts):
            raise Refused("tuple of the wrong length")
        return tuple([f(v) for f, v in zip(parts, items, strict=True)])

    return fixed


def _list_decoder(args: tuple[Any, ...]) -> Decoder:
    item = _decoder(args[0])

    def listed(data: object) -> Any:
        if not isinstance(data, list):
            raise Refused("expected a list")
        return [item(v) for v in data]

    return listed


def _dict_decoder(args: tuple[Any, ...]) -> Decoder:
    """A dict stored as ``[key, value]`` pairs (keys need not be strings)."""
    kd, vd = (_decoder(a) for a in args)

    def mapping(data: object) -> Any:
        out = {}
        for pair in _tagged(data, "D", list):
            if not (isinstance(pair, list) and len(pair) == 2):
                raise Refused("expected a [key, value] pair")
            out[kd(pair[0])] = vd(pair[1])
        return out

    return mapping


def _frozenset_decoder(args: tuple[Any, ...]) -> Decoder:
    item = _decoder(args[0])
    return lambda data: frozenset([item(v) for v in _tagged(data, "F", list)])


_CONTAINERS: dict[Any, typing.Callable[[tuple[Any, ...]], Decoder]] = {
    tuple: _tuple_decoder,
    list: _list_decoder,
    dict: _dict_decoder,
    frozenset: _frozenset_decoder,
}


def _none(data: object) -> None:
    if data is not None:
        raise Refused("expected null")


def _float(data: object) -> Any:
    if type(data) is float or type(data) is int:  # a whole number in a float field stays int
        return data
    raise Refused("expected float")


def _tagged(data: object, tag: str, kind: type) -> Any:
    if not (isinstance(data, dict) and len(data) == 1 and isinstance(data.get(tag), kind)):
        raise Refused(f"expected a {tag!r} value")
    return data[tag]


def _decode_dataclass(data: object, expected: type | None) -> Any:
    if type(data) is not dict or len(data) != 2:
        raise Refused("expected a model object")
    name, values = data.get("C"), data.get("v")
    if type(name) is not str or type(values) is not list:
        raise Refused("expected a model object")
    cls = _classes().get(name)
    if cls is None or (
        expected is not None and cls is not expected and not issubclass(cls, expected)
    ):
        raise Refused(f"{name!r:.80} is not an expected model class")
    fields = _fields(cls)
    if len(fields) != len(values):
        raise Refused(f"{cls.__name__}: wrong number of fields")
    obj = object.__new__(cls)
    setter = object.__setattr__
    for (field_name, dec), raw in zip(fields, values, strict=True):
        setter(obj, field_name, dec(raw))
    for f in dataclasses.fields(cls):
        if f.metadata.get("derived"):
            setter(obj, f.name, f.default)
    return obj


def _decode_any(data: object) -> Any:
    """A value typed ``Any`` (a table cell's parsed value): plain data, tagged containers or
    a model object, each part checked the same way."""
    if data is None or isinstance(data, bool | int | str | float):
        return data
    if isinstance(data, list):
        return [_decode_any(v) for v in data]
    if isinstance(data, dict) and len(data) == 1:
        (tag,) = data
        if tag == "T":
            return tuple(_decode_any(v) for v in _tagged(data, "T", list))
        if tag == "D":
            return decode(data, dict[Any, Any])
        if tag == "F":
            return frozenset(_decode_any(v) for v in _tagged(data, "F", list))
        if tag == "P":
            return decode(data, Path)
    if isinstance(data, dict) and set(data) == {"C", "v"}:
        return _decode_dataclass(data, None)
    raise Refused(f"unexpected {data!r:.60}")


# ---- loading ------------------------------------------------------------------------------


def load_module_cached(
    root: Path,
    loader: Callable[[Path], tuple[Module | None, Diagnostics]] | None = None,
    *,
    salt: str = "",
) -> tuple[Module | None, Diagnostics]:
    """:func:`referee.source.loader.load_module`, answered from the active cache when this
    exact source was loaded before (same bytes, same path, same program). Another
    ``loader`` (a source imported from VASSAL read as a game:
    ``referee.vassal.foreign.game.load_imported_game``) is cached under keys of its own
    ``salt``, so one loader never answers for another."""
    cache = active()
    key = source_key(root) if cache.enabled else None
    if key is not None and salt:
        key = digest(salt, key)
    if key is not None:
        data = cache.get("module", key)
        if data is not None:
            got = _held(key, data, root) or _rebuild(data, root)
            if got is not None:
                return _hold(key, data, got)
            cache.stats.refused += 1
    if loader is None:
        from referee.source.loader import load_module as loader

    module, diags = loader(root)
    if key is not None and module is not None:
        try:
            blob = json.dumps(
                {"module": encode(module), "diagnostics": encode(diags.items)},
                ensure_ascii=False,
                separators=(",", ":"),
            ).encode("utf-8")
        except (TypeError, ValueError):  # something this codec does not know: no caching
            return module, diags
        cache.put("module", key, blob)
        _hold(key, blob, (module, diags))
    return module, diags


MAX_HELD: Final = 4
"""Module objects this process keeps, by source key (the few it is working with)."""

_HELD: dict[str, tuple[bytes, Module, tuple[Any, ...]]] = {}


def _held(key: str, data: bytes, root: Path) -> tuple[Module, Diagnostics] | None:
    """The module object this process already made from exactly this cache entry (same
    source key: same bytes, path and program; same entry bytes), with a fresh copy of its
    diagnostics; ``None`` when it made none.

    A process that runs several commands on one game (the demos, the tests, a script over
    the library) loads the module once a command; handing back the same immutable object
    lets every table built from it (:func:`referee.source.memo.per_module`: the boards, the
    VASSAL placement table, the picture's map layer) serve the next command too, instead of
    being built again and held a second time beside the first. The entry is still read and
    checked as before (a damaged one is refused), only not decoded again."""
    got = _HELD.get(key)
    if got is None or got[0] != hashlib.sha256(data).digest():
        return None
    return got[1], Diagnostics(root=root, items=list(got[2]))


def _hold(key: str, data: bytes, loaded: tuple[Module, Diagnostics]) -> tuple[Module, Diagnostics]:
    if key not in _HELD and len(_HELD) >= MAX_HELD:
        del _HELD[next(iter(_HELD))]
    _HELD[key] = (hashlib.sha256(data).digest(), loaded[0], tuple(loaded[1].items))
    return loaded


def _rebuild(data: bytes, root: Path) -> tuple[Module, Diagnostics] | None:
    from referee.source.diagnostics import Diagnostic

    try:
        doc = json.loads(data)
        if not (isinstance(doc, dict) and set(doc) == {"module", "diagnostics"}):
            return None
        module = decode(doc["module"], Module)
        items = decode(doc["diagnostics"], list[Diagnostic])
    except (Refused, ValueError, TypeError, KeyError, RecursionError):
        return None
    except Exception:  # a type hint the codec cannot read is our gap: load the source
        return None
    module = dataclasses.replace(
        module, root=root.resolve(), schema=schema_for(module.ruleset, module.game)
    )
    return module, Diagnostics(root=root, items=items)
