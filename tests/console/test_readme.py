"""The README's "Governance" section (what it must show): the pictures it shows are committed, are real
browser screenshots at the tests' 1400 px viewport, and the section gives the formula of each metric."""

from __future__ import annotations

import re
import struct
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text()


def _section(title: str) -> str:
    start = README.index(f"\n## {title}")
    end = README.index("\n## ", start + 1)
    return README[start:end]


def test_the_governance_section_shows_the_console_screenshots():
    section = _section("Governance")
    images = re.findall(r"!\[[^\]]+\]\((docs/img/[\w.]+\.png)\)", section)
    assert {"docs/img/dashboard.png", "docs/img/review.png", "docs/img/rollback_preview.png"} <= set(images)
    for image in images:
        data = (REPO / image).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", image
        width, height = struct.unpack(">II", data[16:24])
        assert width == 1400 and 300 < height < 4000, (image, width, height)  # tests/browser's viewport width
        assert len(data) < 1_000_000, image


def test_the_governance_section_gives_each_metrics_formula_and_the_api():
    section = _section("Governance")
    for formula in ("hit rate = (used + cited) / returned", "repetition rate = 100 × repetitions / exchanges",
                    "validity rate = a / n", "Wilson", "tokens             = prompt_tokens + completion_tokens",
                    "RECMEM_HIT_PROXY_MINUTES", "RECMEM_REVIEW_SIMILAR_MIN", "RECMEM_VALIDITY_SAMPLE_SIZE",
                    "RECMEM_METRICS_TOKEN"):
        assert formula in section, formula
    api = _section("API")
    for row in ("`POST /api/v1/feedback`", "`GET /api/v1/metrics`", "session?}", "search_id}"):
        assert row in api, row
    assert "a rejected proposal is not\n  asked again" not in README
