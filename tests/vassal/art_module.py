"""A small VASSAL module the art tests build themselves (no third-party art): one map whose
board picture is drawn here, under a sideways ``HexGrid`` numbered as the ``mini`` test
module's hexes are (8 columns by 6 rows, ids ``RRCC``, rows growing north), and two pieces
named after ``mini`` roster ids: one plain, one with a two-level flip Layer (front, back)."""

from __future__ import annotations

import io
import math
import zipfile
from pathlib import Path

from PIL import Image, ImageDraw

from referee.vassal.codec.pieces import BasicPiece, Piece
from referee.vassal.module.levels import levelled_layer_trait
from referee.vassal.module.palette import slot_text

DY = 90.0  # VASSAL's hex height: the distance between neighbouring centres
DX = DY * math.sqrt(3) / 2  # a regular hex
X0, Y0 = -18, 40  # raw columns 1-6 (odd ones shifted) are rows 06-01; raw rows 0-7
BOARD = (740, 500)
PIECES = {"US-CV-1": ("cv.png", ""), "SO-SG-1": ("sg-front.png", "sg-back.png")}


def _png(size: tuple[int, int], colour: str, text: str) -> bytes:
    img = Image.new("RGB", size, colour)
    ImageDraw.Draw(img).text((4, 4), text, fill="black")
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def _slot(name: str, front: str, back: str) -> str:
    basic = BasicPiece.build(name, "" if back else front)
    if not back:
        return slot_text(Piece((basic,)))
    flip = levelled_layer_trait(
        "Flip", "F", ("Front", "Back"), (front, back), "flip", blank_first=False
    )
    return slot_text(Piece((flip, basic)))


def build_file(h_type: str = "N") -> str:
    slots = "".join(
        f'<VASSAL.build.widget.PieceSlot entryName="{uid}" gpid="{i}" height="40" width="40">'
        f"{_slot(uid, *faces)}</VASSAL.build.widget.PieceSlot>"
        for i, (uid, faces) in enumerate(PIECES.items(), start=1)
    )
    grid = (
        f'<VASSAL.build.module.map.boardPicker.board.HexGrid color="0,0,0" cornersLegal="false" '
        f'dotsVisible="false" dx="{DX!r}" dy="{DY!r}" edgesLegal="false" sideways="true" '
        f'snapTo="true" visible="true" x0="{X0}" y0="{Y0}">'
        '<VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering color="0,0,0" '
        'first="H" fontSize="9" hDescend="false" hDrawOff="0" hLeading="1" hOff="1" '
        f'hType="{h_type}" '
        'locationFormat="$gridLocation$" rotateText="0" sep="" stagger="false" vDescend="true" '
        'vDrawOff="0" vLeading="1" vOff="1" vType="N" visible="true"/>'
        "</VASSAL.build.module.map.boardPicker.board.HexGrid>"
    )
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>'
        '<VASSAL.build.GameModule ModuleOther1="" ModuleOther2="" VassalVersion="3.7.26" '
        'description="" name="Art Test" nextPieceSlotId="3" version="1.0">'
        "<VASSAL.build.module.BasicCommandEncoder/>"
        '<VASSAL.build.module.PieceWindow allowHidingPieces="false" hotkey="" icon="" '
        'name="Pieces" scale="1.0" text="Pieces" tooltip="">'
        f'<VASSAL.build.widget.ListWidget entryName="Units" height="0" width="0">{slots}'
        "</VASSAL.build.widget.ListWidget></VASSAL.build.module.PieceWindow>"
        '<VASSAL.build.module.Map allowMultiple="false" backgroundcolor="255,255,255" '
        'buttonName="Map" hotkey="" icon="" launch="false" mapName="Sea" markMoved="Never" '
        'markUnmovedHotkey="" markUnmovedIcon="" markUnmovedText="" moveKey="" showKey="" '
        'useLaunchButton="false">'
        '<VASSAL.build.module.map.BoardPicker addColumnText="" addRowText="" boardPrompt="" '
        'slotHeight="125" slotScale="0.2" slotWidth="350" title="Choose Boards">'
        '<VASSAL.build.module.map.boardPicker.Board image="sea.png" name="Sea" '
        f'reversible="false">{grid}</VASSAL.build.module.map.boardPicker.Board>'
        "</VASSAL.build.module.map.BoardPicker>"
        '<VASSAL.build.module.map.StackMetrics bottom="40" disabled="false" '
        'down="83" exSepX="6" exSepY="18" top="38" unexSepX="8" unexSepY="16"/>'
        "</VASSAL.build.module.Map></VASSAL.build.GameModule>"
    )


def art_vmod(out: Path, h_type: str = "N") -> Path:
    """``out/art-test.vmod`` with its drawn board and piece pictures (``h_type="A"``: rows
    named by letters, as VASSAL's ``hType`` says)."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / "art-test.vmod"
    entries = {
        "buildFile.xml": build_file(h_type).encode("utf-8"),
        "moduledata": (
            b'<?xml version="1.0" encoding="UTF-8" standalone="no"?><data version="1">'
            b"<version>1.0</version><extra1/><extra2/><VassalVersion>3.7.26</VassalVersion>"
            b"<dateSaved>0</dateSaved><description/><name>Art Test</name></data>"
        ),
        "images/sea.png": _png(BOARD, "#A9CCE3", "sea"),
    }
    for i, (front, back) in enumerate(PIECES.values()):
        for j, name in enumerate(n for n in (front, back) if n):
            entries[f"images/{name}"] = _png((40, 40), ("#C0D0F0", "#F0C0C0")[j], f"{i}{j}")
    with zipfile.ZipFile(path, "w") as z:
        for name, data in entries.items():
            z.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data)
    return path
