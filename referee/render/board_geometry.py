"""The board image's pixel geometry as a value: :class:`BoardLayout` (and the legend's
entries), which :func:`referee.render.board.board_layout` decides and everything that draws on
the board reads (its layers, labels, islands, a designer's map picture, the overlays)."""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.hexgrid import HexGrid


@dataclass(frozen=True, slots=True)
class LegendEntry:
    kind: str  # terrain | airbase | defended | setup | area | all_land | border | place
    label: str
    key: str = ""


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """Pixel geometry of the board image at ``dpi``.

    ``grid`` is the module's map grid scaled to pixels (hex width a whole even number);
    ``grid.centre(h)`` is relative to the map's top-left corner, which sits at ``map_origin``
    in the image, so the centre of hex ``h`` in the image is ``grid.centre(h) + map_origin``
    (:meth:`pixel_centre`). ``width`` x ``height`` is the whole image: title band, map, legend.
    """

    dpi: int
    grid: HexGrid | None
    width: int
    height: int
    map_origin: tuple[int, int]
    map_size: tuple[int, int]
    title_height: int
    legend_top: int
    legend_height: int
    legend_columns: int
    legend: tuple[LegendEntry, ...] = field(default=())
    scale: float = 0.0  # image pixels per inch of the map's own coordinates (zones, spaces)
    offset: tuple[float, float] = (0.0, 0.0)  # the image pixel of the map's (0, 0)

    @classmethod
    def framed(
        cls,
        dpi: int,
        grid: HexGrid | None,
        map_size: tuple[int, int],
        legend: tuple[LegendEntry, ...],
        legend_grid: tuple[int, int],
        scale: float,
        margin: int,
    ) -> BoardLayout:
        """The one frame of every printed board: a title band, the map (``map_size`` pixels,
        its drawing ``margin`` pixels in), and the legend under it in ``legend_grid``
        (columns, rows); ``scale`` is image pixels per inch of the map's own coordinates."""
        map_w, map_h = map_size
        cols, rows = legend_grid
        title_h = round(0.55 * dpi)
        legend_h = round(0.2 * dpi) * 2 + round(0.3 * dpi) + rows * round(0.32 * dpi)
        return cls(
            dpi=dpi,
            grid=grid,
            width=map_w,
            height=title_h + map_h + legend_h,
            map_origin=(0, title_h),
            map_size=(map_w, map_h),
            title_height=title_h,
            legend_top=title_h + map_h,
            legend_height=legend_h,
            legend_columns=cols,
            legend=legend,
            scale=scale,
            offset=(float(margin), float(title_h + margin)),
        )

    @property
    def hex_width(self) -> int:
        return round(self.grid.hex_width) if self.grid is not None else round(0.5 * self.dpi)

    def px(self, p: tuple[float, float]) -> tuple[float, float]:
        """A point of the map's zones and spaces (inches from the map's top-left) in image
        pixels. On a hex map the inches are those of the hex grid without its margin."""
        return self.offset[0] + p[0] * self.scale, self.offset[1] + p[1] * self.scale

    def pixel_centre(self, hex_id: str) -> tuple[float, float]:
        """Centre of ``hex_id`` in image pixels (origin top-left, y down)."""
        assert self.grid is not None, "a map without a hex grid has no hex centres"
        x, y = self.grid.centre(hex_id)
        return x + self.map_origin[0], y + self.map_origin[1]

    def hex_at(self, x: float, y: float) -> str | None:
        """The hex under image pixel ``(x, y)``, or ``None`` (title band, legend, margin)."""
        if self.grid is None:
            return None
        return self.grid.hex_at(x - self.map_origin[0], y - self.map_origin[1])

    def corners(self, hex_id: str) -> list[tuple[float, float]]:
        """The six corners of a hex in image pixels."""
        assert self.grid is not None, "a map without a hex grid has no hexes"
        ox, oy = self.map_origin
        return [(x + ox, y + oy) for x, y in self.grid.corners(hex_id)]

    def hexside(self, a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two end points of the hexside between adjacent hexes ``a`` and ``b``."""
        bx, by = self.pixel_centre(b)
        cs = sorted(self.corners(a), key=lambda p: ((p[0] - bx) ** 2 + (p[1] - by) ** 2, p))
        return cs[0], cs[1]

    def scaled(self, k: int) -> BoardLayout:
        """The same layout ``k`` times larger (for oversampled drawing)."""
        grid = self.grid
        return BoardLayout(
            dpi=self.dpi * k,
            grid=None
            if grid is None
            else grid.scaled(hex_width=grid.hex_width * k, margin=grid.margin * k),
            width=self.width * k,
            height=self.height * k,
            map_origin=(self.map_origin[0] * k, self.map_origin[1] * k),
            map_size=(self.map_size[0] * k, self.map_size[1] * k),
            title_height=self.title_height * k,
            legend_top=self.legend_top * k,
            legend_height=self.legend_height * k,
            legend_columns=self.legend_columns,
            legend=self.legend,
            scale=self.scale * k,
            offset=(self.offset[0] * k, self.offset[1] * k),
        )
