"""Is this place land or sea? The NOAA GLOBE land mask, read from the ``global-land-mask`` package.

Data set: NOAA NGDC's GLOBE (Global Land One-km Base Elevation) project, 30 arc-second cells
(about 0.9 km north-south); a cell is land when GLOBE has an elevation for it (most lakes
count as land). GLOBE is a US
government product and in the public domain. The PyPI package ``global-land-mask`` (MIT)
ships it as one compressed NumPy file of 21600 × 43200 booleans, True for ocean, row 0 at
90° N, column 0 at 180° W. Nothing is downloaded at run time.

We read that file ourselves instead of importing the package: its module loads the whole
mask (933 MB) on import, while a map needs a band of a few degrees. The reader inflates the
stream only down to the last row the map needs and keeps only the columns it needs, so a map
at 60° N costs well under a second and a few megabytes. It checks the file's header (shape,
type, order) and refuses anything else rather than guess.
"""

from __future__ import annotations

import ast
import importlib.util
import math
import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from referee.errors import UserError

PACKAGE = "global_land_mask"
DATA_FILE = "globe_combined_mask_compressed.npz"
MEMBER = "mask.npy"
ROWS, COLS = 21600, 43200
CELLS_PER_DEGREE = 120
INSTALL_HINT = (
    "install the optional extra: pip install 'referee[geo]' (or pip install global-land-mask)"
)
DATA_NAME = "NOAA GLOBE 30-arc-second land mask (public domain), via the global-land-mask package"


class LandMask(Protocol):
    """Anything that answers land-or-sea for places; tests pass a synthetic one."""

    def is_land(self, lat: float, lon: float) -> bool: ...


def data_path() -> Path:
    """Where the installed package keeps the mask; a UserError when it is not installed."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise UserError(
            "map-from-geo needs the land mask of the global-land-mask package, which is not "
            "installed",
            hint=INSTALL_HINT,
        )
    for folder in spec.submodule_search_locations:
        p = Path(folder) / DATA_FILE
        if p.is_file():
            return p
    raise UserError(f"the {PACKAGE} package has no {DATA_FILE}", hint=INSTALL_HINT)


def row_of(lat: float) -> int:
    """The mask row of a latitude (the package's own rule: row i spans 90 - i/120 downward)."""
    return min(ROWS - 1, max(0, math.floor((90.0 - lat) * CELLS_PER_DEGREE)))


def col_of(lon: float) -> int:
    return math.floor((lon + 180.0) * CELLS_PER_DEGREE) % COLS


@dataclass(slots=True)
class GlobeBand:
    """The rows ``first_row..`` of the mask, each cut to the columns ``col0 .. col0+width``
    (modulo the date line)."""

    first_row: int
    col0: int
    width: int
    rows: list[bytes]

    def is_land(self, lat: float, lon: float) -> bool:
        i = row_of(lat) - self.first_row
        j = (col_of(lon) - self.col0) % COLS
        if not 0 <= i < len(self.rows) or j >= self.width:
            raise ValueError(f"({lat:.4f}, {lon:.4f}) is outside the loaded band")
        return self.rows[i][j] == 0  # the mask is True for ocean


def load_globe(places: Iterable[tuple[float, float]], path: Path | None = None) -> GlobeBand:
    """The part of the GLOBE mask that covers ``places`` (latitude, longitude pairs)."""
    pts = list(places)
    if not pts:
        raise ValueError("no places to cover")
    rows = [row_of(lat) for lat, _ in pts]
    r0, r1 = min(rows), max(rows)
    col0, width = _column_window([col_of(lon) for _, lon in pts])
    src = path or data_path()
    raw = _member_bytes(src)
    d = zlib.decompressobj(-15)
    header = _read_exact(d, raw, 10)
    if header[:6] != b"\x93NUMPY":
        raise UserError(f"{src}: {MEMBER} is not a NumPy array file", hint=INSTALL_HINT)
    hlen = struct.unpack("<H", header[8:10])[0] if header[6] == 1 else None
    if hlen is None:
        raise UserError(f"{src}: unsupported NumPy file version {header[6]}", hint=INSTALL_HINT)
    meta = ast.literal_eval(_read_exact(d, d.unconsumed_tail, hlen).decode("latin-1"))
    if meta != {"descr": "|b1", "fortran_order": False, "shape": (ROWS, COLS)}:
        raise UserError(f"{src}: unexpected land mask layout {meta!r}", hint=INSTALL_HINT)
    marks = _MARKS.setdefault(_file_key(src), [])
    at, d, tail = max(
        ((row, md.copy(), mt) for row, md, mt in marks if row <= r0),
        key=lambda m: m[0],
        default=(0, d, d.unconsumed_tail),
    )
    _read_exact(d, tail, (r0 - at) * COLS, keep=False)
    if at != r0:
        marks[:] = [*marks[-(MAX_MARKS - 1) :], (r0, d.copy(), d.unconsumed_tail)]
    kept: list[bytes] = []
    for _ in range(r0, r1 + 1):
        row = _read_exact(d, d.unconsumed_tail, COLS)
        if col0 + width <= COLS:
            kept.append(row[col0 : col0 + width])
        else:
            kept.append(row[col0:] + row[: col0 + width - COLS])
    return GlobeBand(r0, col0, width, kept)


MAX_MARKS = 8
_MARKS: dict[tuple[str, int, int], list[tuple[int, zlib._Decompress, bytes]]] = {}
"""Where inflating the mask reached the start of a band before, by file (path, change time,
size): (row, the inflater there, its input left). Deflate reads only from the start, so a
band at 36° N inflated 280 MB to skip the rows above it, again for each map of a session
(twelve maps in the command's tests); a later band starts from the nearest mark above it
(a copy of the inflater, which gives the same bytes). A mark is about the compressed file's
size (2.5 MB) at most."""


def _file_key(path: Path) -> tuple[str, int, int]:
    st = path.stat()
    return str(path), st.st_mtime_ns, st.st_size


def _column_window(cols: list[int]) -> tuple[int, int]:
    """The shortest window of columns (start, width), wrapping at the date line, holding all."""
    s = sorted(set(cols))
    if len(s) == 1:
        return s[0], 1
    # the largest gap between consecutive columns (around the circle) is what we leave out
    gaps = [(s[(k + 1) % len(s)] - s[k]) % COLS for k in range(len(s))]
    k = max(range(len(s)), key=lambda i: gaps[i])
    start = s[(k + 1) % len(s)]
    return start, COLS - gaps[k] + 1


def _member_bytes(npz: Path) -> bytes:
    """The raw deflated bytes of ``mask.npy`` inside the ``.npz`` (a zip file)."""
    import zipfile

    try:
        with zipfile.ZipFile(npz) as z:
            info = z.getinfo(MEMBER)
            if info.compress_type != zipfile.ZIP_DEFLATED:
                raise UserError(f"{npz}: {MEMBER} is not deflated", hint=INSTALL_HINT)
            with open(npz, "rb") as fh:
                fh.seek(info.header_offset)
                local = fh.read(30)
                if local[:4] != b"PK\x03\x04":
                    raise UserError(f"{npz}: damaged zip entry {MEMBER}", hint=INSTALL_HINT)
                name_len, extra_len = struct.unpack("<HH", local[26:30])
                fh.seek(info.header_offset + 30 + name_len + extra_len)
                return fh.read(info.compress_size)
    except (OSError, KeyError, zipfile.BadZipFile) as exc:
        raise UserError(f"{npz}: cannot read the land mask ({exc})", hint=INSTALL_HINT) from None


def _read_exact(d: zlib._Decompress, data: bytes, n: int, *, keep: bool = True) -> bytes:
    """Inflate exactly ``n`` bytes from ``data`` (then ``d.unconsumed_tail``)."""
    out: list[bytes] = []
    got = 0
    chunk = data
    while got < n:
        want = min(n - got, 1 << 24)
        piece = d.decompress(chunk, want)
        if not piece:
            raise UserError("the land mask data ends early", hint=INSTALL_HINT)
        got += len(piece)
        if keep:
            out.append(piece)
        chunk = d.unconsumed_tail
    return b"".join(out)
