"""``declared``: the referee of a game that has no ruleset, only a declared source.

A module source that names no ruleset declares its game in ``[game]``
(``referee/source/gamedecl.py``, ``docs/declared-games.md``). This package plays such a game
by email: it records what the players order and rolls the dice they ask for, from the same
commit-reveal dice as every game, in signed, chained reports that ``verify`` replays. It
checks only what the source declares, never the game's rules; every report says so.

Its cases (cited by every event and refusal, ``G`` for the generic referee):

* [G1] The record: ``place``, ``move``, ``flip``, ``mark``, ``unmark`` and ``eliminate``
  are recorded as ordered, for pieces that exist and are the ordering side's own, at
  locations that exist on the map. Nothing else is checked: not movement allowances,
  stacking, terrain, zones of control or any other rule of the game.
* [G2] The sequence of play: the side due is the one the declared sequence names
  (``[[game.phase]]``, one orders file per step of a side); steps of neither side pass on
  their own. After the scenario's last Game-Turn the game is over.
* [G3] Free rolls: ``roll 2d6 for "attack on 1423"`` rolls the dice and reports the total.
* [G5] Connections: on an area or point-to-point map, a ``move`` goes from each location to
  one the map declares connected to it (a zone's adjacency, a space's lines and links, a
  one-way link only its way). Hex steps, movement allowances and closed boundaries are the
  game's rules and not checked.
* [G6] Closed locations: no ``move`` or ``place`` enters a location the source closes to
  the piece's category (a zone or space type ``closed_to`` every kind or the category, a
  terrain whose ``cost_<category>`` is ``-``); the refusal names the declaration. Not in a
  game begun before the check (its start without the new-game flag ``closed``).
* [G4] Rolls on a declared table: ``roll 2d6 on TABLE [COLUMN]`` rolls and reports the
  table's row for the total (and the column's cell), as the module's table reads it.
"""
