"""The templates' `wordwrap` (templating.wordwrap, in the email and the web environments)
gives exactly what Jinja's own filter gives, for any text, width and arguments; it only
skips textwrap for text whose every line already fits."""
from __future__ import annotations

import textwrap

from hypothesis import example, given
from hypothesis import strategies as st
from jinja2 import Environment
from jinja2.filters import do_wordwrap

from service.mailwire.outbound.templating import make_env, wordwrap
from service.web import create_app

STOCK = Environment()

# words, runs of every kind of whitespace textwrap and splitlines know, hyphens, and lines
# that end in a space: the places the two could part
PIECES = st.sampled_from(["word", "a", "long-hyphenated-word", "x" * 30, " ", "  ", "\t", "\n",
                          "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\u2028", "\u00a0", "\u2009",
                          "♥", "Ü", "-", "—", ""])
TEXT = st.lists(PIECES, max_size=40).map("".join)


@given(TEXT, st.integers(1, 90), st.booleans(), st.booleans(),
       st.sampled_from([None, "\n  ", "", " | "]))
@example("Round 3 of 8: Queen phase.", 70, True, True, None)
@example("trailing space ", 70, True, True, None)
@example("  leading space", 70, True, True, None)
@example("", 70, True, True, None)
@example("a\n\nb", 70, True, True, None)
def test_it_answers_as_jinjas_own_filter(text, width, break_long, break_hyphens, wrapstring):
    ours = wordwrap(STOCK, text, width, break_long, wrapstring, break_hyphens)
    assert ours == do_wordwrap(STOCK, text, width, break_long, wrapstring, break_hyphens)


def test_lines_that_fit_skip_textwrap_and_others_do_not(monkeypatch):
    calls = []
    real = textwrap.wrap
    monkeypatch.setattr(textwrap, "wrap", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    assert wordwrap(STOCK, "Herald: you.\nTurn: Ben (p2), 2 actions left.", 70) == (
        "Herald: you.\nTurn: Ben (p2), 2 actions left.")
    assert calls == []
    long = "Sealed bids. Chosen: you (3 cards), Ben (p2) (4 cards). Still to choose: Cleo (p3)."
    assert wordwrap(STOCK, long, 70) == "\n".join(real(long, 70))
    assert calls == [long]


def test_both_environments_use_it(tmp_path):
    app = create_app({"TURNPOST_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"})
    assert make_env().filters["wordwrap"] is wordwrap
    assert app.jinja_env.filters["wordwrap"] is wordwrap
    template = "{{ 'one two three four five'|wordwrap(9, wrapstring='\n  ') }}"
    assert (make_env().from_string(template).render()
            == STOCK.from_string(template).render() == "one two\n  three\n  four five")
