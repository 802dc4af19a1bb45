"""The one cache of what is built from a loaded module: boards, rule tables, a ruleset's
per-module facts, the renderer's type sizes and field digests, the PBEM referee's VASSAL
placement table and piece names. Nothing else keys a cache by a module's identity.

A loaded :class:`~referee.source.model.Module` is immutable, so anything computed from it
alone stays true for as long as that object lives. Each entry is kept under the module
object's identity together with the object itself (so the identity cannot be reused by
another module while the entry lives), and under a key its user names (``"sixth_fleet_2019
.game"``). At most :data:`MAX_MODULES` modules are held; the oldest is dropped first, so a
long run over many module objects (tests, benchmarks) stays bounded.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, Final, TypeVar

if TYPE_CHECKING:
    from referee.source.model import Module

T = TypeVar("T")

MAX_MODULES: Final = 32

_BY_MODULE: dict[int, tuple[Module, dict[Hashable, Any]]] = {}
_MISSING: Final = object()


def per_module(module: Module, key: Hashable, build: Callable[[], T]) -> T:
    """``build()``'s value for ``module`` and ``key``, built once per module object."""
    got = _BY_MODULE.get(id(module))
    if got is None or got[0] is not module:
        if len(_BY_MODULE) >= MAX_MODULES:
            del _BY_MODULE[next(iter(_BY_MODULE))]
        got = _BY_MODULE[id(module)] = (module, {})
    memo = got[1]
    value = memo.get(key, _MISSING)
    if value is _MISSING:
        value = memo[key] = build()
    return value  # type: ignore[no-any-return]
