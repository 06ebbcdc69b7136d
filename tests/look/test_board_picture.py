"""The table as one picture in each turn email: a PNG sent inline (multipart/related, named by
its Content-ID from the HTML's <img>), with alternative text naming the same cards; drawn from
the seat's view, so it names no card the seat may not know."""
from __future__ import annotations

import re

from service.games import cards

from .render import turn_email
from .samples import CASES, play


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
