"""Declared shapes of the JSON and TOML files the tool reads, checked at the edge.

Every file a command reads from outside (``state.json``, ``game.toml``, ``report.json``,
``manifest.json``) is checked against a shape declared here, before any of its values reach
the rules, so that a malformed file ends in one message with a JSON path
(``$.units[3].location: expected a string or null, got a list``) and never in a traceback deep
inside the engine.

Why our own 150 lines and not JSON Schema (``jsonschema``) or pydantic: the checks that matter
most here are cross-references (a stack naming a unit missing from ``units``, a unit standing
in two places) that neither expresses, so hand-written code was needed anyway; the shapes
themselves are few and flat; and this keeps the dependency list short (``jsonschema`` brings
four more packages, one of them compiled). The declarations read like a schema, and each check
names the JSON path of the first value that does not fit.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from typing import Any


class ShapeError(ValueError):
    """A value does not have its declared shape. ``path`` is a JSON path (``$.a[0].b``)."""

    def __init__(self, path: str, expected: str, got: Any) -> None:
        self.path = path
        self.expected = expected
        self.got = describe(got)
        super().__init__(f"{path}: expected {expected}, got {self.got}")


def describe(value: Any) -> str:
    """A short description of a value for a message (its type, and the value if small)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value[:40]!r}" + ("..." if len(value) > 40 else "")
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)}"
    if isinstance(value, Mapping):
        return f"an object of {len(value)} key(s)"
    return type(value).__name__


Check = Callable[[Any, str], None]


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@functools.lru_cache(maxsize=8192)
def _is_ident(key: str) -> bool:
    return _IDENT.fullmatch(key) is not None


def key_path(path: str, key: str) -> str:
    """``$.a.b`` for an identifier key, ``$.a['b c']`` for any other (the same keys recur in
    every report a command reads, so each is tested once)."""
    return f"{path}.{key}" if isinstance(key, str) and _is_ident(key) else f"{path}[{key!r}]"


def check(value: Any, shape: Check, path: str = "$") -> None:
    """Raise :class:`ShapeError` unless ``value`` has ``shape``."""
    try:
        shape(value, path)
    except RecursionError:
        raise ShapeError(path, "a value nested less deeply", value) from None


def string(value: Any, path: str) -> None:
    if not isinstance(value, str):
        raise ShapeError(path, "a string", value)


def integer(value: Any, path: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ShapeError(path, "an integer", value)


def boolean(value: Any, path: str) -> None:
    if not isinstance(value, bool):
        raise ShapeError(path, "true or false", value)


def number(value: Any, path: str) -> None:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise ShapeError(path, "a number", value)


def anything(value: Any, path: str) -> None:
    return None


def json_value(value: Any, path: str) -> None:
    """Any JSON value (objects with string keys only)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return
    if isinstance(value, list):
        for i, v in enumerate(value):
            json_value(v, f"{path}[{i}]")
        return
    if isinstance(value, Mapping):
        for k, v in value.items():
            if not isinstance(k, str):
                raise ShapeError(path, "an object with string keys", value)
            json_value(v, key_path(path, k))
        return
    raise ShapeError(path, "a JSON value", value)


def matching(pattern: str, what: str) -> Check:
    rx = re.compile(pattern)

    def _check(value: Any, path: str) -> None:
        if not isinstance(value, str) or not rx.fullmatch(value):
            raise ShapeError(path, what, value)

    return _check


HEX64 = matching(r"[0-9a-f]{64}", "64 lowercase hex digits")


def one_of(*values: Any) -> Check:
    def _check(value: Any, path: str) -> None:
        if not any(value == v and type(value) is type(v) for v in values):
            raise ShapeError(path, "one of " + ", ".join(repr(v) for v in values), value)

    return _check


def nullable(shape: Check) -> Check:
    def _check(value: Any, path: str) -> None:
        if value is not None:
            shape(value, path)

    return _check


def list_of(item: Check, *, max_items: int = 1_000_000) -> Check:
    def _check(value: Any, path: str) -> None:
        if not isinstance(value, list):
            raise ShapeError(path, "a list", value)
        if len(value) > max_items:
            raise ShapeError(path, f"at most {max_items} items", value)
        for i, v in enumerate(value):
            item(v, f"{path}[{i}]")

    return _check


def map_of(value_shape: Check, *, keys: Check = string) -> Check:
    def _check(value: Any, path: str) -> None:
        if not isinstance(value, Mapping):
            raise ShapeError(path, "an object", value)
        for k, v in value.items():
            keys(k, path)
            value_shape(v, key_path(path, k))

    return _check


def obj(
    required: Mapping[str, Check],
    optional: Mapping[str, Check] | None = None,
    *,
    extra: bool = True,
) -> Check:
    """An object with these keys. ``extra=False`` refuses keys not declared."""
    opt = dict(optional or {})

    def _check(value: Any, path: str) -> None:
        if not isinstance(value, Mapping):
            raise ShapeError(path, "an object", value)
        for k, shape in required.items():
            if k not in value:
                raise ShapeError(key_path(path, k), "a value (the key is missing)", None)
            shape(value[k], key_path(path, k))
        for k, shape in opt.items():
            if k in value:
                shape(value[k], key_path(path, k))
        if not extra:
            for k in value:
                if k not in required and k not in opt:
                    raise ShapeError(key_path(path, str(k)), "no such key", value[k])

    return _check
