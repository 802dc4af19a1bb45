"""``toy_duel``: a sixth ruleset written as a third-party author would write one.

It is one package (``schema.py`` declares what it asks of a module and names its ruleset
object; ``sequence.py`` its sequence of play as data, which the schema's turn tracker is
read from; ``facts.py`` its position facts; ``ruleset.py`` the object, one walk over the
orders for ``validate`` and ``carry_out``; ``cases.toml`` its rule cases) plus its module
data (``module/``). It touches nothing in ``referee/``: it is found through a ``referee.rulesets``
entry point, as an installed distribution declares one (``test_duel.py`` makes that
distribution's metadata), and plays a signed game through ``verify``.

The rules, each case cited by what applies it:

* [D1] Set-up: each destroyer starts where the scenario fixes it.
* [D2] Sequence: each Game-Turn, Blue acts, then Red; after the scenario's last turn, or when
  a ship is sunk, the game ends.
* [D3] Movement: ``move UNIT HEX``: an own ship moves to an adjacent hex not occupied.
* [D4] Gunfire: ``fire UNIT TARGET``: an own ship fires at an enemy ship within its GUN range
  (hexes); a die roll of 5 or 6 sinks the target.
* [D5] Victory: the side that sinks the other's ship wins; else a draw.
"""
