"""The save and log codec: VASSAL's file formats, read and written byte for byte.

SequenceEncoder escaping (``sequence``), the command stream (``commands``), a piece's chain
of traits (``pieces``), the ``!VCSK`` layer (``obfuscation``), ``.vsav``/``.vlog`` files
(``savefile``), a save replayed onto the table (``tabletop``, ``inspect``), the hostile-input
readers (``safezip``, ``xmlsafe``, ``errors``) and the reproducible zip writer (``zipwrite``).
Nothing here knows our module or a game; every other part of :mod:`referee.vassal` builds on it.
"""
