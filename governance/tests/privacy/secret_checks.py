"""What the secret tests ask of :func:`find_secrets`: the spans it found, and whether a value lies inside them."""

from __future__ import annotations

from governance.privacy.recognizers import find_secrets


def secret_spans(text: str) -> list[str]:
    return [text[f.start : f.end] for f in find_secrets(text)]


def covered(text: str, value: str) -> bool:
    """Every character of ``value`` (at its first occurrence) lies inside a finding."""
    start = text.index(value)
    inside = set()
    for f in find_secrets(text):
        inside.update(range(f.start, f.end))
    return all(i in inside for i in range(start, start + len(value)))
