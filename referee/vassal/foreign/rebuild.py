"""Build a VASSAL module from a source without a ruleset (``ruleset = "none"``, as
``referee import-vmod`` writes it; :mod:`referee.vassal.foreign.vassal_only` reads it).

Deterministic: the buildFile is written from the source's tables in their order, the
archive by :func:`referee.vassal.codec.safezip.build_zip` (sorted names, fixed times). Maps keep
VASSAL's own attributes, board picker and grid settings, so locations are named as in the
original module; board and piece images are copied as they are; each palette slot gets its
piece's VASSAL text with the roster's name, image and property columns applied (a property
whose value differs from what the piece's traits and prototypes give it goes into an
outermost Marker, which wins as in ``Decorator.getProperty``). The standard map helpers are
added (:func:`referee.vassal.module.buildfile.map_helpers`); dice buttons, chart windows and turn
trackers come from ``tools.toml`` (:mod:`referee.vassal.foreign.vmod_tools`); the original's other
module components are not carried (they are listed in the import report).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lxml import etree

from referee.source.diagnostics import Diagnostics
from referee.source.vassal_tools import SETTINGS
from referee.vassal.codec.commands import AddPiece, encode_command
from referee.vassal.codec.errors import VassalFormatError
from referee.vassal.codec.pieces import BasicPiece, Marker, Piece, UsePrototype
from referee.vassal.codec.safezip import build_zip, check_entry_name
from referee.vassal.codec.sequence import decode_sequence, encode_sequence
from referee.vassal.foreign.vassal_only import UnitRow, VassalOnlySource, load_vassal_only
from referee.vassal.foreign.vmod import VmodContents, decode_definition, piece_definitions
from referee.vassal.foreign.vmod_tools import add_tools
from referee.vassal.module.buildfile import VASSAL_VERSION, map_helpers, moduledata_xml, serialise

if TYPE_CHECKING:
    from referee.vassal.foreign.locations import ModuleLocations

__all__ = [
    "check_grids",
    "load_for_vassal",
    "piece_text",
    "rebuild_entries",
    "source_locations",
    "vmod_file_name",
    "write_rebuilt",
]

M = "VASSAL.build.module."
BOARD = M + "map.boardPicker.Board"
DEFAULT_SETTINGS: dict[str, dict[str, str]] = {
    "documentation": {},
    "global_options": {"autoReport": "Always"},
}
"""What a new module has where the source has none of its own (no roster: no sides)."""


def _add(parent: etree._Element | None, table: Mapping[str, Any]) -> etree._Element:
    """An element from a component table (``class``, ``attrs``, ``text``, ``children``)."""
    tag = str(table.get("class", ""))
    attrs = {str(k): str(v) for k, v in (table.get("attrs") or {}).items()}
    el = etree.Element(tag, attrs) if parent is None else etree.SubElement(parent, tag, attrs)
    if table.get("text"):
        el.text = str(table["text"])
    for child in table.get("children") or []:
        if isinstance(child, Mapping):
            _add(el, child)
    return el


def _prototype_props(prototypes: list[tuple[str, str]]) -> dict[str, dict[str, str]]:
    """Prototype name -> the Marker properties it gives (nested prototypes folded)."""
    pieces: dict[str, Piece] = {}
    for name, text in prototypes:
        try:
            pieces[name] = decode_definition(text, f"prototype {name}")
        except VassalFormatError:
            continue
    done: dict[str, dict[str, str]] = {}

    def fold(name: str, seen: tuple[str, ...]) -> dict[str, str]:
        if name in done:
            return done[name]
        props: dict[str, str] = {}
        piece = pieces.get(name)
        if piece is None or name in seen:
            return props
        for t in piece.traits[:-1]:
            if isinstance(t, Marker):
                for k, v in t.properties.items():
                    props.setdefault(k, v)
            elif isinstance(t, UsePrototype):
                for k, v in fold(t.name, (*seen, name)).items():
                    props.setdefault(k, v)
        done[name] = props
        return props

    for name in pieces:
        fold(name, ())
    return done


def piece_text(unit: UnitRow, protos: Mapping[str, Mapping[str, str]]) -> str:
    """The PieceSlot text for ``unit``: its VASSAL text, kept byte for byte when the roster
    says what the text says, else re-encoded with the roster's name, image and properties."""
    piece = decode_definition(unit.traits, unit.id)
    basic = piece.basic_piece
    assert basic is not None  # checked by the loader
    changed = False
    traits = list(piece.traits)
    image = unit.image[len("images/") :] if unit.image else basic.image
    if (basic.name, basic.image) != (unit.name, image):
        fields = decode_sequence(basic.type[len(BasicPiece.ID) :], ";")
        fields += [""] * (4 - len(fields))
        fields[2], fields[3] = image, unit.name
        traits[-1] = BasicPiece(BasicPiece.ID + (encode_sequence(fields, ";") or ""), basic.state)
        changed = True
    have: dict[str, str] = {}
    owner: dict[str, int] = {}
    for index, t in enumerate(traits[:-1]):
        if isinstance(t, Marker):
            for k, v in t.properties.items():
                if k not in have:
                    have[k], owner[k] = v, index
        elif isinstance(t, UsePrototype):
            for k, v in protos.get(t.name, {}).items():
                have.setdefault(k, v)
    extra: dict[str, str] = {}
    for key, value in unit.properties.items():
        if have.get(key) == value:
            continue
        if key in owner:
            marker = traits[owner[key]]
            assert isinstance(marker, Marker)
            traits[owner[key]] = marker.with_values({key: value})
        else:
            extra[key] = value
        changed = True
    if extra:
        traits.insert(0, Marker.build(extra))
    if not changed:
        return unit.traits
    new = Piece(tuple(traits))
    return encode_command(AddPiece(None, new.type, new.state))


def _module_tree(src: VassalOnlySource) -> etree._Element:
    attrs = dict(src.vassal_attrs)
    attrs.update({"name": src.name, "version": src.version, "description": src.description})
    attrs.setdefault("VassalVersion", VASSAL_VERSION)
    root = etree.Element("VASSAL.build.GameModule", dict(sorted(attrs.items())))
    protos = _prototype_props(src.prototypes)
    texts = {u.id: piece_text(u, protos) for u in src.units}
    _settings(root, src)
    for component in src.components:  # Game Piece Image definitions, before the pieces
        _add(root, component)
    for m in src.maps:
        map_el = etree.SubElement(root, str(m["class"]), {k: str(v) for k, v in m["attrs"].items()})
        picker = _add(map_el, m.get("picker") or {"class": M + "map.BoardPicker"})
        for b in m.get("board", []) or []:
            battrs = {k: str(v) for k, v in (b.get("attrs") or {}).items()}
            battrs["name"] = str(b.get("name", ""))
            if b.get("image"):
                battrs["image"] = str(b["image"])[len("boards/") :]
            board = etree.SubElement(picker, BOARD, dict(sorted(battrs.items())))
            if isinstance(b.get("grid"), Mapping):
                _add(board, b["grid"])
        components = m.get("components")
        if isinstance(components, list) and components:
            for c in components:
                if isinstance(c, Mapping):
                    _add(map_el, _with_slot_texts(c, texts))
        else:
            map_helpers(map_el, "0.25,0.33,0.5,0.67,0.75,1.0,1.5", "6")
    for w in src.windows:
        _add(root, _with_slot_texts(w, texts))
    container = etree.SubElement(root, M + "PrototypesContainer")
    for name, text in src.prototypes:
        etree.SubElement(container, M + "PrototypeDefinition", {"name": name}).text = text
    add_tools(root, src.tools, [k for k in src.tools if k not in SETTINGS])
    for title, data, file in src.scenarios:
        attrs = {"file": file, "isMenu": "false", "name": title, "useFile": "true"}
        if data is None:  # a blank game: VASSAL loads a file only with useFile and a file
            attrs = {"isMenu": "false", "name": title, "useFile": "false"}
        etree.SubElement(root, M + "PredefinedSetup", attrs)
    return root


def _settings(root: etree._Element, src: VassalOnlySource) -> None:
    """The components every module has: the module's own documentation, roster and global
    options where the source has them, a new module's defaults where it does not."""
    etree.SubElement(root, M + "BasicCommandEncoder")
    for key in ("documentation", "roster", "global_options"):
        if src.tools.get(key):
            add_tools(root, src.tools, (key,))
        elif key in DEFAULT_SETTINGS:
            etree.SubElement(root, SETTINGS[key].tag, DEFAULT_SETTINGS[key])
    for part in ("Chatter", "KeyNamer"):
        etree.SubElement(root, M + part)


def _with_slot_texts(table: Mapping[str, Any], texts: Mapping[str, str]) -> dict[str, Any]:
    out = dict(table)
    if "unit" in table:
        out["text"] = texts[str(table["unit"])]
    out["children"] = [_with_slot_texts(c, texts) for c in table.get("children") or []]
    return out


def rebuild_entries(src: VassalOnlySource) -> dict[str, bytes]:
    """Every archive entry of the rebuilt module."""
    root = _module_tree(src)
    entries: dict[str, bytes] = {
        "buildFile.xml": serialise(root),
        "moduledata": moduledata_xml(src.name, src.version, src.description),
    }
    entries.update(src.images)
    entries.update(src.files)
    for title, data, file in src.scenarios:
        if data is None:
            continue
        why = check_entry_name(file)
        if why is not None or file in entries:
            raise VassalFormatError(title, f"set-up file name refused: {why or 'used twice'}")
        entries[file] = data
    return entries


def check_grids(src: VassalOnlySource) -> str | None:
    """Why the maps cannot be read as VASSAL would (an unknown grid kind, named), or None."""
    from referee.vassal.foreign.locations import module_locations

    root = _module_tree(src)
    try:
        module_locations(VmodContents(dict(src.images), root, None, []), "maps.toml")
        piece_definitions(root, "palette.toml")
    except VassalFormatError as exc:
        return str(exc)
    return None


def source_locations(src: VassalOnlySource) -> ModuleLocations:
    """The maps of a checked source read as VASSAL reads them (:func:`check_grids` has
    refused a grid kind referee cannot read), for naming its points."""
    from referee.vassal.foreign.locations import module_locations

    return module_locations(
        VmodContents(dict(src.images), _module_tree(src), None, []), "maps.toml"
    )


def load_for_vassal(root: Path) -> tuple[VassalOnlySource | None, Diagnostics]:
    """:func:`load_vassal_only`, then the grids read as VASSAL reads them (a grid kind
    referee cannot read is named, in ``maps.toml``)."""
    source, diags = load_vassal_only(root)
    if source is not None:
        problem = check_grids(source)
        if problem:
            diags.error("maps.toml", None, problem)
            return None, diags
    return source, diags


def vmod_file_name(src: VassalOnlySource) -> str:
    return f"{src.id}-{src.version}.vmod"


def write_rebuilt(src: VassalOnlySource, out_dir: Path) -> tuple[Path, int]:
    """Write ``out_dir/<id>-<version>.vmod`` atomically; returns the path and its size."""
    from referee.safeio import write_bytes_atomic

    data = build_zip(rebuild_entries(src))
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / vmod_file_name(src)
    write_bytes_atomic(path, data)
    return path, len(data)
