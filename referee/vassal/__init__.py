"""VASSAL file formats: module writer, save/log codec (see shared docs/vassal-format.md).

Submodules are imported explicitly (``from referee.vassal.savefile import read_save``);
this package init stays light on purpose.
"""
