"""Real geography for hex maps: ``referee map-from-geo``.

A designer gives a hex grid (the same ``[grid]`` keys as a module source's ``map.toml``) and a
few anchor hexes with their latitude and longitude. This package fits a map projection to the
anchors (:mod:`referee.geo.fit`), classifies every hex as sea, coastal or land from a
public-domain land mask (:mod:`referee.geo.landmask`, :mod:`referee.geo.classify`) and writes
the text map picture that ``referee/source/mappicture.py`` reads, plus an optional PNG preview
(:mod:`referee.geo.preview`). Everything except the land-mask reader and the preview is pure.
"""
