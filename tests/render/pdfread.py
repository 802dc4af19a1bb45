"""A tiny PDF reader for tests: page MediaBoxes and image placements (``cm`` before ``Do``)."""

from __future__ import annotations

import base64
import re
import zlib

MEDIABOX = re.compile(rb"/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]")
IMAGE_CM = re.compile(rb"([-\d.]+) 0 0 ([-\d.]+) ([-\d.]+) ([-\d.]+) cm\s*/\S+ Do")


def media_boxes(pdf: bytes) -> list[tuple[float, float, float, float]]:
    return [tuple(float(v) for v in m.groups()) for m in MEDIABOX.finditer(pdf)]  # type: ignore[misc]


def _streams(pdf: bytes) -> list[bytes]:
    """Every stream's decoded data (ASCII85 and Flate filters, as reportlab writes them)."""
    out = []
    for chunk in pdf.split(b"endobj"):
        start = chunk.find(b"stream")
        end = chunk.rfind(b"endstream")
        if start < 0 or end < 0:
            continue
        head = chunk[:start]
        data = chunk[start + len(b"stream") : end].strip(b"\r\n")
        try:
            if b"ASCII85Decode" in head:
                data = base64.a85decode(data.strip().removesuffix(b"~>"))
            if b"FlateDecode" in head:
                data = zlib.decompress(data)
        except (ValueError, zlib.error):
            continue
        out.append(data)
    return out


def image_placements(pdf: bytes) -> list[list[tuple[float, float, float, float]]]:
    """Per content stream that places images: (w, h, x, y) in PDF points (y up)."""
    out = []
    for data in _streams(pdf):
        found = [tuple(float(v) for v in g.groups()) for g in IMAGE_CM.finditer(data)]
        if found:
            out.append(found)
    return out  # type: ignore[return-value]


FILLED_RE = re.compile(rb"n ([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) re f\*")


def page_contents(pdf: bytes) -> list[bytes]:
    """The decoded page content streams (those that set the coordinate system first)."""
    return [s for s in _streams(pdf) if s.startswith(b"1 0 0 1 0 0 cm")]


def filled_squares(pdf: bytes, side: float) -> list[list[tuple[float, float]]]:
    """Per page, the lower-left corners of the filled squares ``side`` points wide (a vector
    counter's background), in drawing order."""
    out = []
    for data in page_contents(pdf):
        found = []
        for m in FILLED_RE.finditer(data):
            x, y, w, h = (float(v) for v in m.groups())
            if abs(w - side) < 0.01 and abs(h - side) < 0.01:
                found.append((x, y))
        out.append(found)
    return out
