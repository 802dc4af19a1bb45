"""Modules, saves and logs we did not write: reading any VASSAL module, and sources from one.

``vmod`` reads a module's component tree; ``grids_read`` and ``locations`` name a point the
way VASSAL does; ``movelist`` reads a log as events and ``saves`` checks that a save belongs
to its module (``show-vsav --vmod``, ``referee log``); ``vmod_import``, ``vmod_import_art``
and ``vmod_tools`` make a module source from a module (``import-vmod``), ``vassal_only``
reads such a source (``ruleset = "none"``) and ``rebuild`` builds a module from it.
Builds on :mod:`referee.vassal.codec` (and the hex grid of :mod:`referee.vassal.module`).
"""
