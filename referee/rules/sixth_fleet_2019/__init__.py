"""Decision Games' Sixth Fleet (2019, Modern War #41): an area-movement ruleset.

The seed transcription stops at the first line of 8.4.1; everything later (combat, events,
VP chart, list of actions) is provisional data in the module source, declared in
``docs/interpretations.md``. Nothing here imports ``sixth_fleet_1975``: the games share a name.
"""
