"""The play-by-email referee: game archive, signing, verifiable dice, adjudication, reports.

Players in a PBEM game must trust that the moderator applied the rules, did not reroll dice
and did not alter the record. This package makes that checkable by anyone:

* every orders file is signed by its side's key (:mod:`referee.pbem.envelope`);
* every report is signed by the referee and chains to the previous one by hash
  (:mod:`referee.pbem.record`);
* every die roll is derived from a committed seed and the hash of the orders
  (:mod:`referee.pbem.dice`), so the referee cannot choose it and no player can predict it;
* ``referee verify`` replays the whole game from the set-up (:mod:`referee.pbem.verify`).

See ``docs/pbem.md`` and ``docs/dice.md``.
"""
