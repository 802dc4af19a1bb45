"""A designer's pictures (a map picture, counter sheets), read at the edge with limits.

A picture is named in the source like any other file (relative, inside the folder, no
symbolic link out) and must be a PNG, JPEG or SVG picture (SVG: :mod:`referee.source.svgart`)
of at most :data:`MAX_PICTURE_PIXELS` pixels and :data:`MAX_PICTURE_BYTES` bytes: a 34 x 22 in
map scanned at 300 dpi fits, and no picture can make a command take unbounded memory or time.
The whole picture is decoded once here, so a truncated or corrupt file is a diagnostic of
``check``, never a failure half-way through ``build``. The model keeps the picture's SHA-256:
a renderer that finds a different file later (edited after the check) refuses it rather than
draw what the cache key does not describe.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.errors import UserError
from referee.safeio import UnsafeInput, resolve_inside
from referee.source.model import ArtFile
from referee.source.svgart import SvgProblem, looks_like_svg, rasterise, read_svg

if TYPE_CHECKING:
    from PIL import Image

MAX_PICTURE_BYTES = 64 * 1024 * 1024
MAX_PICTURE_PIXELS = 64_000_000
MAX_PICTURE_SIDE = 20_000
KINDS = {"PNG": "png", "JPEG": "jpeg"}
HINT = "export the picture as PNG (or JPEG for a scan)"


class ArtProblem(ValueError):
    """A picture that cannot be used: ``message`` says what is wrong, ``hint`` what to do."""

    def __init__(self, message: str, hint: str = HINT) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


def _read_bytes(root: Path, name: str) -> bytes:
    try:
        path = resolve_inside(root, name, what="picture")
    except UnsafeInput as exc:
        if exc.message == "file not found":
            raise ArtProblem(
                f"picture {name!r} not found", "picture names are relative to the source folder"
            ) from None
        raise ArtProblem(exc.message, exc.hint or HINT) from None
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise ArtProblem(f"picture {name!r} is not a file")
        if size > MAX_PICTURE_BYTES:
            raise ArtProblem(
                f"picture {name!r} is {size:,} bytes; the limit is {MAX_PICTURE_BYTES:,}",
                "save it as a compressed PNG or a JPEG",
            )
        return path.read_bytes()
    except FileNotFoundError:
        raise ArtProblem(
            f"picture {name!r} not found", "picture names are relative to the source folder"
        ) from None
    except OSError as exc:
        raise ArtProblem(f"picture {name!r} cannot be read ({exc.strerror})") from None


def _svg(name: str, data: bytes) -> tuple[Any, int, int]:
    """An SVG's drawing and size in CSS pixels, within the picture limits."""
    try:
        drawing, w, h = read_svg(data)
    except SvgProblem as exc:
        raise ArtProblem(
            f"picture {name!r} is an SVG that cannot be used: {exc}",
            "save it as plain SVG with everything inside it, or export a PNG",
        ) from None
    wi, hi = max(1, round(w)), max(1, round(h))
    if wi * hi > MAX_PICTURE_PIXELS or max(wi, hi) > MAX_PICTURE_SIDE:
        raise ArtProblem(
            f"picture {name!r} is {wi} x {hi} px; the limit is {MAX_PICTURE_PIXELS:,} "
            f"pixels and {MAX_PICTURE_SIDE} a side",
            "give the <svg> its printed size in px (96 an inch)",
        )
    return drawing, wi, hi


def _decode(name: str, data: bytes) -> tuple[str, Image.Image]:
    from PIL import Image, UnidentifiedImageError

    if looks_like_svg(data):
        drawing, _, _ = _svg(name, data)
        return "svg", rasterise(drawing, 1.0)
    try:
        with Image.open(io.BytesIO(data)) as im:
            kind = KINDS.get(im.format or "")
            if kind is None:
                raise ArtProblem(f"picture {name!r} is a {im.format} image, not a PNG or JPEG")
            w, h = im.size
            if w * h > MAX_PICTURE_PIXELS or max(w, h) > MAX_PICTURE_SIDE:
                raise ArtProblem(
                    f"picture {name!r} is {w} x {h} pixels; the limit is "
                    f"{MAX_PICTURE_PIXELS:,} pixels and {MAX_PICTURE_SIDE} a side",
                    "scale it to 300 dpi or less at its printed size",
                )
            im.load()
            return kind, im.convert("RGB")
    except ArtProblem:
        raise
    except UnidentifiedImageError:
        raise ArtProblem(f"picture {name!r} is not a readable PNG, JPEG or SVG") from None
    except (Image.DecompressionBombError, OSError, SyntaxError) as exc:
        raise ArtProblem(f"picture {name!r} is not a readable PNG, JPEG or SVG ({exc})") from None


def read_picture(root: Path, name: object) -> tuple[ArtFile, Image.Image]:
    """The checked picture ``name`` and its pixels (RGB); raises :class:`ArtProblem`."""
    if not isinstance(name, str) or not name.strip():
        raise ArtProblem(f"a picture must be named by a file name in quotes, got {name!r}")
    data = _read_bytes(root, name)
    kind, img = _decode(name, data)
    sha = hashlib.sha256(data).hexdigest()
    if kind == "svg":  # its size in CSS px, which the raster at one px a px may round
        _, w, h = _svg(name, data)
        return ArtFile(name, kind, w, h, sha), img
    return ArtFile(name, kind, img.width, img.height, sha), img


def _checked_bytes(root: Path, art: ArtFile) -> bytes:
    data = _read_bytes(root, art.name)
    if hashlib.sha256(data).hexdigest() != art.sha256:
        raise ArtProblem(f"picture {art.name!r} changed after the source was checked")
    return data


def open_picture(root: Path, art: ArtFile, scale: float = 1.0) -> Image.Image:
    """The pixels of a picture the loader checked, ``scale`` pixels a picture pixel (at most
    1 for a raster picture, which is never enlarged; an SVG is rasterised at that scale); a
    file changed since the check is refused (the caller's cache key names the checked
    bytes)."""
    from PIL import Image

    try:
        data = _checked_bytes(root, art)
        if art.kind == "svg":
            drawing, w, h = _svg(art.name, data)
            scale = min(scale, (MAX_PICTURE_PIXELS / (w * h)) ** 0.5)
            return rasterise(drawing, scale)
        img = _decode(art.name, data)[1]
        if scale < 1.0:
            size = (max(1, round(img.width * scale)), max(1, round(img.height * scale)))
            img = img.resize(size, Image.Resampling.LANCZOS)
        return img
    except ArtProblem as exc:
        raise UserError(exc.message, hint="run referee check again") from None


def open_vector(root: Path, art: ArtFile) -> Any:
    """The reportlab drawing of an SVG picture the loader checked (points, y up)."""
    try:
        return _svg(art.name, _checked_bytes(root, art))[0]
    except ArtProblem as exc:
        raise UserError(exc.message, hint="run referee check again") from None
