"""Decktet suits on the pages and in the emails: each suit is its symbol, named for screen
readers and on hover, coloured by class (dark mode recolours it), so colour is never the only
difference; a card's suits are also written out by name, except an Ace's, which its name says."""
from __future__ import annotations

import re

from service.display import decktetsuits, frenchsuits
from service.games.cards import decktet, french
from tests.display.render import partials
from tests.display.samples import CASES, play


def test_a_suit_is_its_symbol_named_for_screen_readers_and_on_hover():
    for letter, name in decktet.SUIT_NAMES.items():
        mark = str(decktetsuits.suit(letter))
        assert mark == (f'<span class="suit s-{letter}" role="img" aria-label="{name}" '
                        f'title="{name}">{decktet.SUIT_SYMBOLS[letter]}</span>')


def test_a_faint_suit_keeps_its_name_and_symbol():
    mark = str(decktetsuits.suit("K", faint=True))
    assert 'class="suit s-K faint"' in mark and 'aria-label="Knots"' in mark and "⌘" in mark


def test_a_card_names_its_suits_and_an_ace_names_none():
    assert decktetsuits.suit_names("3MV") == "Moons/Waves"
    assert decktetsuits.suit_names("2SY") == "Suns/Wyrms"
    assert decktetsuits.suit_names("1L") == ""
    assert decktetsuits.suit_names("PMSL") == "Moons/Suns/Leaves"
    assert decktetsuits.suit_names("8VL.2") == "Waves/Leaves"     # a double deck's second copy


def test_a_cards_short_mark_is_its_rank_by_letter_then_its_suits_named():
    """Trees shows each card as a mark (games/trees/view.html): the Ace, Pawn, Court and
    Crown by letter, a number as it is, then each suit as suit() shows it."""
    moons, suns = decktetsuits.suit("M"), decktetsuits.suit("S")
    assert str(decktetsuits.mark("1M", "tr-mark")) == f'<span class="tr-mark">A&nbsp;{moons}</span>'
    assert decktetsuits.mark("3MS", "x") == f'<span class="x">3&nbsp;{moons}{suns}</span>'
    assert "Cr&nbsp;" in decktetsuits.mark("NS", "x") and "C&nbsp;" in decktetsuits.mark("TMS", "x")
    assert decktetsuits.mark("PMS.2", "x") == decktetsuits.mark("PMS", "x")   # a second copy


def test_every_decktet_partial_names_each_suit_symbol_it_shows():
    """Through the games' own templates (games/_decktet.html hands them these marks): no
    symbol of a suit goes out without its name."""
    symbols = "|".join(map(re.escape, decktet.SUIT_SYMBOLS.values()))
    for case in CASES:
        if case[0] == "aristocracy":        # French cards: suits are letters in its partial
            continue
        sample = play(*case)[-1]
        html = partials(sample, 0)["html"]
        shown = re.findall(rf'<span class="suit s-(\w)[^"]*" role="img" aria-label="(\w+)" '
                           rf'title="\2">({symbols})</span>', html)
        assert shown, case
        for letter, name, symbol in shown:
            assert decktet.SUIT_NAMES[letter] == name and decktet.SUIT_SYMBOLS[letter] == symbol
        bare = re.sub(r'<span class="suit[^>]*>[^<]*</span>', "", html)
        assert not re.search(symbols, bare.split("</style>")[-1]), case


# -- Aristocracy's French cards (service.display.frenchsuits) -------------------------------------------

def test_a_french_card_is_its_label_named_in_full_red_suits_marked_by_class():
    assert str(frenchsuits.chip("10H.2")) == (
        '<span class="c red" role="img" aria-label="10 of Hearts" title="10 of Hearts">'
        '10♥</span>')
    assert str(frenchsuits.chip("KD")) == (
        '<span class="c red" role="img" aria-label="King of Diamonds" '
        'title="King of Diamonds">K♦</span>')
    assert 'class="c"' in frenchsuits.chip("AS.1") and "Ace of Spades" in frenchsuits.chip("AS")
    assert 'class="c"' in frenchsuits.chip("QC") and "Q♣" in frenchsuits.chip("QC")


def test_every_french_card_the_aristocracy_partial_shows_is_a_named_chip():
    """No suit symbol of a French card goes out without the card's name beside it."""
    symbols = "|".join(map(re.escape, french.SUIT_SYMBOLS.values()))
    for when, sample in enumerate(play(*next(c for c in CASES if c[0] == "aristocracy"))):
        html = partials(sample, 0)["html"].split("</style>")[-1]
        shown = re.findall(rf'<span class="c( red)?" role="img" aria-label="([\w ]+)" '
                           rf'title="\2">(\w+)({symbols})</span>', html)
        assert shown, when
        for red, name, rank, symbol in shown:
            suit = next(s for s, sym in french.SUIT_SYMBOLS.items() if sym == symbol)
            assert name == french.name(f"{rank}{suit}")
            assert bool(red) == (suit in "HD")
        bare = re.sub(r'<span class="c[^>]*>[^<]*</span>', "", html)
        assert not re.search(symbols, bare), when
