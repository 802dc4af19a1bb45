"""Reduced values: a damaged counter shows the values the rules leave it (issue 27).

Where the rules reduce a damaged unit's values (D2 halves a ship's movement and zeroes its
attack strengths [DTP 8.55]; past half its Protection Rating a naval unit's artillery is
halved and it has one NMP less [27.36]), the ruleset's damage marker says so
(``MarkerDecl.reduces``: the values by the rules' own formula, from which damage on). The
module then draws each such unit's **reduced face** with the counter renderer, as it draws
the printed one, from the roster row with those values, and gives the counter a Layer of
reduced faces that **follows** the damage Layer's level (VASSAL's "follow property value"
on ``Damage_Level``): below the reducing damage it draws nothing and the printed face shows;
from it on it draws the reduced face over the printed one. Being a face, not a marker, it
lies under every marker layer (the damage badge, Detected, Attacked), which then still show
over it. It has no key: the damage Layer's own keys, and the saves' damage levels, switch it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.source.model import Module, UnitDef
from referee.source.schema import MarkerDecl
from referee.vassal.codec.pieces import Embellishment
from referee.vassal.module.levels import levelled_layer_trait

__all__ = ["ReducedFace", "reduced_faces", "reduced_image", "reduced_layer"]


@dataclass(frozen=True, slots=True)
class ReducedFace:
    """One reduced face of a roster row: the row with its reduced values (``unit``), the
    image it is drawn to, and the marker value from which the counter shows it."""

    unit: UnitDef
    image: str
    start: int


def reduced_image(unit: UnitDef, marker: str, start: int) -> str:
    """The image of ``unit``'s face from value ``start`` of ``marker`` on."""
    return f"unit_{unit.id}_{marker}{start}.png"


def reduced_faces(decl: MarkerDecl, module: Module, unit: UnitDef) -> tuple[ReducedFace, ...]:
    """The faces ``decl`` reduces ``unit`` to, in order of the damage they start at; a step
    that changes no value is left out (an artillery 0 halved is still 0). None for a unit
    whose face is the designer's art without printed values: its figures are in the
    picture, and no drawing of ours could show them reduced."""
    if decl.reduces is None or (unit.art is not None and not unit.art.print_values):
        return ()
    out: list[ReducedFace] = []
    for start, values in sorted(decl.reduces(module, unit), key=lambda step: step[0]):
        now = {k: int(v) for k, v in values.items()}
        if now != unit.values and 0 < start <= decl.levels:
            reduced = replace(unit, values=now)
            out.append(ReducedFace(reduced, reduced_image(unit, decl.id, start), start))
    return tuple(out)


def reduced_layer(layer: str, faces: tuple[ReducedFace, ...], rule: str) -> Embellishment:
    """The Layer of ``faces`` following the Layer ``layer``'s level: its level ``n + 1``
    (the damage value ``n``) draws the face of the last step starting at or below ``n``,
    nothing below the first; VASSAL clamps a higher value to the last level."""
    last = max(f.start for f in faces)
    images: list[str] = []
    for n in range(last + 1):
        shown = [f.image for f in faces if f.start <= n]
        images.append(shown[-1] if shown else "")
    return levelled_layer_trait(
        f"{layer} values",
        "",
        tuple("" for _ in images),
        tuple(images),
        f"Reduced values from {layer} {faces[0].start} [{rule}]",
        blank_first=False,
        follow=f"{layer}_Level",
    )
