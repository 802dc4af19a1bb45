"""VASSAL, in four packages by job (see shared docs/vassal-format.md for the formats):

* :mod:`referee.vassal.codec`: the save and log codec (file formats, hostile-input readers);
* :mod:`referee.vassal.module`: writing our module (``referee build``);
* :mod:`referee.vassal.position.save`: a game's positions in our module (``position.vsav``,
  set-ups, a save or log read back as the game's places and orders);
* :mod:`referee.vassal.foreign.saves`: any module, save or log we did not write (``import-vmod``,
  ``show-vsav --vmod``, ``referee log``).

Submodules are imported explicitly (``from referee.vassal.codec.savefile import read_save``);
the package inits stay light on purpose.
"""
