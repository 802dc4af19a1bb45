"""``import-vmod``: a module source from an existing VASSAL module (issue 19 §3).

Pure: :func:`import_module` turns a module already read safely (:func:`referee.vassal.foreign.vmod.
read_vmod`, which goes through ``safezip`` and ``xmlsafe``) into the files of a module source
(name -> bytes) and a report of everything the source cannot express. The command
(:mod:`referee.commands.import_vmod`) writes them; nothing here touches the disk.

What is carried over (docs/vassal.md, "import-vmod"):

* every map, its boards with their images copied to ``boards/`` and their grids with every
  setting exactly as VASSAL had them (element kind and attributes, zones and numbering nested),
  so hex ids are the module's own;
* every PieceSlot as one roster row: name, the palette path it sits in, its image (copied to
  ``images/``) and one column per Marker property, with the Markers of prototypes that hold
  nothing but properties folded in (``Decorator.getProperty``: the outermost definition wins);
* every predefined set-up whose save is in the archive as a scenario: each piece's map,
  location name (as VASSAL names it, :mod:`referee.vassal.foreign.locations`) and point; a set-up
  without a file as a blank scenario (VASSAL starts a blank game for it);
* dice buttons, special dice, chart windows (charts as images) and turn trackers into
  ``tools.toml`` (:mod:`referee.vassal.foreign.vmod_tools`); Game Piece Image definitions
  verbatim into ``piece_images.toml``.

Everything else (other traits, prototypes with behaviour, layer images, other module
components such as toolbar menus or action buttons, missing images, set-up menus, set-ups
whose save is not in the archive) is a report item.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from lxml import etree

from referee.vassal.codec.errors import VassalFormatError
from referee.vassal.codec.pieces import BasicPiece, Marker, Piece, UsePrototype
from referee.vassal.codec.safezip import check_entry_name
from referee.vassal.codec.savefile import read_save_bytes
from referee.vassal.foreign.locations import ModuleLocations, module_locations
from referee.vassal.foreign.movelist import read_log
from referee.vassal.foreign.vmod import PieceDefinition, VmodContents
from referee.vassal.foreign.vmod_import_art import import_art
from referee.vassal.foreign.vmod_tools import TOOL_TAGS, read_tools

__all__ = ["Imported", "ReportItem", "import_module", "toml_value", "tools_summary"]

MAP_TAGS = ("VASSAL.build.module.Map", "VASSAL.build.module.PrivateMap")
BOARD = "VASSAL.build.module.map.boardPicker.Board"
SETUP = "VASSAL.build.module.PredefinedSetup"
PIECE_WINDOW = "VASSAL.build.module.PieceWindow"
PIECE_IMAGES = "VASSAL.build.module.gamepieceimage.GamePieceImageDefinitions"
CARRIED = (
    PIECE_IMAGES,
    *MAP_TAGS,
    PIECE_WINDOW,
    SETUP,
    "VASSAL.build.module.PrototypesContainer",
    *TOOL_TAGS,
)
_GRID_TAGS = (
    "HexGrid",
    "SquareGrid",
    "RegionGrid",
    "ZonedGrid",
)
FIXED_COLUMNS = ("id", "name", "palette", "image", "prototypes", "traits")
BUILT = frozenset(
    f"VASSAL.build.module.{c}" for c in ("BasicCommandEncoder", "Chatter", "KeyNamer")
)
REPORT_TXT = "import-report.txt"
REPORT_JSON = "import-report.json"


@dataclass(frozen=True, slots=True)
class ReportItem:
    """One thing of the module the source does not carry: where it is and what it is."""

    where: str
    what: str

    def to_json(self) -> dict[str, str]:
        return {"where": self.where, "what": self.what}


@dataclass
class Imported:
    """The files of the new module source and the report of what was not carried over."""

    files: dict[str, bytes] = field(default_factory=dict)
    report: list[ReportItem] = field(default_factory=list)
    units: int = 0
    maps: int = 0
    scenarios: int = 0
    tools: dict[str, int] = field(default_factory=dict)  # tools.toml array -> how many
    files_carried: int = 0  # other archive entries (help, translations) under files/

    def note(self, where: str, what: str) -> None:
        self.report.append(ReportItem(where, what))


def toml_value(value: object) -> str:
    """A TOML value: strings as basic strings (JSON escapes are valid TOML), integers,
    booleans, lists and inline tables (dict)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=True)
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML for {type(value).__name__}")


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key, ensure_ascii=True)


def _path(el: etree._Element) -> str:
    """A stable key for an element (lxml proxies, and so their ``id``, do not last)."""
    return str(el.getroottree().getpath(el))


def _short(tag: str) -> str:
    return tag.rsplit(".", 1)[-1]


def element_table(
    el: etree._Element, skip: tuple[str, ...] = (), slots: Mapping[str, str] | None = None
) -> dict[str, object]:
    """A component as VASSAL had it: its ``class`` (the element's tag), every attribute as
    text, its text and ``children``; ``skip`` leaves out children of those classes, and a
    PieceSlot named in ``slots`` (element path -> unit id) keeps its attributes and names its
    roster ``unit`` instead of carrying its definition text."""
    table: dict[str, object] = {"class": str(el.tag)}
    table["attrs"] = {str(k): str(v) for k, v in sorted(el.attrib.items())}
    if slots is not None and _path(el) in slots:
        table["unit"] = slots[_path(el)]
        return table
    text = (el.text or "").strip()
    if text:
        table["text"] = text
    kids = [
        element_table(c, skip, slots) for c in el if isinstance(c.tag, str) and c.tag not in skip
    ]
    if kids:
        table["children"] = kids
    return table


def slug(text: str) -> str:
    """A file- and id-safe form of a name (lower case, ``-`` between words)."""
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return s or "x"


def _safe_image(name: str, where: str) -> str:
    """A board or piece image name; one that climbs out or is absolute is refused."""
    why = check_entry_name(name) or check_entry_name("images/" + name)
    if why is not None:
        raise VassalFormatError(where, f"image name refused: {why}")
    return name


def _images(vmod: VmodContents, boards: set[str], out: Imported, source: str) -> None:
    """Copy every image of the archive: board images to ``boards/``, the rest to
    ``images/`` (layer and prototype images are named inside the traits, so all are kept)."""
    for entry in sorted(vmod.entries):
        if not entry.startswith("images/") or entry.endswith("/"):
            continue
        name = _safe_image(entry[len("images/") :], f"{source}!{entry}")
        folder = "boards" if name in boards else "images"
        out.files[f"{folder}/{name}"] = vmod.entries[entry]


KEPT_BY_BUILD = frozenset({"buildFile", "buildFile.xml", "moduledata"})


def _other_files(vmod: VmodContents, saves: set[str], out: Imported, source: str) -> int:
    """Copy every entry of the archive that is neither the buildFile, the module data, an
    image nor a set-up save to ``files/`` under its own name: the help pages and About
    screen the documentation names, translations (``.properties``), sounds. ``build``
    writes them back. Returns how many."""
    n = 0
    for entry in sorted(vmod.entries):
        if entry in KEPT_BY_BUILD or entry in saves or entry.endswith("/"):
            continue
        if entry.startswith("images/"):
            continue
        why = check_entry_name(entry)
        if why is not None:
            raise VassalFormatError(f"{source}!{entry}", f"file name refused: {why}")
        out.files[f"files/{entry}"] = vmod.entries[entry]
        n += 1
    return n


def _palette_paths(root: etree._Element) -> dict[str, str]:
    """Each PieceSlot element (by id) -> the palette path above it (``Pieces/Territory``)."""
    paths: dict[str, str] = {}
    for window in root.iter(PIECE_WINDOW):
        top = window.get("name") or window.get("text") or ""
        for slot in window.iter("VASSAL.build.widget.PieceSlot"):
            names = [
                a.get("entryName") or a.get("name") or ""
                for a in slot.iterancestors()
                if str(a.tag).startswith("VASSAL.build.widget.")
            ]
            parts = [top, *reversed(names)]
            paths[_path(slot)] = "/".join(p for p in parts if p)
    return paths


def _prototype_properties(
    definitions: Iterable[PieceDefinition], out: Imported
) -> dict[str, dict[str, str]]:
    """Prototype name -> the Marker properties it gives a piece (prototypes it uses folded
    in, outermost first wins). A prototype with other traits is reported: those are kept as
    VASSAL text in ``prototypes.toml``, not as roster columns."""
    protos = {d.name: d for d in definitions if d.kind == "prototype"}
    result: dict[str, dict[str, str]] = {}

    def fold(name: str, seen: tuple[str, ...]) -> dict[str, str]:
        if name in result:
            return result[name]
        props: dict[str, str] = {}
        d = protos.get(name)
        if d is None or name in seen:
            return props
        for trait in d.piece.traits[:-1]:
            if isinstance(trait, Marker):
                for k, v in trait.properties.items():
                    props.setdefault(k, v)
            elif isinstance(trait, UsePrototype):
                for k, v in fold(trait.name, (*seen, name)).items():
                    props.setdefault(k, v)
        result[name] = props
        return props

    for name, d in protos.items():
        fold(name, ())
        other = [
            t.prefix.rstrip(";")
            for t in d.piece.traits[:-1]
            if not isinstance(t, Marker | UsePrototype)
        ]
        if other:
            out.note(
                f"prototype {name!r}",
                "traits kept as VASSAL text in prototypes.toml, not roster columns: "
                + ", ".join(sorted(set(other))),
            )
    return result


def _roster(vmod: VmodContents, out: Imported) -> dict[str, str]:
    """``units.csv`` and ``pieces/<id>.txt``; returns PieceSlot element id -> unit id."""
    protos = _prototype_properties(vmod.definitions, out)
    paths = _palette_paths(vmod.buildfile)
    slots = list(vmod.buildfile.iter("VASSAL.build.widget.PieceSlot"))
    defs = [d for d in vmod.definitions if d.kind == "slot"]
    rows: list[dict[str, str]] = []
    columns: list[str] = []
    by_element: dict[str, str] = {}
    for el, d in zip(slots, defs, strict=True):
        where = f"piece slot {d.name!r} (line {el.sourceline})"
        uid = base = slug(d.name)
        n = 2
        while f"pieces/{uid}.txt" in out.files:
            uid, n = f"{base}-{n}", n + 1
        by_element[_path(el)] = uid
        out.files[f"pieces/{uid}.txt"] = (d.text + "\n").encode("utf-8")
        props, used, other = _slot_properties(d.piece, protos)
        if other:
            out.note(
                where,
                "traits kept as VASSAL text in pieces/"
                + uid
                + ".txt, not roster columns: "
                + ", ".join(sorted(set(other))),
            )
        basic = d.piece.basic_piece
        image = ""
        if basic is not None and basic.image:
            _safe_image(basic.image, where)
            image = "images/" + basic.image
            if "images/" + basic.image not in vmod.entries:
                out.note(where, f"image {basic.image!r} is not in the archive")
        for k in props:
            if k not in columns:
                columns.append(k)
        row = {
            "id": uid,
            "name": basic.name if basic is not None else "",
            "palette": paths.get(_path(el), ""),
            "image": image,
            "prototypes": ";".join(used),
            "traits": f"pieces/{uid}.txt",
        }
        row.update({f"prop:{k}": v for k, v in props.items()})
        rows.append(row)
    buf = io.StringIO()
    header = [*FIXED_COLUMNS, *(f"prop:{c}" for c in columns)]
    writer = csv.DictWriter(buf, header, lineterminator="\n", restval="")
    writer.writeheader()
    writer.writerows(rows)
    out.files["units.csv"] = buf.getvalue().encode("utf-8")
    out.units = len(rows)
    return by_element


def _slot_properties(
    piece: Piece, protos: Mapping[str, dict[str, str]]
) -> tuple[dict[str, str], list[str], list[str]]:
    """Marker properties of a slot with simple prototypes folded in (outermost first wins),
    the prototypes used, and the kinds of trait the roster cannot express."""
    props: dict[str, str] = {}
    used: list[str] = []
    other: list[str] = []
    for trait in piece.traits[:-1]:
        if isinstance(trait, Marker):
            for k, v in trait.properties.items():
                props.setdefault(k, v)
        elif isinstance(trait, UsePrototype):
            used.append(trait.name)
            for k, v in protos.get(trait.name, {}).items():
                props.setdefault(k, v)
        else:
            other.append(trait.prefix.rstrip(";"))
    if not isinstance(piece.basic, BasicPiece):
        other.append("basic " + piece.basic.prefix.rstrip(";"))
    return props, used, other


def _maps(vmod: VmodContents, slots: Mapping[str, str], out: Imported) -> set[str]:
    """``maps.toml``: every map with its attributes, board picker, boards (image, attributes,
    grid as VASSAL had them) and its other components as VASSAL had them (at-start stacks
    and decks included; their PieceSlots name roster units). Returns the board images."""
    lines = ["# Maps, boards and grids imported from a VASSAL module: settings are VASSAL's.", ""]
    images: set[str] = set()
    for m in vmod.buildfile.iter(*MAP_TAGS):
        name = m.get("mapName", "")
        lines += [
            "[[map]]",
            f"name = {toml_value(name)}",
            f"class = {toml_value(str(m.tag))}",
            f"attrs = {toml_value(dict(sorted(m.attrib.items())))}",
        ]
        picker = m.find("VASSAL.build.module.map.BoardPicker")
        if picker is not None:
            lines.append(f"picker = {toml_value(element_table(picker, skip=(BOARD,)))}")
        at = len(lines)
        lines.append("")
        for b in m.iter(BOARD):
            where = f"map {name!r} board {b.get('name', '')!r}"
            lines += ["[[map.board]]", f"name = {toml_value(b.get('name', ''))}"]
            image = b.get("image", "")
            if image:
                images.add(_safe_image(image, where))
                lines.append(f"image = {toml_value('boards/' + image)}")
                if "images/" + image not in vmod.entries:
                    out.note(where, f"board image {image!r} is not in the archive")
            attrs = {k: v for k, v in sorted(b.attrib.items()) if k != "image"}
            lines.append(f"attrs = {toml_value(attrs)}")
            grids = [c for c in b if isinstance(c.tag, str) and _short(c.tag) in _GRID_TAGS]
            if grids:
                lines.append(f"grid = {toml_value(element_table(grids[0]))}")
            lines.append("")
        kept = [
            element_table(c, slots=slots)
            for c in m
            if isinstance(c.tag, str) and c.tag != "VASSAL.build.module.map.BoardPicker"
        ]
        if kept:
            lines.insert(at, f"components = {toml_value(kept)}")
        for card in m.iter("VASSAL.build.widget.CardSlot"):
            out.note(
                f"map {name!r} card {card.get('entryName', '')!r}",
                "a deck's card, kept as VASSAL text in maps.toml (not a roster row)",
            )
        out.maps += 1
    out.files["maps.toml"] = "\n".join(lines).encode("utf-8")
    return images


def _palette(vmod: VmodContents, slots: Mapping[str, str], out: Imported) -> None:
    """``palette.toml``: every piece window and its widgets (tabs, panels, lists, boxes) as
    VASSAL had them, each PieceSlot naming its roster unit."""
    lines = ["# The piece palette of the VASSAL module: widgets as VASSAL had them.", ""]
    for w in vmod.buildfile.iter(PIECE_WINDOW):
        lines += ["[[window]]", f"component = {toml_value(element_table(w, slots=slots))}", ""]
    out.files["palette.toml"] = "\n".join(lines).encode("utf-8")


def _prototypes(vmod: VmodContents, out: Imported) -> None:
    """``prototypes.toml``: every prototype definition, its VASSAL text verbatim."""
    lines = ["# Prototype definitions of the VASSAL module, verbatim.", ""]
    for d in vmod.definitions:
        if d.kind == "prototype":
            lines += [
                "[[prototype]]",
                f"name = {toml_value(d.name)}",
                f"text = {toml_value(d.text)}",
                "",
            ]
    out.files["prototypes.toml"] = "\n".join(lines).encode("utf-8")


def _scenarios(vmod: VmodContents, locations: ModuleLocations, out: Imported) -> list[str]:
    """One scenario TOML per predefined set-up whose save file is in the archive: every
    piece with its map, location name and point."""
    names: list[str] = []
    for el in vmod.buildfile.iter(SETUP):
        if el.get("isMenu") == "true":
            continue
        title = el.get("name", "")
        where = f"set-up {title!r}"
        file = el.get("file", "")
        if el.get("useFile") == "false" or not file:
            # PredefinedSetup.launch loads a file only when useFile is set and a file is
            # named; otherwise the entry starts a blank game
            names.append(_blank_scenario(title, out))
            continue
        why = check_entry_name(file)
        if why is not None:
            out.note(where, f"not carried over: {why}")
            continue
        data = vmod.entries.get(file)
        if data is None:
            out.note(where, f"its save {file!r} is not in the archive (not carried over)")
            continue
        save = read_save_bytes(data, f"{where}!{file}")
        reading = read_log(save.commands, locations)
        sid = slug(title)
        path = f"scenarios/{sid}.toml"
        n = 2
        while path in out.files:
            path, n = f"scenarios/{sid}-{n}.toml", n + 1
        lines = [
            "[scenario]",
            f"name = {toml_value(title)}",
            f"file = {toml_value(file)}",
            "",
        ]
        for p in reading.start:
            lines += [
                "[[piece]]",
                f"name = {toml_value(p.name)}",
                f"map = {toml_value(p.map or '')}",
                f"location = {toml_value(p.location)}",
                f"x = {p.x}",
                f"y = {p.y}",
                "",
            ]
        out.files[path] = "\n".join(lines).encode("utf-8")
        out.files[f"scenarios/{sid}.vsav"] = data
        names.append(path)
    return names


def _tools(vmod: VmodContents, out: Imported) -> None:
    """``tools.toml``: dice buttons, special dice, chart windows (their images are copied
    with every other image) and turn trackers (:mod:`referee.vassal.foreign.vmod_tools`)."""
    tools = read_tools(vmod.buildfile, vmod.entries, out.note)
    lines = [
        "# Dice buttons, chart windows and turn trackers of the VASSAL module; `attrs` are",
        "# VASSAL's other settings of each, as they were (docs/module-source.md).",
        "",
    ]
    for key, items in tools.items():
        out.tools[key] = len(items)
        for item in items:
            lines.append(f"[[{key}]]")
            lines += _table_lines(item)
            lines.append("")
    out.files["tools.toml"] = "\n".join(lines).encode("utf-8")


def _piece_images(vmod: VmodContents, out: Imported) -> bool:
    """``piece_images.toml``: the module's Game Piece Image definitions (colours, fonts,
    layouts, images) as VASSAL had them, so the rebuilt module has the same components.
    False when the module has none with content."""
    found = [el for el in vmod.buildfile if el.tag == PIECE_IMAGES and len(el)]
    if not found:
        return False
    lines = ["# Game Piece Image definitions of the VASSAL module, as VASSAL had them.", ""]
    for el in found:
        lines += ["[[component]]", *_table_lines(element_table(el)), ""]
    out.files["piece_images.toml"] = "\n".join(lines).encode("utf-8")
    return True


def _table_lines(table: Mapping[str, object]) -> list[str]:
    return [f"{_key(k)} = {toml_value(v)}" for k, v in table.items()]


def _blank_scenario(title: str, out: Imported) -> str:
    """A scenario that starts a blank game (a set-up without a file, as VASSAL runs it)."""
    sid = slug(title)
    path = f"scenarios/{sid}.toml"
    n = 2
    while path in out.files:
        path, n = f"scenarios/{sid}-{n}.toml", n + 1
    lines = [
        "# A New Game entry that starts a blank game (no set-up file), as in the module.",
        "[scenario]",
        f"name = {toml_value(title)}",
        "blank = true",
        "",
    ]
    out.files[path] = "\n".join(lines).encode("utf-8")
    return path


def _components(vmod: VmodContents, out: Imported) -> None:
    for el in vmod.buildfile:
        if isinstance(el.tag, str) and el.tag not in CARRIED:
            label = el.get("name") or el.get("text") or el.get("buttonText") or ""
            what = "not carried over"
            if el.tag in BUILT:
                what = "not carried over: build writes its own (VASSAL's defaults)"
            out.note(f"module component {_short(el.tag)}" + (f" {label!r}" if label else ""), what)


def _sides(vmod: VmodContents) -> list[str]:
    """A ``[[side]]`` per entry of the module's player roster: the sides a game of the
    imported module is played by (``referee new``, docs/declared-games.md)."""
    entries = [
        (e.text or "").strip()
        for roster in vmod.buildfile.iter("VASSAL.build.module.PlayerRoster")
        for e in roster.iter("entry")
    ]
    names = list(dict.fromkeys(e for e in entries if e))
    if not names:
        return []
    folders = {
        el.get("entryName", "")
        for el in vmod.buildfile.iter()
        if isinstance(el.tag, str) and el.tag.startswith("VASSAL.build.widget.")
        and el.tag != "VASSAL.build.widget.PieceSlot"
    }  # fmt: skip
    prototypes = {
        el.get("name", "") for el in vmod.buildfile.iter("VASSAL.build.module.PrototypeDefinition")
    }
    lines = [
        "# The sides of the module's player roster, which play a game of it by email",
        "# (referee new); remove a side nobody plays (a solitaire entry). A side's pieces",
        "# (pieces, prototypes, palette): docs/declared-games.md, whose a piece is.",
    ]
    ids: set[str] = set()
    for name in names:
        sid = re.sub(r"[^A-Za-z0-9_.\-]+", "-", name).strip("-.") or "side"
        while sid in ids or not sid[0].isalnum():
            sid = f"side-{sid}"
        ids.add(sid)
        lines += ["[[side]]", f"id = {toml_value(sid)}", f"name = {toml_value(name)}"]
        if name in folders:  # a palette tab, panel or list of the side's name: its pieces
            lines.append(f"palette = {toml_value([name])}")
        if name in prototypes:
            lines.append(f"prototypes = {toml_value([name])}")
        lines.append("")
    return lines


def import_module(vmod: VmodContents, source: str) -> Imported:
    """The module source files for ``vmod`` (read from ``source``) and the report.

    Raises :class:`VassalFormatError` for a grid kind referee cannot read (named), an image
    name that climbs out of the archive, or a damaged set-up save.
    """
    locations = module_locations(vmod, source)  # refuses unknown grid kinds, by name
    out = Imported()
    slots = _roster(vmod, out)
    board_images = _maps(vmod, slots, out)
    _images(vmod, board_images, out, source)
    out.files.update(import_art(vmod, locations, source, out.files, out.note))
    _palette(vmod, slots, out)
    _prototypes(vmod, out)
    _tools(vmod, out)
    piece_images = _piece_images(vmod, out)
    scenarios = _scenarios(vmod, locations, out)
    out.scenarios = len(scenarios)
    saves = {el.get("file", "") for el in vmod.buildfile.iter(SETUP) if el.get("file")}
    out.files_carried = _other_files(vmod, saves, out, source)
    _components(vmod, out)
    name = locations.name or "Imported module"
    root = {k: v for k, v in sorted(vmod.buildfile.attrib.items())}
    lines = [
        "# Imported from a VASSAL module by `referee import-vmod`; see import-report.txt.",
        "[module]",
        f"id = {toml_value(slug(name).replace('-', '_'))}",
        f"name = {toml_value(name)}",
        f"version = {toml_value(locations.version or '0')}",
        'ruleset = "none"',
        f"description = {toml_value(root.get('description', ''))}",
        "",
        "[files]",
        'units = "units.csv"',
        'maps = "maps.toml"',
        'palette = "palette.toml"',
        'prototypes = "prototypes.toml"',
        'tools = "tools.toml"',
        *(['piece_images = "piece_images.toml"'] if piece_images else []),
        f"scenarios = {toml_value(scenarios)}",
        "",
        "[vassal]",
        f"attrs = {toml_value(root)}",
        "",
        *_sides(vmod),
    ]
    out.files["module.toml"] = "\n".join(lines).encode("utf-8")
    out.files[REPORT_JSON] = (json.dumps(report_json(out), indent=2) + "\n").encode("utf-8")
    out.files[REPORT_TXT] = report_text(out).encode("utf-8")
    return out


def report_json(out: Imported) -> dict[str, object]:
    return {
        "units": out.units,
        "maps": out.maps,
        "scenarios": out.scenarios,
        "tools": dict(out.tools),
        "files": out.files_carried,
        "not_carried_over": [r.to_json() for r in out.report],
    }


TOOL_LABELS = {
    "dice": "dice button(s)",
    "special_dice": "special dice button(s)",
    "chart_window": "chart window(s)",
    "turn_tracker": "turn tracker(s)",
    "roster": "player roster(s)",
    "global_options": "global options",
    "documentation": "documentation (help, About)",
    "action_button": "action button(s)",
    "toolbar_menu": "toolbar menu(s)",
    "notes": "notes window(s)",
    "global_properties": "global property set(s)",
    "language": "translation set(s)",
}


def tools_summary(counts: Mapping[str, int], *, zeros: bool = False) -> str:
    """``3 dice button(s), 1 chart window(s)``: what ``tools.toml`` holds."""
    return ", ".join(f"{n} {TOOL_LABELS[k]}" for k, n in counts.items() if n or zeros)


def report_text(out: Imported) -> str:
    tools = tools_summary(out.tools, zeros=True)
    head = (
        f"{out.units} unit(s), {out.maps} map(s), {out.scenarios} scenario(s) imported"
        + (f" (tools.toml: {tools})" if tools else "")
        + (f", {out.files_carried} other file(s) under files/" if out.files_carried else "")
        + "; "
        f"{len(out.report)} thing(s) not carried over:\n"
    )
    return head + "".join(f"  {r.where}: {r.what}\n" for r in out.report)
