"""One picture of the table for a turn email: the reader's hand and the cards on the table, drawn
with the card faces (service.display.cardfaces) in rows as they lie, rendered to PNG (resvg) and sent
inline for the mail clients that show images, with the same rows as its alternative text.
Built from the seat's view only, so it shows nothing the seat may not know."""
from __future__ import annotations

import io
import os
import struct
import zlib
from dataclasses import dataclass
from functools import cache, lru_cache
from html import escape

import resvg_py
from isal import isal_zlib
from PIL import Image, ImageDraw, ImageFont

from service.games import cards
from service.games.cards import decktet, french
from service.mailwire.outbound.catalogs import _

from .cardfaces import H, UnknownCard, W, svg

#: Freed image memory Pillow keeps for the next image (its block allocator, PILLOW_BLOCKS_MAX;
#: Pillow's default, 0, hands each block back to the system at once). A table picture's
#: canvas is 0.1-2.5 MB: given back after each email and asked for again for the next, its
#: pages were fresh each time, and the page faults and the zeroing dominated drawing it and
#: slowed the rest of composing the email. Two blocks kept (the canvas and a tile being
#: blended) hold at most two images' worth, at most 2 x 16 MB (Pillow's block size) should
#: something draw a larger image. An operator's PILLOW_BLOCKS_MAX is left as set.
#: (The figures: docs/performance.md, "Figures behind the code's choices".)
KEPT_BLOCKS = 2


def keep_freed_blocks() -> None:
    if "PILLOW_BLOCKS_MAX" not in os.environ:
        Image.core.set_blocks_max(max(KEPT_BLOCKS, Image.core.get_blocks_max()))


keep_freed_blocks()

SCALE = 0.5
CW, CH = round(W * SCALE), round(H * SCALE)    # a card in the picture, in whole pixels
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
    return _("you") if seat == me else names[seat] if seat < len(names) else _("another player")


def rows(view: dict, names: list[str], me: int | None) -> list[tuple[str, list[str]]]:
    """(label, card ids) per row: the hand first, then the table as the game lays it out.
    The labels are in the language of the moment (the reader's); a Trees row keeps its
    tree's name as the engine gives it, which is how `_trees` finds its layout."""
    out = [(_("Your hand"), list(view["hand"]))] if view.get("hand") else []
    game = view.get("game")
    if game == "trees":
        out += [(f"{t['name'][:1].upper()}{t['name'][1:]}", _flatten(t["tree"]))
                for t in view.get("trees", [])]
    elif game == "magnate":
        for d in view.get("districts", []):
            for col in d.get("columns", []):
                if col["cards"]:
                    out.append((_("District %(number)s, %(who)s", number=d["number"],
                                  who=_who(col["seat"], names, me)),
                                [x["card"] for x in col["cards"]]))
    elif game == "suzerain":
        if view.get("table"):
            out.append((_("Led by %(who)s", who=_who(view["table"]["seat"], names, me)),
                        [view["table"]["card"]]))
        out.append((_("Face up"), list(view.get("display", []))))
    elif game == "aristocracy":
        out.append((_("Market"), list(view.get("market", []))))
        out.append((_("Discards face up"), list(view.get("discard_face_up", []))))
    return [(label, ids) for label, ids in out if ids]


# -- the layout: where each label, card and branch goes, for either renderer ------------------

@dataclass(frozen=True)
class Label:
    text: str
    x: int
    y: int          # the top of the label's line


@dataclass(frozen=True)
class Face:
    card: str
    x: int
    y: int


@dataclass(frozen=True)
class Branch:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    marks: tuple          # Labels, Faces and Branches, in drawing order (branches first)


def _tree(node: dict, x0: float, y: float, faces: list, branches: list) -> tuple[float, float]:
    """Lay out `node` with its children in a row below it, from x0; returns (width, bottom)."""
    kids, x, bottom = node.get("children", []), x0, y + CH
    spots = []
    for child in kids:
        w, b = _tree(child, x, y + CH + 2 * GAP, faces, branches)
        spots.append(x + w / 2)
        x, bottom = x + w + GAP, max(bottom, b)
    width = max(CW, x - x0 - GAP if kids else CW)
    cx = x0 + width / 2
    branches += [Branch(cx, y + CH, sx, y + CH + 2 * GAP) for sx in spots]
    # whole pixels: a card tile pasted between pixels would blur
    faces.append(Face(node["card"], round(cx - CW / 2), round(y)))
    return width, bottom


def layout(laid: list[tuple[str, list[str]]], trees: dict[str, dict] | None = None) -> Layout:
    """The rows of cards; a row whose label is in `trees` is laid out as that tree."""
    width = int(GAP + PER_LINE * (CW + GAP))
    labels, faces, branches, y = [], [], [], GAP
    for label, ids in laid:
        labels.append(Label(label, GAP, y))
        y += LABEL
        if trees and label in trees:
            w, bottom = _tree(trees[label], GAP, y, faces, branches)
            width, y = max(width, int(w + 2 * GAP)), bottom + GAP
            continue
        for start in range(0, len(ids), PER_LINE):
            for i, card_id in enumerate(ids[start:start + PER_LINE]):
                faces.append(Face(card_id, int(GAP + i * (CW + GAP)), y))
            y += CH + GAP
    for face in faces:
        svg(face.card)            # an unknown card fails the layout, not the renderer
    return Layout(width, int(y + GAP), (*branches, *labels, *faces))


# -- as SVG (the game page) --------------------------------------------------------------------

LABEL_INK, LABEL_SIZE, LABEL_BASELINE = "#1f1d1a", 14, 15
# the email's PNG draws the same with label_font
LABEL_STYLE = (f'font-family="Helvetica, Arial, sans-serif" font-size="{LABEL_SIZE}" '
               f'font-weight="bold" fill="{LABEL_INK}"')
BRANCH_INK, GROUND = "#5f5a52", "#f4f1ea"


def _face(card_id: str, x: float, y: float) -> str:
    face = svg(card_id)
    inner = face[face.index(">") + 1:face.rindex("</svg>")]
    return f'<g transform="translate({x} {y}) scale({SCALE})">{inner}</g>'


def _svg_mark(mark) -> str:
    if isinstance(mark, Branch):
        return (f'<line x1="{mark.x1}" y1="{mark.y1}" x2="{mark.x2}" y2="{mark.y2}" '
                f'stroke="{BRANCH_INK}" stroke-width="2"/>')
    if isinstance(mark, Label):
        return (f'<text x="{mark.x}" y="{mark.y + LABEL_BASELINE}" {LABEL_STYLE}>'
                f'{escape(mark.text)}</text>')
    return _face(mark.card, mark.x, mark.y)


def board_svg(laid: list[tuple[str, list[str]]],
              trees: dict[str, dict] | None = None) -> tuple[str, int, int]:
    """The rows of cards as one SVG; a row whose label is in `trees` is drawn as that tree."""
    plan = layout(laid, trees)
    body = "".join(_svg_mark(m) for m in plan.marks)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{plan.width}" '
            f'height="{plan.height}" viewBox="0 0 {plan.width} {plan.height}"><rect '
            f'width="100%" height="100%" fill="{GROUND}"/>{body}</svg>', plan.width, plan.height)


# -- as PNG (the email): tiles drawn once per process, put together with Pillow -----------------
# Drawing the whole table as one SVG shapes the same card faces' text again for every email;
# a tile per card and per label is drawn the first time it is needed, then reused.

def _png(svg_text: str) -> Image.Image:
    return Image.open(io.BytesIO(bytes(resvg_py.svg_to_bytes(svg_string=svg_text)))).convert("RGBA")


# the tiles are kept per face, not per copy: a double deck's two 8VLs are drawn once
@cache
def _card_tile(card_id: str) -> Image.Image:
    w, h = int(CW), int(CH)
    return _png(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                f'viewBox="0 0 {w} {h}">{_face(card_id, 0, 0)}</svg>')


@lru_cache(maxsize=1024)
def _label_tile(text: str, width: int) -> Image.Image:
    return _png(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{LABEL}" '
                f'viewBox="0 0 {width} {LABEL}"><text x="0" y="{LABEL_BASELINE}" {LABEL_STYLE}>'
                f'{escape(text)}</text></svg>')


def board_png(plan: Layout) -> bytes:
    return encode_png(board_image(plan))


def board_image(plan: Layout) -> Image.Image:
    """The layout drawn from the tiles, as an RGB image.

    Labels and cards never overlap one another (the layout keeps them apart), so where no
    branch runs a tile lands on bare table: it is pasted as the tile already laid on the
    table's colour (once per process), the same pixels as blending it there each time. A card
    a branch touches is blended onto the canvas as it is."""
    canvas = Image.new("RGB", (plan.width, plan.height), GROUND)
    pen = ImageDraw.Draw(canvas)
    branches = [m for m in plan.marks if isinstance(m, Branch)]
    for mark in plan.marks:
        if isinstance(mark, Branch):
            pen.line([(mark.x1, mark.y1), (mark.x2, mark.y2)], fill=BRANCH_INK, width=2)
        elif isinstance(mark, Label):
            canvas.paste(_label_on_table(mark.text, plan.width - mark.x), (mark.x, mark.y))
        elif any(_touches(b, mark) for b in branches):
            spot = (mark.x, mark.y, mark.x + CW, mark.y + CH)
            under = canvas.crop(spot).convert("RGBA")
            under.alpha_composite(_card_tile(cards.face(mark.card)))
            canvas.paste(under.convert("RGB"), spot[:2])
        else:
            canvas.paste(_card_on_table(cards.face(mark.card)), (mark.x, mark.y))
    return canvas


def _on_table(tile: Image.Image) -> Image.Image:
    flat = Image.new("RGBA", tile.size, GROUND)
    flat.alpha_composite(tile)
    return flat.convert("RGB")


@cache
def _card_on_table(card_id: str) -> Image.Image:
    return _on_table(_card_tile(card_id))


@lru_cache(maxsize=1024)
def _label_on_table(text: str, width: int) -> Image.Image:
    """A label drawn on the table's colour. A label names players ("District 2, Anna"), so
    at a server's scale nearly every email draws labels no cache holds: resvg lays out text
    from its font database anew each time (2.8 ms a label), FreeType through Pillow with one
    font loaded per process does it in 0.2 ms, the same glyphs at the same place. Text in a
    script that font may lack (its glyphs would be boxes) is left to resvg, which falls back
    across the system's fonts."""
    font = label_font()
    if font is None or not _in_label_font(text):
        return _on_table(_label_tile(text, width))
    tile = Image.new("RGB", (width, LABEL), GROUND)
    ImageDraw.Draw(tile).text((0, LABEL_BASELINE), text, font=font, fill=LABEL_INK,
                              anchor="ls")
    return tile


#: The label's font as LABEL_STYLE names it (bold Helvetica, Arial or a sans-serif), the
#: first of these files found among the system's fonts; resvg picks Liberation Sans where
#: Arial is not installed, as on Debian
LABEL_FONT_FILES = ("arialbd.ttf", "Arial Bold.ttf", "LiberationSans-Bold.ttf",
                    "DejaVuSans-Bold.ttf")


@cache
def label_font() -> ImageFont.FreeTypeFont | None:
    """The labels' font, loaded once per process; None when none of LABEL_FONT_FILES is
    installed (resvg then draws every label)."""
    for name in LABEL_FONT_FILES:
        try:
            return ImageFont.truetype(name, LABEL_SIZE)
        except OSError:
            continue
    return None


def _in_label_font(text: str) -> bool:
    """Whether every character is one the label fonts all have: Latin (with its extended
    letters), Greek, Cyrillic and the common punctuation, with no combining marks (the
    basic layout would not place them)."""
    return all(0x20 <= (c := ord(ch)) < 0x250 or 0x370 <= c < 0x530 or 0x2010 <= c < 0x2028
               for ch in text)


def _touches(branch: Branch, face: Face, ink: int = 2) -> bool:
    """Whether the branch's line (`ink` pixels wide, so reaching past its ends) may cross the
    card's tile."""
    return (min(branch.x1, branch.x2) - ink < face.x + CW
            and max(branch.x1, branch.x2) + ink > face.x
            and min(branch.y1, branch.y2) - ink < face.y + CH
            and max(branch.y1, branch.y2) + ink > face.y)


# Pillow's PNG encoder tries every row filter on every row and keeps the best, a large share
# of an email's time for this picture. Flat colours compress as well unfiltered
# (smaller, even). The deflate stream is ISA-L's (isal), not the standard library's zlib: much
# faster for a slightly larger picture (any zlib reads it). Lossless either way: the same
# pixels. (The figures: docs/performance.md, "Figures behind the code's choices".)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
DEFLATE_LEVEL = 1       # isal's 0-3; 3 compresses barely smaller for many times the time


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


#: the rows handed to the compressor at a time: about this many bytes of pixels
STRIP_BYTES = 64 * 1024


def encode_png(image: Image.Image) -> bytes:
    """An RGB image as PNG: 8 bits a channel, every row unfiltered (filter byte 0).

    The pixels go to the compressor a strip of rows at a time, never as one buffer of the
    whole picture: a table's pixels are about a megabyte, and a buffer that size is mapped
    fresh from the system at every email (glibc's malloc maps one that large, and maps the
    next one of the same size again), so its page faults and zeroing cost twice what
    compressing it did. A strip of STRIP_BYTES is reused from the heap."""
    if image.mode != "RGB":
        raise ValueError(f"encode_png takes an RGB image, not {image.mode}")
    width, height = image.size
    stride = width * 3 + 1
    per_strip = max(1, STRIP_BYTES // stride)
    deflate = isal_zlib.compressobj(DEFLATE_LEVEL)
    # each row led by its filter byte 0, in one pass in C: Pillow's raw encoder packs each row
    # and zero-pads it to the stride given, so the rows come out as "row 0, byte 0; row 1,
    # byte 0; ..." and one more 0 in front, one fewer at the end, make "0, row 0; 0, row 1...".
    # (Unpacking and re-pasting them a column to the right took twice as long; joining
    # slices in Python longer still.)
    idat = [deflate.compress(b"\0")]
    for top in range(0, height, per_strip):
        bottom = min(height, top + per_strip)
        rows = image.crop((0, top, width, bottom)).tobytes("raw", "RGB", stride)
        idat.append(deflate.compress(memoryview(rows)[:-1] if bottom == height else rows))
    idat.append(deflate.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)   # 8-bit truecolour
    return (PNG_SIGNATURE + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", b"".join(idat)) + _chunk(b"IEND", b""))


def warm_up() -> int:
    """Draw every card face of both decks and load the fonts now, in a process about to fork
    its workers (workers.worker): each child then starts with them instead of spending a few
    milliseconds on each face its first emails show. Returns the number of faces."""
    faces = [*decktet.ALL, *french.deck()]
    for card_id in faces:
        _card_on_table(card_id)        # draws (and keeps) its tile too
    _label_on_table("Your hand", CW)           # the first text drawn loads the fonts
    return len(faces)


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
    try:
        image, width, height = board_svg(laid, _trees(view))
    except UnknownCard:
        return None
    return Drawing(image, _alt(laid), width, height)


def _trees(view: dict) -> dict[str, dict] | None:
    if view.get("game") != "trees":
        return None
    return {f"{t['name'][:1].upper()}{t['name'][1:]}": t["tree"] for t in view.get("trees", [])}


def _alt(laid: list[tuple[str, list[str]]]) -> str:
    return _("The table: %(rows)s.", rows="; ".join(
        f"{label}: " + ", ".join(cards.name(c) for c in ids) for label, ids in laid))


def picture(view: dict, names: list[str], me: int | None) -> Picture | None:
    """The table as a PNG with its alternative text, for email."""
    laid = rows(view, names, me)
    if not laid:
        return None
    try:
        plan = layout(laid, _trees(view))
    except UnknownCard:
        return None
    return Picture(board_png(plan), _alt(laid), plan.width, plan.height)
