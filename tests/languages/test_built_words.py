"""Words built in Python that reach a player, in the reader's language: a clock in words and a
deadline, a league season's fate line, and a webhook's title and chat message in its owner's
language (the JSON's field names stay as they are)."""
from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from jinja2 import ChainableUndefined
from sqlalchemy import update

from service import play
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.templating import make_env
from service.play.community import leagueletters
from service.play.moves import undo
from service.play.players import hooks
from service.play.time import clocks
from service.store.models import Player
from tests.hooks.receiver import Receiver
from tests.hooks.test_deliveries import first_mover
from tests.languages.helpers import INVITATION, email_contexts, make_player
from tests.play.moves.helpers import mail_of, suzerain_at_a_takeable_move
from tests.play.players.helpers import play_moves
from tests.web.helpers import form_client, latest_to, post_form, sign_in, start_game, text_of

ANNA, BEN = "anna@example.org", "ben@example.org"


@pytest.mark.parametrize(("lang", "per_move", "fischer", "none"), [
    ("en", "3 days per move", "a bank of 7 days, plus 1 day per move (at most 7 days)",
     "no clock"),
    ("de", "3 Tage pro Zug", "ein Zeitkonto über 7 Tage, plus 1 Tag pro Zug (höchstens 7 Tage)",
     "ohne Uhr"),
    ("fr", "3 jours par coup", "une réserve de 7 jours, plus 1 jour par coup (au plus 7 jours)",
     "sans pendule")])
def test_a_clock_in_words_is_in_the_readers_language(lang, per_move, fischer, none):
    with catalogs.speaking(lang):
        assert clocks.describe(clocks.parse_clock("3d")) == per_move
        assert clocks.describe(clocks.parse_clock("7d+1d")) == fischer
        assert clocks.describe(clocks.parse_clock("none")) == none
        assert dict(clocks.lobby_choices())["12h"].startswith("12 ")


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Tue 24 Nov, 18:00 CET (in 2 days)"),
    ("de", "Di., 24. Nov., 18:00 CET (in 2 Tagen)"),
    ("fr", "mar. 24 nov., 18:00 CET (dans 2 jours)")])
def test_a_deadline_is_in_the_readers_language(lang, said):
    now = datetime(2026, 11, 22, 17, 0, tzinfo=UTC)
    with catalogs.speaking(lang):
        assert clocks.format_deadline(now + timedelta(days=2), now, "Europe/Berlin") == said


@pytest.mark.parametrize(("lang", "promoted", "last"), [
    ("en", "You are promoted: next season you play in division 1.",
     "This was the league's last season: it is closed now."),
    ("de", "Du steigst auf: In der nächsten Saison spielst du in Division 1.",
     "Das war die letzte Saison der Liga: Sie ist jetzt geschlossen."),
    ("fr", "Vous montez : la saison prochaine, vous jouez en division 1.",
     "C'était la dernière saison de la ligue : elle est maintenant fermée.")])
def test_a_league_fate_line_is_in_the_members_language(lang, promoted, last):
    member = SimpleNamespace(left_at=None)
    with catalogs.speaking(lang):
        assert leagueletters.fate(-1, member, 1, 2) == promoted
        assert leagueletters.fate(0, member, 1, 1, closing=True) == last


@pytest.fixture
def hooked_app(app_factory):
    return app_factory(TURNPOST_WEBHOOK_ALLOW_PRIVATE="1")


@pytest.mark.parametrize(("kind", "lang", "said"), [
    ("json", "de", "Trees-Partie"), ("discord", "fr", "À vous de jouer : Partie de Trees"),
    ("slack", "de", "Du bist am Zug: <")])
def test_a_webhook_speaks_its_owners_language(hooked_app, kind, lang, said):
    app = hooked_app
    svc = app.extensions["turnpost"]
    make_player(app, ANNA, lang)
    make_player(app, BEN, lang)
    game = start_game(app, "trees", [ANNA, BEN]).game_id
    mover = first_mover(svc, game)
    with Receiver() as endpoint:
        hooks.register(svc, endpoint.url, kind=kind, email=(ANNA, BEN)[1 - mover])
        play_moves(svc, game, 1, seats={mover})
    doc = json.loads(endpoint.got[0].raw)
    if kind == "json":
        assert set(doc) == {"event", "gameId", "title", "url"} and doc["event"] == "turn"
        assert doc["title"] == f"Trees-Partie {game}"
    else:
        text = doc["content" if kind == "discord" else "text"]
        assert said in text and "Your turn" not in text and " game " not in text


def test_an_english_owners_webhook_keeps_its_english_title(hooked_app):
    svc = hooked_app.extensions["turnpost"]
    game = start_game(hooked_app, "trees", [ANNA, BEN]).game_id
    mover = first_mover(svc, game)
    with Receiver() as endpoint:
        hooks.register(svc, endpoint.url, kind="discord", email=(ANNA, BEN)[1 - mover])
        play_moves(svc, game, 1, seats={mover})
    assert json.loads(endpoint.got[0].raw)["content"].startswith(f"Your turn: Trees game {game}")


def test_a_take_back_notice_is_in_its_readers_language(services):
    game_id, mover, move = suzerain_at_a_takeable_move(services)
    names = {0: "carol", 1: "alice"}
    with services.db.transaction() as s:
        s.execute(update(Player).where(Player.email == f"{names[1 - mover]}@example.org")
                  .values(language="fr"))
    play.submit(services, play.Intent(game_id, mover, moves=[move], source="web"))
    (row,) = undo.ask(services, game_id, mover).outbox_ids
    msg, text, _html = mail_of(services, row)
    assert msg["Subject"].startswith(f"{names[mover]} demande à reprendre un coup")
    assert "Répondez « annuler accepter »" in text and "asks to take back" not in text


def anna_makes_a_tournament(app, entrants: str):
    """Anna, signed in, makes a two-round Swiss Trees tournament of `entrants` by the form;
    her client and the form's answer (a redirect to the tournament)."""
    anna = form_client(app)
    sign_in(anna, app, ANNA)
    made = anna.post("/tournaments", data={
        "game": "trees", "format": "swiss", "rounds": "2", "clock": "3d", "entrants": entrants})
    assert made.status_code == 302, made.text
    return anna, made


def test_a_tournaments_round_letter_has_each_entrants_standings_language(app):
    """Anna (German) starts her tournament: Ben's letter keeps English standings, hers are
    German, whoever's request started the round."""
    make_player(app, ANNA, "de")
    anna, made = anna_makes_a_tournament(app, f"{BEN}\ncy@example.org\nbot:easy")
    accept = INVITATION.search(text_of(latest_to(app, BEN))).group(1)
    assert post_form(app.test_client(), accept, page=accept).status_code == 200
    assert anna.post(made.location + "/start", data={}).status_code == 302
    ben, hers = latest_to(app, BEN), latest_to(app, ANNA)
    assert "points (Buchholz" in text_of(ben) and "Punkte" not in text_of(ben)
    assert "Punkte (Buchholz" in text_of(hers)


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "You have 2 vacation days left this year; `vacation 2` would take them all."),
    ("de", "Du hast dieses Jahr noch 2 Urlaubstage; `urlaub 2` würde sie alle nehmen."),
    ("fr", "Il vous reste 2 jours de vacances cette année ; `vacances 2` les prendrait tous.")])
def test_a_vacation_refusal_is_in_the_writers_language(lang, said):
    today = datetime(2026, 12, 6).date()
    with catalogs.speaking(lang):
        request = clocks.parse_vacation("vacation 5", today)
        with pytest.raises(clocks.VacationError) as refused:
            clocks.check_request(request, [], None, today, allowance=2)
    assert str(refused.value) == said


@pytest.mark.parametrize("name", ["email/note.txt", "email/note.html", "email/turn.txt",
                                  "email/turn.html"])
def test_a_timeout_notices_buttons_are_in_the_readers_language(name):
    env = make_env().overlay(undefined=ChainableUndefined)
    ctx = {**email_contexts()[0], "timeout": {"text": "Qx", "seat": 1, "actions": [
        {"text": "Extend the deadline once", "url": "http://x/e"},
        {"text": "Play the default move for them from now on", "url": "http://x/b"}]}}
    with catalogs.speaking("de"):
        german = env.get_template(name).render(ctx)
    assert "Die Frist einmal verlängern" in german and "Extend the deadline" not in german
    with catalogs.speaking("en"):
        assert "Extend the deadline once" in env.get_template(name).render(ctx)


def test_a_tournament_invitation_says_its_terms_in_the_invitees_language(app):
    """An English maker invites a German player: the letter's format, clock and expiry are
    his, not the maker's page's."""
    make_player(app, BEN, "de")
    anna_makes_a_tournament(app, f"{BEN}\nbot:easy")
    text = " ".join(text_of(latest_to(app, BEN)).split())
    assert "Schweizer System" in text and "3 Tage pro Zug" in text, text
    assert "Swiss" not in text and "per move" not in text and "December" not in text
