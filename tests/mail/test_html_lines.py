"""A turn email's HTML goes as it is (7bit or 8bit), not quoted-printable: the templates put
each list item on its own line, so no line reaches SMTP's 998 characters. Quoted-printable
made the part larger and cost a fifth of an email's composing in pure-Python encoding (issue
15's fan-out); a mail client shows the same page either way."""
from __future__ import annotations

import random
from html.parser import HTMLParser

import css_inline
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import select

from service import play
from service.mailwire.outbound import htmllines
from service.play.mail import relay
from service.store.models import OutboxRow, Player
from tests.play.moves.test_costs import next_move

PEOPLE = [f"{name}@example.org" for name in ("anna", "ben", "cleo", "dan", "eve")]
SEATS = {"aristocracy": 5, "magnate": 2, "suzerain": 2, "trees": 4}


@pytest.mark.parametrize("kind", sorted(SEATS))
def test_every_turn_email_of_a_game_in_play_sends_its_html_unencoded(services, kind):
    with services.db.transaction() as s:
        for addr in PEOPLE:
            s.add(Player(email=addr, name=addr.split("@")[0].title(), mail_mode="every",
                         created_at=services.clock.now()))
    game_id = play.start_game(services, kind, PEOPLE[:SEATS[kind]], {}).game_id
    rng = random.Random(5)
    for _ in range(30):
        pos, seat, move = next_move(services, game_id, rng)
        if pos.engine.outcome(pos.state) is not None:
            break
        play.submit(services, play.Intent(game_id, seat, source="email", moves=[move]))
    with services.db.transaction() as s:
        rows = s.scalars(select(OutboxRow).where(OutboxRow.game_id == game_id,
                                                 OutboxRow.kind == "turn")).all()
        assert len(rows) > SEATS[kind]
        for row in rows:
            html = relay.render(s, services, row).get_body(("html",))
            longest = max(len(line) for line in html.get_content().splitlines())
            assert html["Content-Transfer-Encoding"] in ("7bit", "8bit"), (row.id, longest)


class Events(HTMLParser):
    """What a browser builds from the HTML: tags with their attributes, text, comments."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=False)
        self.seen: list = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.seen.append(("start", tag, attrs))

    def handle_endtag(self, tag):
        self.seen.append(("end", tag))

    def handle_data(self, data):
        self.seen.append(("text", data))

    def handle_comment(self, data):
        self.seen.append(("comment", data))

    def handle_entityref(self, name):
        self.seen.append(("entity", name))

    def handle_charref(self, name):
        self.seen.append(("char", name))


def _card(k: int) -> str:
    return (f'<span class="c" title="{k} of Moons &gt; the rest" role="img" aria-label="card {k}"'
            f' style="display: inline-block;border: 1px solid #8f887b;padding: 1px 5px;">'
            f'{k}☾</span>')


def test_a_long_run_of_tags_is_broken_between_attributes_and_reads_the_same():
    html = "<div>" + "".join(_card(k) for k in range(40)) + "</div>\nafter"
    folded = htmllines.fold(html)
    assert folded != html
    assert all(len(line.encode()) <= htmllines.LIMIT for line in folded.split("\n"))
    assert Events(folded).seen == Events(html).seen


def test_text_is_never_broken_and_short_html_is_left_alone():
    prose = "<p>" + "a long paragraph that goes on " * 60 + "</p>"
    assert htmllines.fold(prose) == prose           # no place to break: it stays long
    short = "<p class=\"x\" title=\"y\">hi</p>\n<p>there</p>"
    assert htmllines.fold(short) is short


def test_a_value_holding_angle_brackets_and_spaces_is_never_split():
    value = "a > b < c d e f g h i j k"
    html = "".join(f'<b title="{value}" id="n{k}">{k}</b>' for k in range(60))
    folded = htmllines.fold(html, limit=100)
    assert Events(folded).seen == Events(html).seen
    assert f'title="{value}"' in folded


_VALUE = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters='"&'),
                 max_size=30)
_ELEMENT = st.builds(
    lambda tag, attrs, text: (f"<{tag}" + "".join(f' {n}="{v}"' for n, v in attrs) + ">"
                              + text.replace("&", "&amp;").replace("<", "&lt;") + f"</{tag}>"),
    st.sampled_from(["span", "b", "a", "td", "li"]),
    st.lists(st.tuples(st.sampled_from(["class", "title", "style", "href", "data-x"]), _VALUE),
             max_size=4, unique_by=lambda pair: pair[0]),
    st.text(max_size=20))


@given(st.lists(_ELEMENT, max_size=40), st.integers(min_value=20, max_value=300))
def test_folding_never_changes_what_a_browser_reads(elements, limit):
    html = "".join(elements)
    folded = htmllines.fold(html, limit=limit)
    assert Events(folded).seen == Events(html).seen
    assert max(map(len, folded.split("\n"))) <= max(map(len, html.split("\n")))


def test_the_inliner_serialises_as_the_folding_expects():
    """Values in double quotes with a double quote inside escaped, a "<" in text escaped: what
    lets a tag be told from text (service.mailwire.outbound.htmllines)."""
    out = css_inline.CSSInliner().inline(
        '<html><head><style>b{color:red}</style></head><body><b title=\'say "a<b"\'>'
        'x < y "quoted"</b></body></html>')
    assert 'title="say &quot;a<b&quot;"' in out
    assert 'x &lt; y "quoted"' in out
