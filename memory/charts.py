"""Server-rendered SVG line charts for the dashboard: no JavaScript, no CDN, nothing but markup.

A chart is days on x and one or more series on y; gaps (None) break a line; an optional band (e.g. a confidence
interval) is drawn behind the first series.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

PALETTE = ["#2f6fb3", "#d9822b", "#3f9c4f", "#a04bb0", "#c23b3b", "#6c757d"]
WIDTH, HEIGHT = 460, 170
LEFT, RIGHT, TOP, BOTTOM = 46, 22, 12, 34


@dataclass
class Series:
    label: str
    values: list[float | None]
    color: str = ""


@dataclass
class Chart:
    title: str
    days: list[date]
    series: list[Series]
    unit: str = ""  # "%" shows 0..1 values as percentages
    band: tuple[list[float | None], list[float | None]] | None = None
    formula: str = ""
    y_max: float | None = None
    svg: SafeString = field(default=SafeString(""))


def _fmt(value: float, unit: str) -> str:
    if unit == "%":
        return f"{100 * value:.0f}%"
    if abs(value) >= 10000:
        return f"{value / 1000:.0f}k"
    if abs(value) >= 100 or value == int(value):
        return f"{value:.0f}"
    return f"{value:.2f}"


def render(chart: Chart) -> SafeString:
    """The chart as an inline ``<svg>`` element (with a <title> per point for the exact value)."""
    n = len(chart.days)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    values = [v for s in chart.series for v in s.values if v is not None]
    if chart.band:
        values += [v for v in chart.band[1] if v is not None]
    top = chart.y_max if chart.y_max is not None else (max(values) if values else 1.0)
    top = top or 1.0

    def x(i: int) -> float:
        return LEFT + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(v: float) -> float:
        return TOP + plot_h * (1 - min(v, top) / top)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'aria-label="{escape(chart.title)}" class="rm-svg">']
    for frac in (0, 0.5, 1):  # grid and y labels
        gy = TOP + plot_h * (1 - frac)
        parts.append(f'<line x1="{LEFT}" y1="{gy:.1f}" x2="{WIDTH - RIGHT}" y2="{gy:.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{LEFT - 4}" y="{gy + 4:.1f}" font-size="10" text-anchor="end" fill="#666">'
                     f'{escape(_fmt(top * frac, chart.unit))}</text>')
    if n:
        for i in sorted({0, n // 2, n - 1}):
            parts.append(f'<text x="{x(i):.1f}" y="{HEIGHT - BOTTOM + 14}" font-size="10" text-anchor="middle" '
                         f'fill="#666">{chart.days[i]:%m-%d}</text>')
    if not values:
        parts.append(f'<text x="{LEFT + plot_w / 2:.0f}" y="{TOP + plot_h / 2:.0f}" font-size="12" '
                     f'text-anchor="middle" fill="#999">no data yet</text>')
    if chart.band and n:
        low, high = chart.band
        idx = [i for i in range(n) if low[i] is not None and high[i] is not None]
        if idx:
            pts = [f"{x(i):.1f},{y(high[i]):.1f}" for i in idx] + [f"{x(i):.1f},{y(low[i]):.1f}" for i in idx[::-1]]
            color = chart.series[0].color or PALETTE[0]
            parts.append(f'<polygon points="{" ".join(pts)}" fill="{color}" fill-opacity="0.15" stroke="none">'
                         '<title>95% confidence interval</title></polygon>')
            for i in idx:  # whiskers: a lone day has an interval too
                parts.append(f'<line x1="{x(i):.1f}" y1="{y(low[i]):.1f}" x2="{x(i):.1f}" y2="{y(high[i]):.1f}" '
                             f'stroke="{color}" stroke-opacity="0.5" stroke-width="3">'
                             f'<title>95% interval {escape(_fmt(low[i], chart.unit))}–'
                             f'{escape(_fmt(high[i], chart.unit))}</title></line>')
    for k, s in enumerate(chart.series):
        color = s.color or PALETTE[k % len(PALETTE)]
        run: list[str] = []
        runs: list[list[str]] = []
        for i, v in enumerate(s.values):
            if v is None:
                if run:
                    runs.append(run)
                run = []
                continue
            run.append(f"{x(i):.1f},{y(v):.1f}")
            parts.append(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="2.2" fill="{color}">'
                         f'<title>{escape(s.label)} {chart.days[i]}: {escape(_fmt(v, chart.unit))}</title></circle>')
        if run:
            runs.append(run)
        for r in runs:
            if len(r) > 1:
                parts.append(f'<polyline points="{" ".join(r)}" fill="none" stroke="{color}" stroke-width="1.8"/>')
        lx = LEFT + 4 + k * (plot_w / max(len(chart.series), 1))
        last = next((v for v in reversed(s.values) if v is not None), None)
        label = s.label + (f" {_fmt(last, chart.unit)}" if last is not None else "")
        parts.append(f'<rect x="{lx:.1f}" y="{HEIGHT - 13}" width="9" height="9" fill="{color}"/>'
                     f'<text x="{lx + 12:.1f}" y="{HEIGHT - 5}" font-size="10" fill="#333">{escape(label)}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every text above is escaped; numbers are formatted here
