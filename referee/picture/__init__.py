"""The picture of a position: ``position.svg`` in every turn folder, and the PNG before it.

``svg`` draws the SVG text ``verify`` proves on any machine; ``png`` holds the marks and the
keys both share and the raster picture earlier versions wrote. Drawn on the board of
:mod:`referee.render.board`, so the hexes are those of the printed map and the module.
"""
