"""The table's words in each language: `help` by reply answered in the player's language,
the German and French words beside the English ones (always accepted) in the one registry."""
from __future__ import annotations

import pytest

from service.mailwire.outbound import catalogs
from service.play.moves import wordregistry
from tests.languages.helpers import make_player
from tests.play.mail.test_replies import deliver, inbound_status, mover, reply_to
from tests.web.helpers import latest_to, start_game, text_of

ADDRS = ["Anna <anna@example.org>", "Ben <ben@example.org>"]


@pytest.fixture
def table(app):
    make_player(app, "anna@example.org", "de")
    make_player(app, "ben@example.org", "fr")
    start_game(app, "trees", ADDRS)
    return mover(app)


@pytest.mark.parametrize("line", ["help", "Hilfe.", "aide"])
def test_help_by_reply_is_answered_in_the_players_language(app, table, line):
    addr, ours = table
    row_id, _ = deliver(app, reply_to(ours, line))
    assert inbound_status(app, row_id)[0] == "answered"
    answer = latest_to(app, addr)
    text = text_of(answer)
    german = addr.startswith("anna")
    assert answer["Content-Language"] == ("de" if german else "fr")
    if german:
        assert "Jeder Zug, den du jetzt machen kannst, einer pro Zeile:" in text
        assert "hilfe (help): Listet jeden Zug" in text and "Every move" not in text
    else:
        assert "Tous les coups que vous pouvez jouer maintenant" in text
        assert "aide (help): Liste tous les coups" in text


def test_an_english_player_keeps_the_english_help(app):
    start_game(app, "trees", ADDRS)
    addr, ours = mover(app)
    deliver(app, reply_to(ours, "hilfe"))
    text = text_of(latest_to(app, addr))
    assert "Every move you can make now, one per line:" in text
    assert "\n  help: Lists every move" in text


def test_every_languages_word_finds_its_command_and_english_always_does():
    for command in wordregistry.COMMANDS.values():
        if command.handler is None:
            continue
        assert wordregistry.find(command.name)[0] is command
        for word in command.aliases.values():
            assert wordregistry.find(word)[0] is command, word
    assert wordregistry.find("sag viel Glück!") == (wordregistry.COMMANDS["say"], "viel Glück!")
    assert wordregistry.find("Pläne löschen.")[0].name == "plans clear"
    assert wordregistry.find("plans effacer")[0].name == "plans clear"
    assert wordregistry.find("urlaub 5")[1] == "5"


def test_help_lists_the_words_in_the_current_language():
    class NoMoves:
        def outcome(self, state):
            return "over"

    with catalogs.speaking("fr"):
        text = wordregistry.help_text(NoMoves(), None, 0)
    assert "Vous n'avez aucun coup à jouer" in text and "vacances (vacation) JOURS" in text
