"""The table as one picture in each turn email: a PNG sent inline (multipart/related, named by
its Content-ID from the HTML's <img>), with alternative text naming the same cards; drawn from
the seat's view, so it names no card the seat may not know. Laid out once, it is drawn as SVG
for the page and put together from card tiles as PNG for the email: the same cards in the same
places."""
from __future__ import annotations

import io
import random
import re
import zlib

import pytest
from PIL import Image

from service.display import boardpicture
from service.display.boardpicture import Face, Label, layout, picture
from service.games import cards
from service.games.cards import decktet, french
from tests.display.render import turn_email
from tests.display.samples import CASES, play


def test_each_games_email_carries_the_table_as_an_inline_png_with_alt_text():
    for case in CASES:
        sample = play(*case)[1]
        msg = turn_email(sample, 0)
        html_part = msg.get_body(("html",))
        html = html_part.get_content()
        img = re.search(r'<img src="cid:([^"]+)" alt="([^"]+)"', html)
        assert img, case
        pngs = [p for p in msg.walk() if p.get_content_type() == "image/png"]
        assert len(pngs) == 1
        assert pngs[0]["Content-ID"] == f"<{img.group(1)}>"
        assert pngs[0].get_content_disposition() == "inline"
        assert pngs[0].get_content().startswith(b"\x89PNG")
        alt = img.group(2).replace("&#39;", "'")
        for c in sample.engine.view(sample.state, 0)["hand"]:
            assert cards.name(c) in alt


def test_the_picture_names_no_card_its_reader_may_not_know():
    for case in CASES:
        sample = play(*case)[1]
        for seat in range(len(sample.names)):
            msg = turn_email(sample, seat)
            alt = re.search(r'alt="([^"]+)"', msg.get_body(("html",)).get_content()).group(1)
            secret = sample.engine.secrets(sample.state, seat)
            # double decks: a card's name is known when either copy may be known
            known = {cards.name(c) for cs in sample.engine.zones(sample.state).values()
                     for c in cs if c not in secret}
            leaked = {cards.name(c) for c in secret
                      if cards.name(c) not in known and cards.name(c) in alt}
            assert not leaked, (case[0], seat, leaked)


HAND = list(decktet.ALL[:3])
TREE = {"card": decktet.ALL[30], "children": [{"card": decktet.ALL[31]},
                                              {"card": decktet.ALL[32]}]}
VIEW = {"game": "trees", "hand": HAND, "trees": [{"name": "your tree", "tree": TREE}]}
GROUND = (0xf4, 0xf1, 0xea)


def test_the_png_has_the_layouts_size_and_a_card_where_the_layout_puts_one():
    pic = picture(VIEW, ["Anna", "Ben"], 0)
    plan = layout(boardpicture.rows(VIEW, ["Anna", "Ben"], 0), {"Your tree": TREE})
    image = Image.open(io.BytesIO(pic.png)).convert("RGB")
    assert image.size == (plan.width, plan.height) == (pic.width, pic.height)
    faces = [m for m in plan.marks if isinstance(m, Face)]
    assert sorted(f.card for f in faces) == sorted(HAND + [decktet.ALL[30], decktet.ALL[31],
                                                           decktet.ALL[32]])
    for face in faces:     # the middle of each card is the card's face, not the table
        middle = (face.x + boardpicture.CW // 2, face.y + boardpicture.CH - 8)
        assert image.getpixel(middle) != GROUND, face
    right_of_hand = (faces[0].x + 3 * (boardpicture.CW + boardpicture.GAP) + 10, faces[0].y + 40)
    assert image.getpixel(right_of_hand) == GROUND
    assert [m.text for m in plan.marks if isinstance(m, Label)] == ["Your hand", "Your tree"]


def test_the_page_svg_and_the_email_png_share_one_layout():
    drawn = boardpicture.drawing(VIEW, ["Anna", "Ben"], 0)
    pic = picture(VIEW, ["Anna", "Ben"], 0)
    assert (drawn.width, drawn.height) == (pic.width, pic.height)
    assert drawn.alt == pic.alt and "Your hand: the Ace of Moons" in pic.alt
    assert drawn.svg.count("<title>") == 6     # one face each for the hand's 3 and the tree's 3


def test_the_same_view_gives_the_same_png():
    assert picture(VIEW, ["Anna", "Ben"], 0).png == picture(VIEW, ["Anna", "Ben"], 0).png


def test_the_png_holds_exactly_the_pixels_drawn_as_pillow_would_encode_them():
    """The email's own PNG encoder (unfiltered rows) is lossless: decoded, it is the drawing,
    pixel for pixel the same as Pillow's PNG of it, for every game's table."""
    for case in CASES:
        for sample in play(*case):
            for seat in [None, *range(len(sample.names))]:
                view = sample.engine.view(sample.state, seat)
                laid = boardpicture.rows(view, sample.names, seat)
                if not laid:
                    continue
                drawn = boardpicture.board_image(layout(laid, boardpicture._trees(view)))
                theirs = io.BytesIO()
                drawn.save(theirs, "PNG")
                ours = Image.open(io.BytesIO(picture(view, sample.names, seat).png))
                ours.load()
                assert ours.format == "PNG" and ours.mode == "RGB"
                assert ours.tobytes() == Image.open(theirs).tobytes() == drawn.tobytes(), case


@pytest.mark.parametrize("width", [1, 534])
def test_the_png_is_lossless_whatever_its_height_against_the_strips_it_is_encoded_in(width):
    """encode_png hands the rows over a strip at a time: a picture of one row, of exactly
    one strip, of one row more or less than whole strips, decodes to the same pixels."""
    per_strip = max(1, boardpicture.STRIP_BYTES // (width * 3 + 1))
    rng = random.Random(53)
    for height in sorted({1, per_strip - 1, per_strip, per_strip + 1, 3 * per_strip} - {0}):
        image = Image.frombytes("RGB", (width, height), rng.randbytes(width * height * 3))
        png = boardpicture.encode_png(image)
        # the compressed rows hold exactly the picture, each row led by filter 0: no byte
        # more (Pillow ignores one; libpng's readers warn of "extra compressed data")
        idat_length = int.from_bytes(png[33:37], "big")
        assert png[37:41] == b"IDAT"
        rows = zlib.decompress(png[41:41 + idat_length])
        assert len(rows) == height * (width * 3 + 1)
        assert all(rows[k * (width * 3 + 1)] == 0 for k in range(height))
        decoded = Image.open(io.BytesIO(png))
        decoded.load()
        assert decoded.size == (width, height) and decoded.mode == "RGB"
        assert decoded.tobytes() == image.tobytes(), height


def test_encode_png_takes_only_rgb():
    with pytest.raises(ValueError):
        boardpicture.encode_png(Image.new("RGBA", (2, 2)))


def _blended(plan):
    """The drawing as first written: every tile blended onto the canvas where it lies."""
    from PIL import ImageDraw
    canvas = Image.new("RGBA", (plan.width, plan.height), GROUND)
    pen = ImageDraw.Draw(canvas)
    for mark in plan.marks:
        if isinstance(mark, boardpicture.Branch):
            pen.line([(mark.x1, mark.y1), (mark.x2, mark.y2)], fill=boardpicture.BRANCH_INK,
                     width=2)
        elif isinstance(mark, Label):
            # a label is drawn on the table's colour whole (FreeType), not blended
            canvas.paste(boardpicture._label_on_table(mark.text, plan.width - mark.x),
                         (mark.x, mark.y))
        else:
            canvas.alpha_composite(boardpicture._card_tile(mark.card), (mark.x, mark.y))
    return canvas.convert("RGB")


def _plans():
    for case in CASES:
        for sample in play(*case):
            for seat in [None, *range(len(sample.names))]:
                view = sample.engine.view(sample.state, seat)
                laid = boardpicture.rows(view, sample.names, seat)
                if laid:
                    yield case, layout(laid, boardpicture._trees(view))


def test_tiles_pasted_on_bare_table_give_the_pixels_of_blending_each_one():
    for case, plan in _plans():
        assert boardpicture.board_image(plan).tobytes() == _blended(plan).tobytes(), case


def test_no_two_tiles_overlap_so_a_tile_lands_on_bare_table_or_a_branch():
    for case, plan in _plans():
        boxes = [(m.x, m.y, m.x + boardpicture.CW, m.y + boardpicture.CH)
                 for m in plan.marks if isinstance(m, Face)]
        boxes += [(m.x, m.y, plan.width, m.y + boardpicture.LABEL)
                  for m in plan.marks if isinstance(m, Label)]
        for k, a in enumerate(boxes):
            for b in boxes[k + 1:]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], case


def test_both_copies_of_a_card_share_one_tile():
    """A double deck's two copies look the same (cardfaces: "a copy suffix is ignored"), so
    the picture keeps one drawn tile per face, not one per copy."""
    one, two = decktet.double_deck()[0], decktet.double_deck()[len(decktet.ALL)]
    assert cards.face(one) == cards.face(two) and one != two
    plan = layout([("Your hand", [one, two])])
    boardpicture.board_png(plan)
    assert boardpicture._card_on_table(cards.face(one)) is boardpicture._card_on_table(
        cards.face(two))


def test_after_warm_up_no_card_face_is_drawn_again(monkeypatch):
    """A worker draws every face before forking (play.prepare_to_render): a picture of any
    card of either deck, in either copy, then costs no SVG rendering."""
    assert boardpicture.warm_up() == len(decktet.ALL) + 52
    drawn = []
    monkeypatch.setattr(boardpicture.resvg_py, "svg_to_bytes",
                        lambda **kw: drawn.append(kw) or pytest.fail("a face was drawn again"))
    every = [*decktet.double_deck(), *french.deck(1), *french.deck(2)]
    boardpicture.board_png(layout([("Your hand", every)]))
    assert drawn == []


def test_pillow_keeps_freed_blocks_for_the_next_picture_unless_the_operator_says(monkeypatch):
    """Each picture's canvas reuses the memory the last one gave back (its pages already
    faulted in); an operator's PILLOW_BLOCKS_MAX is theirs."""
    kept = Image.core.get_blocks_max()
    try:
        Image.core.set_blocks_max(0)
        monkeypatch.setenv("PILLOW_BLOCKS_MAX", "0")
        boardpicture.keep_freed_blocks()
        assert Image.core.get_blocks_max() == 0
        monkeypatch.delenv("PILLOW_BLOCKS_MAX")
        boardpicture.keep_freed_blocks()
        assert Image.core.get_blocks_max() == boardpicture.KEPT_BLOCKS
    finally:
        Image.core.set_blocks_max(kept)


def _ink(tile: Image.Image) -> tuple[int, int, int, int] | None:
    """Where a label tile has ink: the box of the pixels not the table's colour."""
    bare = Image.new("RGB", tile.size, boardpicture.GROUND)
    from PIL import ImageChops
    return ImageChops.difference(tile.convert("RGB"), bare).getbbox()


@pytest.mark.parametrize("text", ["Your hand", "District 3, Ånna Müller", "Led by Zoë",
                                  "Discards face up", "Ярослав", "Ελένη"])
def test_a_label_drawn_by_freetype_lies_where_resvg_draws_it(text):
    """Labels name players, so the email draws them with one font loaded per process
    (boardpicture.label_font) rather than resvg's text layout each time: the same text at
    the same place, within a pixel of antialiasing."""
    if boardpicture.label_font() is None:
        pytest.skip("none of the label fonts is installed: resvg draws every label")
    ours = boardpicture._label_on_table(text, 300)
    resvg = boardpicture._on_table(boardpicture._label_tile(text, 300))
    assert ours.size == resvg.size == (300, boardpicture.LABEL)
    mine, theirs = _ink(ours), _ink(resvg)
    assert mine is not None and theirs is not None
    assert all(abs(a - b) <= 1 for a, b in zip(mine, theirs)), (mine, theirs)


def test_a_label_in_a_script_the_font_may_lack_is_left_to_resvg():
    """CJK, Hebrew, Arabic, emoji or combining marks: resvg falls back across the system's
    fonts, where one font file would draw boxes."""
    for text in ["Led by 李雷", "District 2, דנה", "Led by Zoe\u0301", "Face up 🂡"]:
        assert not boardpicture._in_label_font(text)
        ours = boardpicture._label_on_table(text, 200)
        assert ours.tobytes() == boardpicture._on_table(
            boardpicture._label_tile(text, 200)).tobytes()


def test_without_a_label_font_resvg_draws_the_labels(monkeypatch):
    monkeypatch.setattr(boardpicture, "label_font", lambda: None)
    boardpicture._label_on_table.cache_clear()
    try:
        ours = boardpicture._label_on_table("District 1, Anna", 200)
        assert ours.tobytes() == boardpicture._on_table(
            boardpicture._label_tile("District 1, Anna", 200)).tobytes()
    finally:
        boardpicture._label_on_table.cache_clear()
