"""A rating's history as a small inline SVG, drawn on the server: no script, and readable
without sight (a <title> and a <desc> that say what the line shows, role="img")."""
from __future__ import annotations

from datetime import datetime

from markupsafe import Markup, escape

from service.mailwire.outbound.catalogs import _, ngettext

WIDTH, HEIGHT, PAD = 240, 60, 4


def chart(kind: str, title: str, points: list[tuple[datetime, float]]) -> Markup:
    """The ratings after each rated game of `kind` (an id, unique on the page), oldest first,
    as a line; '' for no games."""
    if not points:
        return Markup("")
    values = [round(v) for _, v in points]
    low, high = min(values), max(values)
    span = (high - low) or 1
    step = (WIDTH - 2 * PAD) / max(len(values) - 1, 1)

    def y(v: int) -> float:
        return HEIGHT - PAD - (v - low) * (HEIGHT - 2 * PAD) / span

    line = " ".join(f"{PAD + n * step:.1f},{y(v):.1f}" for n, v in enumerate(values))
    desc = ngettext("%(num)d rated game: from %(first)s to %(last)s, lowest %(low)s, "
                    "highest %(high)s.",
                    "%(num)d rated games: from %(first)s to %(last)s, lowest %(low)s, "
                    "highest %(high)s.", len(values),
                    first=values[0], last=values[-1], low=low, high=high)
    label = _("%(title)s rating history", title=title)
    ident = escape(f"chart-{kind}")
    dot = f"{PAD + (len(values) - 1) * step:.1f},{y(values[-1]):.1f}".split(",")
    return Markup(
        f'<svg class="rating-chart" role="img" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" aria-labelledby="{ident}-t {ident}-d">'
        f'<title id="{ident}-t">{escape(label)}</title>'
        f'<desc id="{ident}-d">{escape(desc)}</desc>'
        f'<polyline fill="none" stroke="#2d5a3d" stroke-width="2" points="{line}"/>'
        f'<circle cx="{dot[0]}" cy="{dot[1]}" r="3" fill="#2d5a3d"/></svg>')
