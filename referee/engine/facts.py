"""A ruleset's position facts, declared once: the typed keys of ``GameState.data``.

Every ruleset keeps what its rules track beyond units and stacks (the CVBG's space, the
Alert level, the chit pools, the VP...) under ``state.data`` as plain JSON. Read as raw
strings (``state.data["cvbg"]["space"]``) nothing says which keys exist, what each holds, or
that a state from a file holds them with the right types. A ruleset that declares its facts
writes them once, as a frozen dataclass subclassing :class:`Facts`::

    class Cvbg(TypedDict):
        space: str
        ships: list[str]


    @dataclass(frozen=True)
    class MyFacts(Facts):
        kind: str                      # required: a state without it is refused at the edge
        cvbg: Cvbg | None = None       # absent until the CVBG is placed
        vp: int = 0

and then reads them typed (``MyFacts.of(state).cvbg["space"]``) and writes them by name
(``MyFacts.put(state, vp=3)``, ``MyFacts.drop(state, "incident")``). The declaration is
the one place the keys are named:

* **Reading** builds the dataclass from ``state.data`` without copying a value: a key the
  state lacks reads as the field's default (a field without one is required).
* **Writing** (:meth:`Facts.put`) sets exactly the keys it names, as
  :meth:`GameState.with_data` does, and refuses a name the declaration lacks, so an
  undeclared key cannot creep back. Nothing is re-spelled: ``state.json`` keeps its
  canonical bytes, and a key absent before stays absent until the rules write it, so
  archives made before a ruleset declared its facts verify byte for byte.
* **The edge**: :meth:`Facts.check` derives a :mod:`referee.shapes` check from the field
  types (``str``, ``int``, ``bool``, ``float``, ``Any``, ``X | None``, ``Literal``,
  ``list[X]``, ``tuple[X, ...]``, ``dict[str, X]``, ``Mapping[str, X]`` and ``TypedDict``
  records, ``NotRequired`` keys optional) and refuses a key not declared, each at its JSON
  path (``$.data.cvbg.space: expected a string, got the number 7``).
  :func:`referee.engine.state_shape.check_state_fits` runs it on every state a command reads
  from a file, through the ruleset's :class:`~referee.engine.ruleset.PositionFacts`.
"""

from __future__ import annotations

import dataclasses
import functools
import types
from collections.abc import Mapping, Sequence
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from referee.shapes import (
    Check,
    ShapeError,
    boolean,
    integer,
    json_value,
    key_path,
    list_of,
    map_of,
    nullable,
    number,
    obj,
    one_of,
    string,
)

if TYPE_CHECKING:
    from typing import Self

    from referee.engine.core import GameState


@dataclasses.dataclass(frozen=True)
class Facts:
    """Base of a ruleset's declaration of its position facts (subclass it as a frozen
    dataclass; each field is one key of ``state.data``).

    ``vassal_pieces`` is the one fact every ruleset's states hold without its rules writing
    it: the piece generation the game's VASSAL saves use, recorded by the referee at the
    start (``referee.vassal.module.piece_versions``)."""

    ruleset: ClassVar[str] = ""  # the ruleset id, for messages
    vassal_pieces: int | None = dataclasses.field(default=None, kw_only=True)

    @classmethod
    def of(cls, state: GameState) -> Self:
        """The facts of ``state``, typed (values are the state's own, not copies).

        The rules ask many times per step, and successive states share one ``data`` mapping
        until a fact is written: the facts of the last few mappings are kept, by identity."""
        data = state.data
        key = (cls, id(data))
        hit = _RECENT.get(key)
        if hit is not None and hit[0] is data:
            return hit[1]  # type: ignore[return-value]
        got = cls.of_data(data)
        _remember(cls, data, got)
        return got

    @classmethod
    def of_data(cls, data: Mapping[str, Any]) -> Self:
        """The facts of a ``state.data`` mapping (a key it lacks reads as its default)."""
        fixed, made, required = _defaults(cls)
        values = dict(fixed)
        for k, make in made:
            values[k] = make()
        values.update((k, data[k]) for k in _field_names(cls) if k in data)
        for k in required:
            if k not in values:
                raise KeyError(f"the state holds no fact {k!r} ({cls.__name__})")
        out = object.__new__(cls)  # the frozen __init__ would set each field: read often
        out.__dict__.update(values)
        return out

    @classmethod
    def put(cls, state: GameState, **changes: Any) -> GameState:
        """``state`` with the facts named set (only those keys are written)."""
        names = _field_set(cls)
        for k in changes:
            if k not in names:
                raise TypeError(f"{k!r} is no fact {cls.__name__} declares: declare it there")
        new = state.with_data(**changes)
        hit = _RECENT.get((cls, id(state.data)))
        if hit is not None and hit[0] is state.data:
            # the facts read next are those known with the changes: the rules write one fact
            # and read the others many times, so none is read again from the whole mapping
            known = object.__new__(cls)
            known.__dict__.update(hit[1].__dict__)
            known.__dict__.update(changes)
            _remember(cls, new.data, known)
        return new

    @classmethod
    def drop(cls, state: GameState, *names: str) -> GameState:
        """``state`` without the facts named (absent keys read as their defaults again)."""
        declared = _field_names(cls)
        for k in names:
            if k not in declared:
                raise TypeError(f"{k!r} is no fact {cls.__name__} declares: declare it there")
        data = {k: v for k, v in state.data.items() if k not in names}
        return state.evolve(data=data)

    @classmethod
    def declared(cls) -> tuple[str, ...]:
        """The keys declared, in declaration order."""
        return _field_names(cls)

    @classmethod
    def check(cls, data: Any, path: str = "$.data") -> None:
        """Raise :class:`ShapeError` at the JSON path of the first fact of ``data`` that does
        not fit its declared type, or of a key not declared."""
        if not isinstance(data, Mapping):
            raise ShapeError(path, "an object", data)
        shapes, required = _shapes(cls)
        for k in required:
            if k not in data:
                raise ShapeError(key_path(path, k), f"the fact {k} (the key is missing)", None)
        for k, v in data.items():
            shape = shapes.get(k)
            if shape is None:
                who = cls.ruleset or cls.__name__
                raise ShapeError(
                    key_path(path, str(k)), f"a fact ruleset {who} declares (not {k!r})", v
                )
            shape(v, key_path(path, k))


_KEEP = 64
_RECENT: dict[tuple[type, int], tuple[Mapping[str, Any], Facts]] = {}


def _remember(cls: type, data: Mapping[str, Any], facts: Facts) -> None:
    if len(_RECENT) >= _KEEP:
        _RECENT.clear()  # not the oldest alone: a dict emptied from its front slows to iterate
    _RECENT[(cls, id(data))] = (data, facts)  # holding ``data`` keeps its id from being reused


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


@functools.cache
def _field_set(cls: type) -> frozenset[str]:
    return frozenset(_field_names(cls))


@functools.cache
def _defaults(
    cls: type,
) -> tuple[dict[str, Any], tuple[tuple[str, Any], ...], tuple[str, ...]]:
    """The fields' plain defaults, their default factories, and the fields without one."""
    fixed: dict[str, Any] = {}
    made: list[tuple[str, Any]] = []
    required: list[str] = []
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            fixed[f.name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            made.append((f.name, f.default_factory))
        else:
            required.append(f.name)
    return fixed, tuple(made), tuple(required)


@functools.cache
def _shapes(cls: type) -> tuple[dict[str, Check], tuple[str, ...]]:
    """Each declared key's shape, and the keys without a default (required)."""
    hints = get_type_hints(cls)
    shapes: dict[str, Check] = {}
    required: list[str] = []
    for f in dataclasses.fields(cls):
        shapes[f.name] = shape_of(hints[f.name])
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            required.append(f.name)
    return shapes, tuple(required)


_SCALARS: dict[Any, Check] = {str: string, int: integer, bool: boolean, float: number}


def shape_of(tp: Any) -> Check:
    """The :mod:`referee.shapes` check of a fact's declared type."""
    if tp is Any:
        return json_value
    if tp in _SCALARS:
        return _SCALARS[tp]
    if tp is type(None):
        return one_of(None)
    if is_typeddict(tp):
        return _record(tp)
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, types.UnionType):
        return _union(args)
    if origin is Literal:
        return one_of(*args)
    if origin in (list, Sequence) or (origin is tuple and len(args) == 2 and args[1] is ...):
        return list_of(shape_of(args[0]))
    if origin in (dict, Mapping) and args[0] is str:
        return map_of(shape_of(args[1]))
    raise TypeError(f"a fact cannot be declared with type {tp!r}")


def _union(args: tuple[Any, ...]) -> Check:
    rest = [a for a in args if a is not type(None)]
    one = shape_of(rest[0]) if len(rest) == 1 else _any_of([shape_of(a) for a in rest], rest)
    return nullable(one) if len(rest) < len(args) else one


def _any_of(shapes: list[Check], types_: list[Any]) -> Check:
    what = " or ".join(getattr(t, "__name__", str(t)) for t in types_)

    def _check(value: Any, path: str) -> None:
        for s in shapes:
            try:
                s(value, path)
            except ShapeError:
                continue
            return
        raise ShapeError(path, what, value)

    return _check


def _record(tp: Any) -> Check:
    """A TypedDict's check. Its keys are read from the hints themselves: with postponed
    annotations (``from __future__ import annotations``) Python 3.11 cannot see a
    ``NotRequired`` key in ``__optional_keys__``."""
    req: dict[str, Check] = {}
    opt: dict[str, Check] = {}
    for k, hint in sorted(get_type_hints(tp, include_extras=True).items()):
        marker = get_origin(hint)
        inner = get_args(hint)[0] if marker in (NotRequired, Required) else hint
        optional = marker is NotRequired or (marker is not Required and not tp.__total__)
        (opt if optional else req)[k] = shape_of(inner)
    return obj(req, opt, extra=False)
