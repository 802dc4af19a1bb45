"""CMYK output for a print shop (issue 18 §8): colours and pictures converted to the shop's
named output profile, and the profile carried in the PDF as its OutputIntent.

A print shop asks for CMYK in *its* profile (e.g. "ISO Coated v2 (ECI)" / FOGRA39, GRACoL,
SWOP), so the profile is the ICC file the shop names, read here and checked: a CMYK output
(``prtr``) profile. Colours go sRGB -> profile through LittleCMS (Pillow's ``ImageCms``,
relative colorimetric with black-point compensation, the usual choice for flat colours), with
one exception: a neutral grey (R = G = B, black text, cut lines, crop marks) becomes black ink
only (K), because a four-ink "rich black" on 5-8 pt text blurs with the slightest
misregistration and crop marks must be printed in every separation by the shop, not by us.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageCms

from referee.errors import UserError
from referee.render.colors import parse_color

MAX_PROFILE_BYTES = 16 * 1024 * 1024

CMYK = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class CmykProfile:
    """A checked CMYK output profile: its bytes (embedded in the PDF), its name (the
    profile's description, what the PDF's OutputIntent names) and the sRGB -> CMYK
    transform."""

    path: Path
    name: str
    data: bytes = field(repr=False)
    transform: ImageCms.ImageCmsTransform = field(repr=False, compare=False)

    def color(self, value: str) -> CMYK:
        """``value`` (``#RRGGBB`` or a name) as CMYK fractions 0..1; greys as K only."""
        return _convert(self, parse_color(value))

    def image(self, img: Image.Image) -> Image.Image:
        """An opaque picture in this profile's CMYK."""
        return ImageCms.applyTransform(img.convert("RGB"), self.transform)


def _convert(profile: CmykProfile, rgb: tuple[int, int, int]) -> CMYK:
    return _convert_cached(profile.data, profile.transform, rgb)


@lru_cache(maxsize=4096)
def _convert_cached(
    _key: bytes, transform: ImageCms.ImageCmsTransform, rgb: tuple[int, int, int]
) -> CMYK:
    r, g, b = rgb
    if r == g == b:
        return (0.0, 0.0, 0.0, round(1.0 - r / 255.0, 4))
    px = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), transform).getpixel((0, 0))
    c, m, y, k = px  # type: ignore[misc]
    return (round(c / 255.0, 4), round(m / 255.0, 4), round(y / 255.0, 4), round(k / 255.0, 4))


def load_cmyk_profile(spec: str | Path) -> CmykProfile:
    """Read and check the ICC profile file ``spec`` (``--cmyk PROFILE``).

    Refused with a UserError (exit 2): a missing or unreadable file, a file that is not an
    ICC profile, or a profile that is not a CMYK output profile (an RGB or monitor profile
    cannot describe a press)."""
    path = Path(spec)
    where = f"--cmyk {spec}"
    try:
        size = path.stat().st_size
    except OSError:
        raise UserError(
            f"{where}: no such file",
            hint="name the ICC profile file your print shop gave you (e.g. "
            "ISOcoated_v2_eci.icc, GRACoL2013_CRPC6.icc)",
        ) from None
    if not path.is_file():
        raise UserError(f"{where}: not a file", hint="name an .icc or .icm file")
    if size > MAX_PROFILE_BYTES:
        raise UserError(
            f"{where}: {size:,} bytes; an ICC profile is at most {MAX_PROFILE_BYTES:,}",
            hint="name an .icc or .icm file",
        )
    data = path.read_bytes()
    try:
        prof = ImageCms.ImageCmsProfile(ImageCms.core.profile_frombytes(data))
    except (OSError, ValueError, TypeError, ImageCms.PyCMSError) as exc:
        raise UserError(
            f"{where}: not a readable ICC profile ({exc})", hint="name an .icc or .icm file"
        ) from None
    space = prof.profile.xcolor_space.strip()
    if space != "CMYK" or prof.profile.device_class != "prtr":
        raise UserError(
            f"{where}: a {space} {prof.profile.device_class!r} profile, not a CMYK output "
            "(printer) profile",
            hint="ask the print shop for its CMYK output profile (e.g. FOGRA39, GRACoL)",
        )
    name = (prof.profile.profile_description or path.stem).strip() or path.stem
    try:
        transform = ImageCms.buildTransform(
            ImageCms.createProfile("sRGB"),
            prof,
            "RGB",
            "CMYK",
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
            flags=ImageCms.Flags.BLACKPOINTCOMPENSATION,
        )
    except ImageCms.PyCMSError as exc:
        raise UserError(
            f"{where}: LittleCMS cannot convert to this profile ({exc})",
            hint="ask the print shop for its CMYK output profile",
        ) from None
    return CmykProfile(path, name, data, transform)
