"""The module's own pictures, drawn for every module from its plan rather than from the
module source: the Attacked and returning overlays, the markers and their level badges, the
holding boxes, the dead piles, the off-map boxes, the displays, masks, the moved marker and
the About picture (:func:`render_own_art`). Each goes through the picture cache where its
inputs are few (:func:`referee.render.artcache.cached_png`).
"""

from __future__ import annotations

from collections.abc import Callable

from referee.vassal.module.artwork import (
    about_png,
    attacked_overlay_png,
    holding_board_png,
    level_badge_png,
    level_counter_png,
    marker_png,
    moved_marker_png,
    returning_overlay_png,
    tag_overlay_png,
)
from referee.vassal.module.palette import moved_size
from referee.vassal.module.plan import ATTACKED_OVERLAY, MOVED_IMAGE, RETURNING_OVERLAY, ModulePlan

Progress = Callable[[int], None]


def render_own_art(plan: ModulePlan, tick: Progress) -> dict[str, bytes]:
    """The module's own pictures: the layers, the markers and the holding-box board."""
    from referee.render.artcache import cached_png as _own

    out: dict[str, bytes] = {}
    side = plan.counter_px
    if plan.attacked:
        band = plan.status_band
        out[ATTACKED_OVERLAY] = _own(
            "attacked", (side, band), lambda: attacked_overlay_png(side, band)
        )
        tick(1)
    if RETURNING_OVERLAY in plan.image_names():
        out[RETURNING_OVERLAY] = _own("returning", (side,), lambda: returning_overlay_png(side))
        tick(1)
    for marker in plan.markers:
        args = (side, marker.name.upper(), marker.note, marker.fill, marker.ink)
        out[marker.image] = _own("marker", args, lambda args=args: marker_png(*args))
        tick(1)
    holding = plan.holding
    if holding is not None:
        out[plan.holding_image] = _own("holding", (holding,), lambda: holding_board_png(holding))
        tick(1)
    out[MOVED_IMAGE] = moved_marker_png(moved_size(side))
    tick(1)
    for layer in plan.marker_layers:
        if not layer.levels:
            out[layer.image] = tag_overlay_png(side, layer.spec.name, layer.fill, plan.status_band)
        for n, image in enumerate(layer.images if layer.levels else (), start=1):
            args = (side, layer.levels[n], layer.fill, plan.status_band)
            out[image] = _own("level_badge", args, lambda args=args: level_badge_png(*args))
        tick(1)
    for loc in plan.location_markers:
        decl = loc.decl
        args = (side, decl.name.upper(), f"[{decl.rule}]", loc.fill, "#FFFFFF")
        out[loc.image] = _own("marker", args, lambda args=args: marker_png(*args))
        for n, image in enumerate(loc.images):
            cargs = (side, decl.name, loc.names[n], loc.fill)
            out[image] = _own("level_counter", cargs, lambda a=cargs: level_counter_png(*a))
        tick(1)
    if plan.eliminated is not None:
        out[plan.eliminated_image] = holding_board_png(
            plan.eliminated, "Eliminated units: one dead pile per side (Ctrl+E)"
        )
        tick(1)
    if plan.off_map is not None:
        out[plan.off_map_image] = holding_board_png(plan.off_map, "Off the map")
        tick(1)
    if plan.mask_images:
        from referee.render.counters import counter_png

        units = {u.id: u for u in plan.module.units}
        for image, uid in plan.mask_images:
            out[image] = counter_png(plan.module, units[uid], back=True, dpi=plan.dpi)
            tick(1)
    for display in plan.displays:
        lay, title = display.layout, display.decl.title
        out[display.image] = _own(
            "display", (lay, title), lambda lay=lay, title=title: holding_board_png(lay, title)
        )
        tick(1)
    module = plan.module
    facts = [f"Version {module.version}", module.description[:90]]
    facts += [f"Sides: {', '.join(s.name for s in module.sides)}"]
    facts += [f"Scenarios: {', '.join(s.name for s in module.scenarios.values())}"]
    facts += ["Built from its module source by referee"]
    out[plan.about_image] = about_png(module.name, [f for f in facts if f])
    tick(1)
    return out
