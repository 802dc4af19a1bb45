"""Typer's option parsing without importing pydantic when nothing calls for it.

Why: Typer 0.2x turns every command-line value into its Python type through a pydantic
``TypeAdapter``. Importing pydantic and building the adapters costs about 75 ms of every
``referee`` process, a quarter of a ``referee validate`` run in CI, although our options are
plain strings, paths, enum choices and integers.

What: :func:`install` wraps Typer's ``build_runtime_param`` so that such a parameter first
tries a direct conversion that uses Typer's own helpers (``coerce_cli_path`` for paths, with
every existence and permission check Typer makes; ``coerce_cli_choice`` for enums) and
yields exactly what the adapter would. Anything else (a value that does not convert, is out
of range, a list other than of plain paths, a file, a custom parser) goes to Typer's own
adapter, built only then, so every error message is Typer's own, word for word. Should
Typer's internals not be what this module expects (another Typer version), nothing is
installed and Typer works as shipped.
"""

from __future__ import annotations

import enum
import re
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["install"]

_SLOW = object()
"""What a fast conversion returns when Typer's own adapter must decide."""
_INT = re.compile(r"-?[0-9]+")
_PATH_DEFAULTS = {
    "exists": False,
    "file_okay": True,
    "dir_okay": True,
    "writable": False,
    "readable": True,
    "resolve_path": False,
    "allow_dash": False,
}

Fast = Callable[[Any, Any, Any], Any]  # (value, param, ctx) -> value or _SLOW


def install() -> bool:
    """Put the fast path in place (once); ``False`` when this Typer is not the expected one."""
    try:
        import typer.core as core
        from typer._coercion import RuntimeParam
        from typer._param_types import coerce_cli_choice, coerce_cli_path
    except ImportError:
        return False
    original = getattr(core, "build_runtime_param", None)
    if original is None or getattr(original, "referee_fast", False):
        return original is not None

    from dataclasses import dataclass, field

    @dataclass(frozen=True)
    class FastParam(RuntimeParam):  # type: ignore[misc, valid-type]
        fast: Fast = field(default=lambda v, p, c: _SLOW)
        slow: Callable[[], Any] = field(default=lambda: None)
        memo: dict[str, Any] = field(default_factory=dict)

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            got = self.fast(value, param, ctx)
            if got is not _SLOW:
                return got
            if "slow" not in self.memo:
                self.memo["slow"] = self.slow()
            return self.memo["slow"]._coerce_value(value, param=param, ctx=ctx)

    def build(descriptor: Any) -> Any:
        fast = _fast_for(descriptor, coerce_cli_path, coerce_cli_choice)
        if fast is None:
            return original(descriptor)
        return FastParam(
            parameter_info=descriptor.parameter_info,
            annotation=descriptor.annotation,
            fast=fast,
            slow=lambda: original(descriptor),
        )

    build.referee_fast = True  # type: ignore[attr-defined]
    core.build_runtime_param = build
    return True


def _path_list(descriptor: Any, coerce_path: Any) -> Fast | None:
    """``list[Path]`` (several orders files): each item converted as one ``Path`` is, into
    a list, as the adapter's ``list[Path]`` gives; anything else to Typer's own adapter."""
    info = descriptor.parameter_info
    args = typing.get_args(descriptor.annotation)
    if len(args) != 1 or args[0] is not Path or getattr(info, "path_type", None) is not None:
        return None
    if any(getattr(info, k, v) != v for k, v in _PATH_DEFAULTS.items()):
        return None

    def paths(value: Any, param: Any, ctx: Any) -> Any:
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            return _SLOW
        return [coerce_path(Path(v), info, path_type=Path, param=param, ctx=ctx) for v in value]

    return paths


def _plain(annotation: Any) -> Any:
    """``X`` for ``X`` or ``X | None``; ``None`` for anything else."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return args[0] if len(args) == 1 else None
    return annotation


def _fast_for(descriptor: Any, coerce_path: Any, coerce_choice: Any) -> Fast | None:
    """The direct conversion for one parameter, or ``None`` to leave it all to Typer."""
    info = descriptor.parameter_info
    if getattr(info, "parser", None) is not None or getattr(info, "click_type", None) is not None:
        return None
    if descriptor.is_file or descriptor.is_tuple:
        return None
    if descriptor.is_list:
        return _path_list(descriptor, coerce_path)
    kind = _plain(descriptor.annotation)
    if kind is None:
        return None
    if descriptor.is_path:
        return _path(kind, info, coerce_path)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return _choice(kind, info, coerce_choice)
    if kind is str or kind is bool:  # a flag's value is already a bool
        return lambda value, param, ctx: value if type(value) is kind else _SLOW
    if kind is int and not getattr(info, "clamp", False):
        return _integer(info.min, info.max)
    return None


def _path(kind: Any, info: Any, coerce_path: Any) -> Fast | None:
    """A plain ``Path`` option with Typer's default checks (any other: Typer's way)."""
    if kind is not Path or getattr(info, "path_type", None) is not None:
        return None
    if any(getattr(info, k, v) != v for k, v in _PATH_DEFAULTS.items()):
        return None

    def path(value: Any, param: Any, ctx: Any) -> Any:
        if isinstance(value, str):
            value = Path(value)
        if not isinstance(value, Path):
            return _SLOW
        return coerce_path(value, info, path_type=Path, param=param, ctx=ctx)

    return path


def _choice(kind: type[enum.Enum], info: Any, coerce_choice: Any) -> Fast:
    """One of an enum's members."""
    choices = tuple(kind)
    sensitive = info.case_sensitive

    def choice(value: Any, param: Any, ctx: Any) -> Any:
        try:
            return coerce_choice(value, choices=choices, case_sensitive=sensitive, ctx=ctx)
        except ValueError:
            return _SLOW

    return choice


def _integer(low: int | None, high: int | None) -> Fast:
    """A whole number within ``low`` and ``high``; anything else is left to Typer (which
    says what is wrong)."""

    def integer(value: Any, param: Any, ctx: Any) -> Any:
        if type(value) is str and _INT.fullmatch(value):
            value = int(value)
        if type(value) is not int:
            return _SLOW
        if (low is not None and value < low) or (high is not None and value > high):
            return _SLOW
        return value

    return integer
