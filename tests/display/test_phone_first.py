"""Phone-first turn emails: right under the reply marker, one line says what happened and whose
move it is; then the reader's hand and the board; then the moves as buttons, every move of the
menu in the engine's order; the rest of the news after them."""
from __future__ import annotations

import html as html_lib
import re

from tests.display.render import page_of, turn_email
from tests.display.samples import CASES, play


def _positions(text: str, *needles: str) -> list[int]:
    return [text.index(n) for n in needles]


def test_headline_then_hand_and_board_then_moves_then_news():
    for case in CASES:
        sample = play(*case)[1]
        for seat in sorted(sample.engine.to_act(sample.state)):
            page = page_of(sample, seat, news_from=sample.seq - 6)
            msg = turn_email(sample, seat, news_from=sample.seq - 6)
            html = msg.get_body(("html",)).get_content()
            text = msg.get_body(("plain",)).get_content()
            # the headline leads with the last move, not a draw that only followed it
            assert page.lead in page.news and page.lead
            assert page.headline.startswith(page.lead) and "Your turn" in page.headline
            first = text.splitlines()[1]
            assert first.startswith(page.lead) and "YOUR TURN" in first, first
            h1 = re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S).group(1)
            assert "Your turn" in h1
            hand, moves, news = _positions(html, "Your hand", "Your moves", "Since your last")
            assert html.index("<h1") < hand < moves < news, case
            buttons = re.findall(r'<a class="btn"[^>]*>(.*?)</a>', html)
            assert len(buttons) == len(page.menu) > 0
            assert [html_lib.unescape(b) for b in buttons] == [m["text"] for m in page.menu]


def test_the_headline_names_whose_move_it_is_for_a_waiting_seat():
    sample = play(*CASES[3])[1]            # Suzerain: one seat acts
    actor = next(iter(sample.engine.to_act(sample.state)))
    other = 1 - actor
    page = page_of(sample, other, news_from=sample.seq - 3)
    assert page.headline.endswith(f"{sample.names[actor]} to move.")
