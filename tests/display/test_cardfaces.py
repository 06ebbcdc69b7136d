"""Card faces: every card of both decks draws as SVG naming the card, its rank and suits by
name (not by colour alone); the service serves them, and the game page shows the hand."""
from __future__ import annotations

from xml.etree import ElementTree

import pytest

from service.display import cardfaces
from service.games.cards import decktet, french


def test_every_card_of_both_decks_has_a_face_that_names_it():
    for c in decktet.ALL:
        face = cardfaces.svg(c)
        ElementTree.fromstring(face)                       # well-formed
        assert f"<title>{decktet.label(c)}</title>" in face
        for s in decktet.card(c).suits:
            assert decktet.SUIT_NAMES[s] in face           # the suit named, not only coloured
    for c in french.deck():
        face = cardfaces.svg(c)
        ElementTree.fromstring(face)
        assert french.name(c) in face


def test_unknown_cards_are_refused():
    for bad in ("ZZ", "", "8VLX", "11H"):
        with pytest.raises(cardfaces.UnknownCard):
            cardfaces.svg(bad)


def test_faces_are_served_and_unknown_ones_are_not_found(client):
    r = client.get("/cards/8VL.svg")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    assert "Mill" in r.text and "max-age" in r.headers["Cache-Control"]
    assert client.get("/cards/KD.1.svg").status_code == 200
    assert client.get("/cards/nope.svg").status_code == 404
