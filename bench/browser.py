"""Headless Chromium for the benchmarks that time a page opening (not a benchmark itself:
``make bench`` runs the ``bench_*.py`` scripts): Debian's ``chromium`` and ``chromedriver``
driven by ``selenium``, as the Chromium tests of ``tests/viewer/`` drive them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


@contextmanager
def headless_chromium() -> Iterator[Any | None]:
    """A headless Chromium WebDriver, quit on leaving; ``None`` when ``selenium`` is not
    importable or the browser is not installed (the benchmark then leaves the open times
    out)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        yield None
        return
    if not (CHROMIUM.is_file() and CHROMEDRIVER.is_file()):
        yield None
        return
    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        opts.add_argument(a)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=opts)
    try:
        yield driver
    finally:
        driver.quit()
