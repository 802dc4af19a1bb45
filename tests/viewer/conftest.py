"""Fixtures of the viewer tests: the demo game (its archive holds each step's viewer files),
and a real headless Chromium from Debian's packages driven through Selenium.

The browser is the system one (``/usr/bin/chromium`` with its matching
``/usr/bin/chromedriver``, ``apt-get install chromium chromium-driver``); nothing is
downloaded at run time. Where it or ``selenium`` is missing the browser tests are skipped
with the reason, except under ``CI=true`` when the browser is installed: there they fail.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tests.conftest import DemoRun

CHROMIUM = Path(os.environ.get("REFEREE_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("REFEREE_CHROMEDRIVER", "/usr/bin/chromedriver"))
BLOCKED = ["http://*", "https://*", "ws://*", "wss://*", "ftp://*"]


@pytest.fixture(scope="session")
def demo_game(finished_demo: Callable[[str], DemoRun]) -> Path:
    """The ``make demo-sf`` output folder, the session's shared one: ``game/``, ``viewer/``..."""
    return finished_demo("sixth_fleet").out


def _why_no_browser() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    for p in (CHROMIUM, CHROMEDRIVER):
        if not p.is_file() and shutil.which(p.name) is None:
            return f"{p} is missing (apt-get install chromium chromium-driver)"
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium with every network request blocked (DevTools ``setBlockedURLs``),
    one for the test process's whole session."""
    yield from _chromium(performance_log=False)


@pytest.fixture
def logged_browser() -> Iterator[Any]:
    """A headless Chromium of the test's own with the performance log on too, so the test
    can list every URL the page asked for. The session's :func:`browser` has it off: the log
    keeps every request of every page, a viewer's pictures inlined as ``data:`` URLs of up
    to 1.4 MB among them, which ChromeDriver copies for each load (about 10 ms) and again
    when the log is read (about 35 ms a page)."""
    yield from _chromium(performance_log=True)


def _chromium(performance_log: bool) -> Iterator[Any]:
    why = _why_no_browser()
    if why is not None:
        if os.environ.get("CI") == "true" and CHROMIUM.is_file():
            pytest.fail(f"CI=true and Chromium is installed, but: {why}")
        pytest.skip(f"no headless browser: {why}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for a in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1400,900",
        "--force-device-scale-factor=1",
        "--proxy-server=127.0.0.1:9",  # nothing may leave the machine either
        # no background work a test has no use for (updates, sync, extensions, first-run)
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-sync",
        "--no-first-run",
        "--mute-audio",
    ):
        opts.add_argument(a)
    logs = {"browser": "ALL", **({"performance": "ALL"} if performance_log else {})}
    opts.set_capability("goog:loggingPrefs", logs)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=opts)
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": BLOCKED})
        yield driver
    finally:
        from tests.conftest import count_apart, cpu_now

        start = cpu_now()
        driver.quit()  # chromedriver reaped, and with it every Chromium process's CPU
        count_apart("tests/viewer/conftest.py::browser (Chromium)", cpu_now() - start)


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: ``$REFEREE_VIEWER_SHOTS`` (to look at them), else a tmp dir,
    where :func:`tests.viewer.drafting.snap` takes none (nobody would look)."""
    folder = Path(os.environ.get("REFEREE_VIEWER_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
