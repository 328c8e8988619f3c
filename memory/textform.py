"""The text form of a unit that is embedded: timestamp and speaker tags, as in RecMem."""

from __future__ import annotations

from datetime import datetime


def unit_text_form(*, occurred_at: datetime | None, user: str, assistant: str,
                   user_label: str = "user", assistant_label: str = "assistant") -> str:
    stamp = occurred_at.strftime("%Y-%m-%d %H:%M") if occurred_at else ""
    lines = [f"[{stamp}]"] if stamp else []
    if user:
        lines.append(f"{user_label}: {user}")
    if assistant:
        lines.append(f"{assistant_label}: {assistant}")
    return "\n".join(lines)
