"""service.games.text: names as players type them (docs/rules/rulings.md, the Decktet's Commands paragraph:
"any case, with or without 'the', ids, unambiguous prefixes").

Quotation marks around a name are not part of it: ``play 'the Castle' under 'the Soldier'``
reads like ``play the Castle under the Soldier``, with straight single quotes as with double
and curly ones, while an apostrophe inside a word stays."""
from __future__ import annotations

import pytest

from service.games.cards import decktet
from service.games.text import match, norm, unquote

SPELLINGS = {c: decktet.aliases(c) for c in decktet.ALL}


@pytest.mark.parametrize("quoted", ["'{}'", "‘{}’", '"{}"', "“{}”"])
def test_every_decktet_spelling_reads_the_same_in_quotes(quoted):
    for card, spellings in SPELLINGS.items():
        for spelling in spellings:
            assert norm(quoted.format(spelling)) == norm(spelling), spelling
            assert match(quoted.format(spelling), SPELLINGS) == card


def test_no_card_name_holds_an_apostrophe():
    # the quote stripping keeps apostrophes inside words anyway; this says none is at stake
    assert not [s for spells in SPELLINGS.values() for s in spells if "'" in s]


def test_an_apostrophe_inside_a_word_stays():
    assert unquote("player 2's Q") == "player 2's Q"
    assert unquote("player 2’s Q") == "player 2's Q"       # a phone's apostrophe, folded
    assert norm("'o'clock'") == "o'clock"


def test_quotes_around_several_names_in_one_line():
    assert norm("'the Castle' under 'the Soldier'") == "castle under the soldier"
    assert unquote("'the Mill #2'").strip() == "the Mill #2"
