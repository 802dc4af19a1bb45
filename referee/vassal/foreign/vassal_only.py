"""Module sources that name no rules engine (``ruleset = "none"``): a VASSAL module's own
maps, board images, pieces and palette, as ``referee import-vmod`` writes them.

Such a source is for building a VASSAL module, not for refereeing: it has no sides, no
combat values, no terrain table. Its files (docs/module-source.md, "Sources without a
ruleset"):

* ``module.toml``: ``[module]`` id, name, version, ``ruleset = "none"``, description;
  ``[files]`` units, maps, palette, prototypes, scenarios; ``[vassal] attrs`` (the
  module's own top-level settings);
* ``units.csv``: the roster: ``id, name, palette, image, prototypes, traits`` and one
  ``prop:NAME`` column per property the pieces have (free columns, whatever the module
  has); ``image`` is an image file of the source used as it is; ``traits`` names the
  piece's VASSAL definition text (``pieces/<id>.txt``);
* ``maps.toml``: each map with its board images (files of the source, not a drawn
  ``map.txt``) and grids with VASSAL's own settings;
* ``palette.toml``, ``prototypes.toml``; scenarios (a listing plus the VASSAL save);
* ``tools.toml`` (optional): dice buttons, chart windows, turn trackers
  (:mod:`referee.source.vassal_tools`); ``piece_images.toml`` (optional): the Game Piece
  Image definitions (colours, fonts, layouts, images), as VASSAL had them.

:func:`load_vassal_only` reads and checks one, reporting every problem as a diagnostic; the
existing loader (:mod:`referee.source.loader`) is not involved, so other sources load exactly
as before.
"""

from __future__ import annotations

import csv
import io
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.safeio import UnsafeInput, read_text, resolve_inside
from referee.source.diagnostics import Diagnostics
from referee.source.tomlpos import toml_error_position
from referee.source.vassal_tools import check_tools
from referee.vassal.codec.safezip import check_entry_name

__all__ = [
    "FIXED_COLUMNS",
    "NO_RULESET",
    "UnitRow",
    "VassalOnlySource",
    "is_vassal_only",
    "load_vassal_only",
]

NO_RULESET = "none"
FIXED_COLUMNS = ("id", "name", "palette", "image", "prototypes", "traits")
PROP = "prop:"
MAP_CLASSES = ("VASSAL.build.module.Map", "VASSAL.build.module.PrivateMap")
MAX_TRAITS_BYTES = 1_000_000


@dataclass(frozen=True)
class UnitRow:
    """One roster row: a palette piece."""

    id: str
    name: str
    palette: str
    image: str
    prototypes: tuple[str, ...]
    traits: str  # the VASSAL definition text (``+/null/type/state``)
    properties: dict[str, str]  # prop:NAME cells that are not empty
    line: int


@dataclass
class VassalOnlySource:
    """A checked source without a ruleset: plain data for :mod:`referee.vassal.foreign.rebuild`."""

    root: Path
    id: str
    name: str
    version: str
    description: str
    vassal_attrs: dict[str, str]
    units: list[UnitRow]
    columns: list[str]
    maps: list[dict[str, Any]]
    windows: list[dict[str, Any]]
    prototypes: list[tuple[str, str]]
    scenarios: list[tuple[str, bytes | None, str]]  # name, save bytes (None: blank), file
    images: dict[str, bytes] = field(default_factory=dict)  # images/NAME -> bytes
    tools: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # tools.toml
    components: list[dict[str, Any]] = field(default_factory=list)  # piece_images.toml
    files: dict[str, bytes] = field(default_factory=dict)  # files/NAME -> archive NAME

    @property
    def ruleset(self) -> str:
        return NO_RULESET


def is_vassal_only(folder: Path) -> bool:
    """Whether ``folder/module.toml`` says ``ruleset = "none"`` (read loosely: a broken file
    is left to the ordinary loader, which reports it)."""
    try:
        data = tomllib.loads((folder / "module.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    meta = data.get("module")
    return isinstance(meta, dict) and meta.get("ruleset") == NO_RULESET


def _toml(root: Path, name: str, diags: Diagnostics) -> dict[str, Any] | None:
    try:
        path = resolve_inside(root, name, what="file")
        text = read_text(path, display=name)
    except (UnsafeInput, OSError) as exc:
        diags.error(name, None, f"cannot read: {exc}")
        return None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line, col = toml_error_position(str(exc), text)
        diags.error(name, line, f"not valid TOML: {exc}", col=col)
        return None


def _str(table: Mapping[str, Any], key: str, file: str, where: str, diags: Diagnostics) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value:
        diags.error(file, None, f"{where}: {key} must be a non-empty string")
        return ""
    return value


def _file(root: Path, name: str, file: str, what: str, diags: Diagnostics) -> bytes | None:
    """The bytes of a file the source names, refusing names that climb out."""
    try:
        path = resolve_inside(root, name, what=what)
    except UnsafeInput as exc:
        diags.error(file, None, str(exc))
        return None
    if not path.is_file():
        diags.error(file, None, f"{what} {name!r} is not in the source")
        return None
    data = path.read_bytes()
    return data


def _roster(root: Path, name: str, diags: Diagnostics) -> tuple[list[UnitRow], list[str]]:
    """The roster CSV: a unit per row (id, name, palette, image, prototypes, its piece
    definition file) and the ``prop:NAME`` columns; each problem reported at its row."""
    try:
        text = read_text(resolve_inside(root, name, what="roster"), display=name)
    except (UnsafeInput, OSError) as exc:
        diags.error(name, None, f"cannot read: {exc}")
        return [], []
    reader = csv.reader(io.StringIO(text))
    header = next(reader, [])
    if tuple(header[: len(FIXED_COLUMNS)]) != FIXED_COLUMNS:
        diags.error(name, 1, f"the header must start with {', '.join(FIXED_COLUMNS)}")
        return [], []
    columns = []
    for col in header[len(FIXED_COLUMNS) :]:
        if not col.startswith(PROP) or len(col) == len(PROP):
            diags.error(name, 1, f"column {col!r}: property columns are named prop:NAME")
        columns.append(col[len(PROP) :])
    units: list[UnitRow] = []
    seen: set[str] = set()
    for line, cells in enumerate(reader, start=2):
        if not any(cells):
            continue
        if len(cells) != len(header):
            diags.error(name, line, f"{len(cells)} cells, the header has {len(header)}")
            continue
        row = dict(zip(header, cells, strict=True))
        uid = row["id"]
        if not uid or uid in seen:
            diags.error(name, line, f"unit id {uid!r} is empty or used twice")
            continue
        seen.add(uid)
        _check_row_image(root, name, line, row["image"], diags)
        traits = _row_traits(root, name, line, row["traits"], diags)
        if traits is None:
            continue
        props = {c: row[PROP + c] for c in columns if row[PROP + c] != ""}
        protos = tuple(p for p in row["prototypes"].split(";") if p)
        units.append(
            UnitRow(uid, row["name"], row["palette"], row["image"], protos, traits, props, line)
        )
    return units, columns


def _check_row_image(root: Path, name: str, line: int, image: str, diags: Diagnostics) -> None:
    """A unit's picture is a file under ``images/`` (a missing one is VASSAL's to report)."""
    if image and not image.startswith("images/"):
        diags.error(name, line, f"image {image!r} must be a file under images/")
    elif image:
        try:
            if not resolve_inside(root, image, what="image").is_file():
                diags.warning(
                    name, line, f"image {image!r} is not in the source (VASSAL will say so)"
                )
        except UnsafeInput as exc:
            diags.error(name, line, str(exc))


def _row_traits(root: Path, name: str, line: int, file: str, diags: Diagnostics) -> str | None:
    """The unit's piece definition, read within its bound and decoded: a chain of traits
    ending in a BasicPiece; ``None`` after a problem."""
    from referee.vassal.codec.errors import VassalFormatError
    from referee.vassal.foreign.vmod import decode_definition

    raw = _file(root, file, name, "piece definition", diags)
    if raw is None:
        return None
    if len(raw) > MAX_TRAITS_BYTES:
        diags.error(name, line, f"{file}: larger than {MAX_TRAITS_BYTES} bytes")
        return None
    traits = raw.decode("utf-8", errors="replace").strip()
    try:
        piece = decode_definition(traits, file)
    except VassalFormatError as exc:
        diags.error(file, 1, str(exc))
        return None
    if piece.basic_piece is None:
        diags.error(file, 1, "the innermost trait is not a BasicPiece (piece;)")
        return None
    return traits


def _slots(table: Any, found: list[str]) -> None:
    if isinstance(table, dict):
        if "unit" in table:
            found.append(str(table["unit"]))
        for child in table.get("children", []) or []:
            _slots(child, found)


def load_vassal_only(root: Path) -> tuple[VassalOnlySource | None, Diagnostics]:
    """Read and check a source without a ruleset; ``None`` when it has errors."""
    diags = Diagnostics(root=root)
    meta = _toml(root, "module.toml", diags)
    if meta is None:
        return None, diags
    mod = meta.get("module", {})
    files = meta.get("files", {})
    if not isinstance(mod, dict) or not isinstance(files, dict):
        diags.error("module.toml", None, "[module] and [files] must be tables")
        return None, diags
    mid = _str(mod, "id", "module.toml", "[module]", diags)
    name = _str(mod, "name", "module.toml", "[module]", diags)
    version = _str(mod, "version", "module.toml", "[module]", diags)
    names = {k: _str(files, k, "module.toml", "[files]", diags) for k in _FILE_KEYS}
    if diags.errors:
        return None, diags
    units, columns = _roster(root, names["units"], diags)
    maps_t = _toml(root, names["maps"], diags) or {}
    palette_t = _toml(root, names["palette"], diags) or {}
    protos_t = _toml(root, names["prototypes"], diags) or {}
    maps = [m for m in maps_t.get("map", []) if isinstance(m, dict)]
    images = _board_images(root, maps, names["maps"], diags)
    _unit_images(root, units, images)
    _more_images(root, images, diags)
    windows = [w.get("component") for w in palette_t.get("window", []) if isinstance(w, dict)]
    _check_units_used(units, windows, maps, names, diags)
    prototypes = _prototypes(protos_t, names["prototypes"], diags)
    scenarios = _scenarios(root, files.get("scenarios", []), diags)
    tools = _optional_tools(root, files, diags)
    components = _optional_piece_images(root, files, diags)
    other = _other_files(root, diags)
    if diags.errors:
        return None, diags
    source = VassalOnlySource(
        root,
        mid,
        name,
        version,
        str(mod.get("description", "")),
        {str(k): str(v) for k, v in (meta.get("vassal", {}).get("attrs", {}) or {}).items()},
        units,
        columns,
        maps,
        [w for w in windows if isinstance(w, dict)],
        prototypes,
        scenarios,
        images,
        tools,
        components,
        other,
    )
    return source, diags


def _board_images(
    root: Path, maps: list[dict[str, Any]], file: str, diags: Diagnostics
) -> dict[str, bytes]:
    """Each map's board pictures (files under ``boards/``), by their name in the module; a
    map needs its class and attributes."""
    images: dict[str, bytes] = {}
    for m in maps:
        if m.get("class") not in MAP_CLASSES or not isinstance(m.get("attrs"), dict):
            diags.error(file, None, f"map {m.get('name')!r}: class and attrs needed")
        for b in m.get("board", []) or []:
            image = b.get("image", "")
            if not image:
                continue
            if not isinstance(image, str) or not image.startswith("boards/"):
                diags.error(file, None, f"board image {image!r}: must be under boards/")
                continue
            try:
                path = resolve_inside(root, image, what="board image")
            except UnsafeInput as exc:
                diags.error(file, None, str(exc))
                continue
            if path.is_file():
                images["images/" + image[len("boards/") :]] = path.read_bytes()
            else:
                diags.warning(
                    file,
                    None,
                    f"board image {image!r} is not in the source: VASSAL sees a board of "
                    "0 x 0 pixels (as in the original module)",
                )
    return images


def _unit_images(root: Path, units: list[UnitRow], images: dict[str, bytes]) -> None:
    """The units' pictures that are in the source (the roster reported the others)."""
    for u in units:
        if u.image:
            try:
                path = resolve_inside(root, u.image, what="image")
            except UnsafeInput:
                continue
            if path.is_file():
                images[u.image] = path.read_bytes()


def _check_units_used(
    units: list[UnitRow],
    windows: list[Any],
    maps: list[dict[str, Any]],
    names: dict[str, str],
    diags: Diagnostics,
) -> None:
    """Every unit a palette window or map stack names is in the roster; a roster unit none
    names is worth a warning."""
    ids = {u.id for u in units}
    used: list[str] = []
    for w in windows:
        _slots(w, used)
    for m in maps:
        for c in m.get("components", []) or []:
            _slots(c, used)
    for uid in used:
        if uid not in ids:
            diags.error(
                names["palette"], None, f"palette or map names unit {uid!r}, not in the roster"
            )
    for u in units:
        if u.id not in used:
            diags.warning(
                names["units"], u.line, f"unit {u.id!r} is in no palette window or map stack"
            )


def _prototypes(data: dict[str, Any], file: str, diags: Diagnostics) -> list[tuple[str, str]]:
    """The ``[[prototype]]`` definitions: a name and a text each."""
    out: list[tuple[str, str]] = []
    for p in data.get("prototype", []):
        if (
            isinstance(p, dict)
            and isinstance(p.get("name"), str)
            and isinstance(p.get("text"), str)
        ):
            out.append((p["name"], p["text"]))
        else:
            diags.error(file, None, "each [[prototype]] needs name and text")
    return out


def _optional_tools(
    root: Path, files: dict[str, Any], diags: Diagnostics
) -> dict[str, list[dict[str, Any]]]:
    """``tools.toml`` if the source names one (sources written before it existed load as
    before)."""
    if "tools" not in files:
        return {}
    tools_name = _str(files, "tools", "module.toml", "[files]", diags)
    tools_t = _toml(root, tools_name, diags) if tools_name else None
    return check_tools(tools_t, tools_name, root, diags) if tools_t is not None else {}


def _optional_piece_images(
    root: Path, files: dict[str, Any], diags: Diagnostics
) -> list[dict[str, Any]]:
    """The Game Piece Image definitions, verbatim, if the source names a file of them."""
    if "piece_images" not in files:
        return []
    images_name = _str(files, "piece_images", "module.toml", "[files]", diags)
    images_t = _toml(root, images_name, diags) if images_name else None
    return _piece_image_components(images_t, images_name, diags) if images_t is not None else []


PIECE_IMAGES = "VASSAL.build.module.gamepieceimage.GamePieceImageDefinitions"


def _element_ok(table: Any, path: str, file: str, diags: Diagnostics) -> bool:
    """A component as VASSAL had it: ``class``, ``attrs`` (strings), optional ``text`` and
    ``children`` (the same, nested)."""
    if not isinstance(table, dict) or not isinstance(table.get("class"), str):
        diags.error(file, None, f"{path}: expected a table with a class")
        return False
    attrs = table.get("attrs", {})
    if not isinstance(attrs, dict) or not all(isinstance(v, str) for v in attrs.values()):
        diags.error(file, None, f"{path}.attrs: expected a table of strings")
        return False
    kids = table.get("children", [])
    if not isinstance(kids, list):
        diags.error(file, None, f"{path}.children: expected a list")
        return False
    return all(_element_ok(k, f"{path}.children[{i}]", file, diags) for i, k in enumerate(kids))


def _piece_image_components(data: dict[str, Any], file: str, diags: Diagnostics) -> list[Any]:
    out = []
    items = data.get("component", [])
    for i, item in enumerate(items if isinstance(items, list) else [None]):
        path = f"component[{i}]"
        if _element_ok(item, path, file, diags):
            if item["class"] != PIECE_IMAGES:
                diags.error(file, None, f"{path}.class: expected {PIECE_IMAGES}")
            else:
                out.append(item)
    return out


_FILE_KEYS = ("units", "maps", "palette", "prototypes")


def _more_images(root: Path, images: dict[str, bytes], diags: Diagnostics) -> None:
    """Every file under ``images/`` (layer images are named inside the piece texts)."""
    folder = root / "images"
    if not folder.is_dir():
        return
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            diags.error(diags.rel(path), None, "a symbolic link; images must be plain files")
        elif path.is_file():
            images["images/" + path.relative_to(folder).as_posix()] = path.read_bytes()


RESERVED = frozenset({"buildFile", "buildFile.xml", "moduledata"})
MAX_FILES_BYTES = 200_000_000  # all of files/ together; a module's help and translations


def _other_files(root: Path, diags: Diagnostics) -> dict[str, bytes]:
    """Every file under ``files/``, by the archive name it has in the module (``files/help/
    index.html`` -> ``help/index.html``): help pages, translations, sounds, whatever the
    module's components name besides images. ``build`` writes them back as they are."""
    folder = root / "files"
    out: dict[str, bytes] = {}
    if not folder.is_dir():
        return out
    total = 0
    for path in sorted(folder.rglob("*")):
        rel = diags.rel(path)
        if path.is_symlink():
            diags.error(rel, None, "a symbolic link; the module's files must be plain files")
            continue
        if not path.is_file():
            continue
        name = path.relative_to(folder).as_posix()
        why = check_entry_name(name)
        if why is None and (name in RESERVED or name.startswith("images/")):
            why = "the module writes that entry itself (images go under images/)"
        if why is not None:
            diags.error(rel, None, f"not a file of the module: {why}")
            continue
        total += path.stat().st_size
        if total > MAX_FILES_BYTES:
            diags.error(rel, None, f"files/ holds more than {MAX_FILES_BYTES} bytes")
            break
        out[name] = path.read_bytes()
    return out


def _scenarios(root: Path, names: Any, diags: Diagnostics) -> list[tuple[str, bytes | None, str]]:
    """Each scenario listing and the VASSAL save beside it (``x.toml`` -> ``x.vsav``), or a
    blank one (``blank = true``: a New Game entry without a set-up file)."""
    out: list[tuple[str, bytes | None, str]] = []
    if not isinstance(names, list):
        diags.error("module.toml", None, "[files] scenarios must be a list of file names")
        return out
    for name in names:
        table = _toml(root, str(name), diags)
        if table is None:
            continue
        scen = table.get("scenario", {})
        title = scen.get("name") if isinstance(scen, dict) else None
        file = scen.get("file") if isinstance(scen, dict) else None
        blank = scen.get("blank", False) if isinstance(scen, dict) else False
        if not isinstance(blank, bool):
            diags.error(str(name), None, "[scenario] blank must be true or false")
            continue
        if blank:
            if not isinstance(title, str) or not title or file is not None:
                diags.error(str(name), None, "a blank [scenario] needs a name and no file")
            else:
                out.append((title, None, ""))
            continue
        if not isinstance(title, str) or not isinstance(file, str) or not file:
            diags.error(str(name), None, "[scenario] needs name and file")
            continue
        save = str(name)[: -len(".toml")] + ".vsav"
        data = _file(root, save, str(name), "set-up save", diags)
        if data is not None:
            out.append((title, data, file))
    return out
