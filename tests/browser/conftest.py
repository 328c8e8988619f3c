"""A real browser for the admin: Debian's chromium driven by Playwright's Python API (``executable_path``; the
browser Playwright would download itself cannot be fetched here). ``make test`` installs the ``chromium`` package
when it is missing and the run is root; otherwise it says how. A missing browser fails these tests, it never skips
them. Every external request is aborted, so a page that needs the network shows it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.contrib.auth.models import User

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
README_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "img"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
LOCAL = {"127.0.0.1", "localhost", "[::1]", "::1"}


def chromium_path() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    pytest.fail("no chromium on this machine: `make test` installs it when run as root; otherwise run "
                "`sudo apt-get install chromium` (Debian) and run the tests again", pytrace=False)


@pytest.fixture(scope="package")
def browser():
    """One browser for this package's tests, gone before the next package: Playwright's sync API keeps an event loop
    running in the test's thread while it lives, which the asyncio tests of other packages cannot share. Meanwhile
    Django would refuse the tests' own ORM calls (made between browser steps, never concurrently with them) as
    "async unsafe", so that check is lifted for this package only."""
    from playwright.sync_api import sync_playwright

    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(), args=FLAGS, headless=True)
            yield browser
            browser.close()
    finally:
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(viewport={"width": 1400, "height": 900}, base_url=live_server.url)
    blocked: list[str] = []

    def offline(route):
        host = urlparse(route.request.url).hostname or ""
        if host in LOCAL:
            route.continue_()
        else:  # nothing may come from outside (no CDN): record and refuse it
            blocked.append(route.request.url)
            route.abort()

    context.route("**/*", offline)
    page = context.new_page()
    page.blocked = blocked
    page.set_default_timeout(20_000)
    yield page
    context.close()
    assert not blocked, f"the page asked for outside resources: {blocked}"


@pytest.fixture
def logged_in(page, transactional_db):
    """A superuser logged in through the admin's login form."""
    User.objects.create_superuser("reviewer", "reviewer@example.com", "pw-reviewer-123")
    page.goto("/admin/login/?next=/admin/")
    page.fill("#id_username", "reviewer")
    page.fill("#id_password", "pw-reviewer-123")
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/")
    return page


def screenshot(page, name: str, *, readme_until: str | None = None) -> Path:
    """A full-page screenshot in tests/browser/screenshots/ (every run; not committed).

    The README's pictures (docs/img/dashboard.png, review.png, rollback_preview.png) are these pages, taken by the
    same tests against the same data: ``make screenshots`` (RECMEM_README_SCREENSHOTS=1) also writes the page, from
    its top down to the bottom of the ``readme_until`` element, to docs/img/."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    if readme_until and os.environ.get("RECMEM_README_SCREENSHOTS") == "1":
        box = page.locator(readme_until).bounding_box()
        height = page.evaluate("window.scrollY") + box["y"] + box["height"] + 16
        width = page.viewport_size["width"]
        README_IMAGES.mkdir(exist_ok=True)
        page.screenshot(path=str(README_IMAGES / f"{name}.png"), full_page=True,
                        clip={"x": 0, "y": 0, "width": width, "height": height})
    return path
