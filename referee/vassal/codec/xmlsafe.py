"""Safe parsing of the XML inside VASSAL archives (``savedata``, ``moduledata``, buildFiles).

Those documents come from other people's zips (vassal-format.md §2.2, §3, §6.1), so they
are parsed as hostile input. VASSAL itself never writes a DOCTYPE, and a DOCTYPE is what
every XML attack needs: entity expansion ("billion laughs"), external entities that read
local files or fetch URLs, DTD loading. So the rule is simple: refuse any document with a
DOCTYPE or ENTITY declaration, and parse the rest with a libxml2 parser that resolves no
entities, loads no DTD, touches no network and keeps libxml2's size and depth limits
(``huge_tree=False``).
"""

from __future__ import annotations

import codecs
import re
from typing import Final

from lxml import etree

from referee.vassal.codec.errors import VassalFormatError

__all__ = ["MAX_XML_BYTES", "parse_xml_bytes"]

MAX_XML_BYTES: Final = 64 * 1024 * 1024
"""Largest XML document accepted (a 3.7 buildFile with 2,000 pieces is about 1 MiB)."""

_DECLARATION: Final = re.compile(r"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)
_DECLARATION_BYTES: Final = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)
_DTD_HINT: Final = (
    "VASSAL never writes a DOCTYPE; this file may be crafted to attack XML readers "
    "(entity expansion or external entities)"
)
_BOMS: Final = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def _make_parser() -> etree.XMLParser:
    """A fresh parser per call: lxml parsers must not be shared between threads."""
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        dtd_validation=False,
        attribute_defaults=False,
        collect_ids=False,
    )


def _has_declaration(data: bytes) -> bool:
    """Cheap scan for a DOCTYPE/ENTITY declaration before libxml2 sees the bytes.

    Documents in UTF-16/32 are recognised by their byte-order mark; anything the scan
    misses is still caught after parsing by the ``docinfo`` check.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _DECLARATION.search(data.decode(encoding, errors="replace")) is not None
    return _DECLARATION_BYTES.search(data) is not None


def parse_xml_bytes(data: bytes, source: str) -> etree._Element:
    """Parse ``data`` as XML and return the root element, refusing anything unsafe.

    ``source`` names the document in error messages (for example
    ``"game.vsav!savedata"``). Raises :class:`VassalFormatError` for a DOCTYPE or ENTITY
    declaration, entity references, documents over :data:`MAX_XML_BYTES`, and XML that is
    not well-formed.
    """
    if len(data) > MAX_XML_BYTES:
        raise VassalFormatError(
            source,
            f"XML document is {len(data)} bytes, over the {MAX_XML_BYTES} byte limit",
            "the file is not a normal VASSAL document",
        )
    if _has_declaration(data):
        raise VassalFormatError(
            source, "XML with a DOCTYPE/ENTITY declaration is refused", _DTD_HINT
        )
    try:
        root = etree.fromstring(data, _make_parser())
    except etree.XMLSyntaxError as exc:
        line = f" (line {exc.lineno})" if exc.lineno else ""
        raise VassalFormatError(
            source,
            f"not well-formed XML: {exc.msg}{line}",
            "the file is damaged or is not VASSAL XML",
        ) from None
    except ValueError as exc:  # e.g. lxml refusing input it cannot parse at all
        raise VassalFormatError(source, f"cannot parse XML: {exc}", "the file is damaged") from None
    docinfo = root.getroottree().docinfo
    if docinfo.doctype or docinfo.internalDTD is not None or docinfo.externalDTD is not None:
        raise VassalFormatError(
            source, "XML with a DOCTYPE/ENTITY declaration is refused", _DTD_HINT
        )
    if any(True for _ in root.iter(etree.Entity)):
        raise VassalFormatError(source, "XML with entity references is refused", _DTD_HINT)
    return root
