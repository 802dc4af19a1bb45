"""The numbers players keep by hand, as VASSAL Global Properties (the ruleset's
``RulesetSchema.tracks``): victory points, the Alert level [CBG 6.1], the actions left
[2019 6.1], the interdiction level [31.13].

* Each track is one ``GlobalProperty`` of the module, named as the ruleset declares it
  (``VP_NATO``, ``VP_Soviet``, ``Alert``, ``Actions``, ``Interdiction_Axis``): the names
  other parts of the module (triggers, labels) and the saves refer to.
* Its ``ChangePropertyButton`` children change it, reported in the log the opponent reads:
  +1 and -1 within the track's bounds for a numeric track, and a prompt for any value
  (DTP's VP keep fractions [DTP 8.57], so they are text). The buttons sit in one toolbar
  menu, *Tracks*, as the best community modules group theirs.
* The *Tracks* counter (Markers list of the palette) shows every track's value on the map:
  one text label per track, ``NATO VP: $VP_NATO$``, which VASSAL keeps up to date.

Attribute names and encodings as VASSAL 3.7.26 writes them (``GlobalProperty``,
``ChangePropertyButton``, ``PropertyChangerConfigurer.getValueString``: ``I,1`` increments
by one, ``R,prompt`` asks for the value).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from lxml import etree

from referee.source.model import Module
from referee.vassal.codec.pieces import BasicPiece, Labeler, Marker, Piece, Trait, UnknownTrait
from referee.vassal.codec.sequence import encode_sequence
from referee.vassal.module.traits import (
    CLONE_KEY,
    DELETE_KEY,
    clone_trait,
    delete_trait,
    report_trait,
)

__all__ = [
    "TRACKS_MENU",
    "TRACKS_PIECE",
    "TrackProperty",
    "change_buttons",
    "global_properties",
    "track_properties",
    "tracks_menu",
    "tracks_piece",
]

M: Final = "VASSAL.build.module."
P: Final = M + "properties."
TRACKS_MENU: Final = "Tracks"
TRACKS_PIECE: Final = "Tracks"
"""The palette counter (and its piece name) that shows every track's value on the map."""
REPORT: Final = "$PlayerName$: $description$ $oldValue$ -&gt; $newValue$"
LINE_PX: Final = 18  # the label lines' spacing on the Tracks counter


@dataclass(frozen=True, slots=True)
class TrackProperty:
    """One Global Property of the module: a :class:`~referee.source.schema.TrackDecl`
    for one side (``side`` is the side id, ``""`` for a track of the game)."""

    name: str
    title: str
    rule: str
    minimum: int
    maximum: int
    initial: int
    numeric: bool
    source: str
    side: str


def track_properties(module: Module) -> tuple[TrackProperty, ...]:
    """The module's Global Properties, in the ruleset's order, a per-side track once per
    playing side (``{side}`` in the name is the side id, in the title the side's name)."""
    schema = module.schema
    out: list[TrackProperty] = []
    for decl in schema.tracks if schema is not None else ():
        sides = [(s.id, s.name) for s in module.sides] if decl.per_side else [("", "")]
        for sid, sname in sides:
            out.append(
                TrackProperty(
                    decl.name.format(side=sid), decl.title.format(side=sname), decl.rule,
                    decl.minimum, decl.maximum, decl.initial, decl.numeric,
                    decl.source.replace("{side}", sid), sid,
                )
            )  # fmt: skip
    return tuple(out)


def _el(parent: etree._Element, tag: str, attrs: Mapping[str, str]) -> etree._Element:
    el = etree.SubElement(parent, tag)
    for key, value in sorted(attrs.items()):
        el.set(key, value)
    return el


def change_buttons(track: TrackProperty) -> list[tuple[str, str, str]]:
    """(button text, ``propChanger``, tooltip) of a track's buttons: +1 and -1 for a numeric
    track, then Set for every track."""
    where = f" [{track.rule}]"
    out = []
    if track.numeric:
        out += [
            (f"{track.title} +1", "I,1", f"Add one to the {track.title}{where}"),
            (f"{track.title} -1", "I,-1", f"Take one from the {track.title}{where}"),
        ]
    prompt = f"New {track.title}" + (
        f" ({track.minimum} to {track.maximum})" if track.numeric else " (e.g. 3 1/4)"
    )
    out.append((f"Set {track.title}", f"R,{prompt}", f"Set the {track.title}{where}"))
    return out


def global_properties(container: etree._Element, module: Module) -> None:
    """Each track as a ``GlobalProperty`` of the module's ``GlobalProperties`` element, with
    its change buttons."""
    for track in track_properties(module):
        prop = _el(
            container,
            P + "GlobalProperty",
            {"description": track.title, "initialValue": str(track.initial),
             "isNumeric": "true" if track.numeric else "false", "max": str(track.maximum),
             "min": str(track.minimum), "name": track.name, "wrap": "false"},
        )  # fmt: skip
        for text, changer, tooltip in change_buttons(track):
            _el(
                prop,
                P + "ChangePropertyButton",
                {"hotkey": "", "icon": "", "propChanger": changer, "reportFormat": REPORT,
                 "text": text, "tooltip": tooltip},
            )  # fmt: skip


def tracks_menu(root: etree._Element, module: Module) -> None:
    """The toolbar menu holding every track's buttons (none for a module without tracks)."""
    items = [text for track in track_properties(module) for text, _c, _t in change_buttons(track)]
    if not items:
        return
    _el(
        root,
        M + "ToolbarMenu",
        {"canDisable": "false", "description": "The numbers players keep by hand",
         "disabledIcon": "", "hideWhenDisabled": "false", "hotkey": "", "icon": "",
         "menuItems": encode_sequence(items, ",") or "", "propertyGate": "",
         "text": TRACKS_MENU, "tooltip": "Victory points, levels and tracks: change them"},
    )  # fmt: skip


def _label(text: str, line: int, lines: int, prop: str) -> Labeler:
    """A text label of the Tracks counter (``Labeler.myGetType``'s 18 fields): black on
    white, line ``line`` of ``lines`` centred on the counter, no key (nobody edits it)."""
    offset = (line - (lines - 1) / 2) * LINE_PX
    fields = ["", "", "12", "255,255,255", "0,0,0", "c", str(round(offset)), "c", "0", "c", "c",
              "$pieceName$", "Dialog", "1", "0", prop, f"Shows {prop}", "false"]  # fmt: skip
    return Labeler(Labeler.ID + (encode_sequence(fields, ";") or ""), text)


def piece_commands(track: TrackProperty, index: int) -> list[tuple[str, str, str]]:
    """(menu text, encoded key, ``propChanger``) of the Tracks counter's commands for the
    track shown on line ``index`` (0-based, at most 9 tracks): +1 on Ctrl+digit and -1 on
    Ctrl+Shift+digit for a numeric track, Set on Ctrl+Alt+digit for every track, the same
    changes as the toolbar's buttons (:func:`change_buttons`)."""
    digit = ord("1") + index
    out = []
    for (text, changer, _tip), mods in zip(
        change_buttons(track), _MODIFIERS[track.numeric], strict=True
    ):
        out.append((text, f"{digit},{mods}", changer))
    return out


_MODIFIERS: Final = {True: (130, 195, 650), False: (650,)}  # Ctrl, Ctrl+Shift, Ctrl+Alt


def _property_keys(track: TrackProperty, index: int) -> list[Trait]:
    """A Set Global Property with the track's menu commands, then a Report Action (inside
    it, so it reports the new value): ``NATO VP +1: now 4 [13.0]``."""
    commands = [
        encode_sequence([text, key, changer], ":") or ""
        for text, key, changer in piece_commands(track, index)
    ]
    bounds = ["true" if track.numeric else "false", str(track.minimum), str(track.maximum)]
    fields = [
        track.name,
        encode_sequence([*bounds, "false"], ","),
        encode_sequence(commands, ","),
        f"Changes {track.name} [{track.rule}]",
        "Current Zone/Current Map/Module",
        "",
    ]
    report = f"$PlayerName$: $menuCommand$: now ${track.name}$ [{track.rule}]"
    return [
        UnknownTrait("setprop;" + (encode_sequence(fields, ";") or ""), ""),
        report_trait(
            (),
            f"Report {track.name} changed",
            fmt=report,
            strokes=[key for _t, key, _c in piece_commands(track, index)],
        ),
    ]


def tracks_piece(module: Module, gpid: int, *, commands: bool = True) -> Piece | None:
    """The Tracks counter: one label per track, ``<title>: $<property>$``, which VASSAL
    fills with the property's value, and (``commands``, piece version 6) each track's
    changes by menu and key, so players change them from the map too; ``None`` for a module
    without tracks."""
    tracks = track_properties(module)
    if not tracks:
        return None
    traits: list[Trait] = [
        report_trait([DELETE_KEY, CLONE_KEY], "Report marker removed or added"),
        delete_trait("Remove the Tracks display"),
        clone_trait("Another Tracks display"),
    ]  # a marker like every other: removed or copied by menu (a display on each map)
    if commands:
        traits += [t for i, track in enumerate(tracks[:9]) for t in _property_keys(track, i)]
    traits += [
        _label(f"{t.title}: ${t.name}$", i, len(tracks), f"Track{i + 1}")
        for i, t in enumerate(tracks)
    ]
    traits.append(Marker.build({"Marker": TRACKS_PIECE, "Rule": ", ".join(t.rule for t in tracks)}))
    traits.append(BasicPiece.build(TRACKS_PIECE, "", gpid=str(gpid)))
    return Piece(tuple(traits))
