"""One picture of the table for a turn email: the reader's hand and the cards on the table, drawn
with the card faces (service.cardfaces) in rows as they lie, rendered to PNG (resvg) and sent
inline for the mail clients that show images, with the same rows as its alternative text.
Built from the seat's view only, so it shows nothing the seat may not know."""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

import resvg_py

from service.cardfaces import H, UnknownCard, W, svg
from service.games import cards

SCALE = 0.5
CW, CH = W * SCALE, H * SCALE          # a card in the picture
GAP, PER_LINE, LABEL = 6, 8, 22


@dataclass(frozen=True)
class Picture:
    png: bytes
    alt: str
    width: int
    height: int


def _flatten(node: dict) -> list[str]:
    return [node["card"], *[c for child in node.get("children", []) for c in _flatten(child)]]


def _who(seat: int, names: list[str], me: int | None) -> str:
    return "you" if seat == me else names[seat] if seat < len(names) else "another player"


def rows(view: dict, names: list[str], me: int | None) -> list[tuple[str, list[str]]]:
    """(label, card ids) per row: the hand first, then the table as the game lays it out."""
    out = [("Your hand", list(view["hand"]))] if view.get("hand") else []
    game = view.get("game")
    if game == "trees":
        out += [(f"{t['name'][:1].upper()}{t['name'][1:]}", _flatten(t["tree"]))
                for t in view.get("trees", [])]
    elif game == "magnate":
        for d in view.get("districts", []):
            for col in d.get("columns", []):
                if col["cards"]:
                    out.append((f"District {d['number']}, {_who(col['seat'], names, me)}",
                                [x["card"] for x in col["cards"]]))
    elif game == "suzerain":
        if view.get("table"):
            out.append((f"Led by {_who(view['table']['seat'], names, me)}",
                        [view["table"]["card"]]))
        out.append(("Face up", list(view.get("display", []))))
    elif game == "aristocracy":
        out.append(("Market", list(view.get("market", []))))
        out.append(("Discards face up", list(view.get("discard_face_up", []))))
    return [(label, ids) for label, ids in out if ids]


def _face(card_id: str, x: float, y: float) -> str:
    face = svg(card_id)
    inner = face[face.index(">") + 1:face.rindex("</svg>")]
    return f'<g transform="translate({x} {y}) scale({SCALE})">{inner}</g>'


def _tree(node: dict, x0: float, y: float, parts: list[str]) -> tuple[float, float]:
    """Draw `node` with its children in a row below it, from x0; returns (width, bottom)."""
    kids, x, bottom = node.get("children", []), x0, y + CH
    spots = []
    for child in kids:
        w, b = _tree(child, x, y + CH + 2 * GAP, parts)
        spots.append(x + w / 2)
        x, bottom = x + w + GAP, max(bottom, b)
    width = max(CW, x - x0 - GAP if kids else CW)
    cx = x0 + width / 2
    for sx in spots:          # the branches, drawn under the cards
        parts.insert(0, f'<line x1="{cx}" y1="{y + CH}" x2="{sx}" y2="{y + CH + 2 * GAP}" '
                        'stroke="#5f5a52" stroke-width="2"/>')
    parts.append(_face(node["card"], cx - CW / 2, y))
    return width, bottom


def board_svg(laid: list[tuple[str, list[str]]],
              trees: dict[str, dict] | None = None) -> tuple[str, int, int]:
    """The rows of cards; a row whose label is in `trees` is drawn as that tree."""
    width = int(GAP + PER_LINE * (CW + GAP))
    parts, y = [], GAP
    for label, ids in laid:
        parts.append(f'<text x="{GAP}" y="{y + 15}" font-family="Helvetica, Arial, sans-serif" '
                     f'font-size="14" font-weight="bold" fill="#1f1d1a">{escape(label)}</text>')
        y += LABEL
        if trees and label in trees:
            drawn: list[str] = []
            w, bottom = _tree(trees[label], GAP, y, drawn)
            parts += drawn
            width, y = max(width, int(w + 2 * GAP)), bottom + GAP
            continue
        for start in range(0, len(ids), PER_LINE):
            for i, card_id in enumerate(ids[start:start + PER_LINE]):
                parts.append(_face(card_id, GAP + i * (CW + GAP), y))
            y += CH + GAP
    height = int(y + GAP)
    body = "".join(parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}"><rect width="100%" height="100%" '
            f'fill="#f4f1ea"/>{body}</svg>', width, height)


@dataclass(frozen=True)
class Drawing:
    svg: str
    alt: str
    width: int
    height: int


def drawing(view: dict, names: list[str], me: int | None) -> Drawing | None:
    """The table as SVG with its alternative text, or None when there is nothing to draw."""
    laid = rows(view, names, me)
    if not laid:
        return None
    trees = {f"{t['name'][:1].upper()}{t['name'][1:]}": t["tree"]
             for t in view.get("trees", [])} if view.get("game") == "trees" else None
    try:
        image, width, height = board_svg(laid, trees)
    except UnknownCard:
        return None
    alt = "The table: " + "; ".join(
        f"{label}: " + ", ".join(cards.name(c) for c in ids) for label, ids in laid) + "."
    return Drawing(image, alt, width, height)


def picture(view: dict, names: list[str], me: int | None) -> Picture | None:
    """The table as a PNG with its alternative text, for email."""
    drawn = drawing(view, names, me)
    if drawn is None:
        return None
    return Picture(bytes(resvg_py.svg_to_bytes(svg_string=drawn.svg)), drawn.alt,
                   drawn.width, drawn.height)
