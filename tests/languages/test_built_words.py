"""Words built in Python that reach a player, in the reader's language: a clock in words and a
deadline, a league season's fate line, a webhook's title and chat message in its owner's
language (the JSON's field names stay as they are), a take-back notice, and the table's notice
of a seat whose turn email bounced."""
from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from jinja2 import ChainableUndefined
from sqlalchemy import update

from service import play
from service.games import registry
from service.linking.signer import Claims, Signer, WrongPurpose
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.templating import make_env
from service.play.community import leagueletters, tournaments
from service.play.mail import bounces
from service.play.moves import undo
from service.play.players import hooks
from service.play.time import clocks, extensions
from service.play.time.sweep import timeouts
from service.store.models import Player, Seat
from tests.hooks.receiver import Receiver
from tests.hooks.test_deliveries import first_mover
from tests.languages.helpers import INVITATION, email_contexts, make_player
from tests.play.moves.helpers import mail_of, suzerain_at_a_takeable_move
from tests.play.players.helpers import play_moves
from tests.play.time.helpers import outbox, seats, start, to_act
from tests.play.time.test_mail_holds import DSN, message_id
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


# --- the clock sweep's notices, in each reader's language (issue 51, item 1) ----------------

def _speaks(svc, game_id, languages):
    """Set the language of each seat's player: {seat: "de"}."""
    emails = {r["seat"]: r["player"] for r in seats(svc, game_id)}
    with svc.db.transaction() as s:
        for seat, lang in languages.items():
            s.execute(update(Player).where(Player.email == emails[seat]).values(language=lang))


def _timeout_texts(svc, game_id):
    return {r["seat"]: r["payload"]["timeout"]["text"] for r in outbox(svc, game_id)
            if "timeout" in r["payload"]}


@pytest.mark.parametrize("bulk", [True, False], ids=["batched", "per-game"])
def test_a_timeout_notice_is_in_each_readers_language(services, bulk):
    """The default move played at the deadline: the German and the French player each read
    it in their own language, their own seat's as "you", in the batch and the per-game path."""
    g = start(services, clock="1d")
    late = to_act(services, g.game_id)[0]
    _speaks(services, g.game_id, {late: "de", 1 - late: "fr"})
    services.clock.advance(days=1)
    assert (play.timers(services) if bulk else timeouts.run(services, bulk=False)).timed_out == 1
    text = _timeout_texts(services, g.game_id)
    assert text[late].startswith("Du hast die Bedenkzeit überschritten; für dich wurde der "
                                 "Standardzug gespielt: ")
    assert text[1 - late].startswith(f"{{p{late}}} a dépassé son temps ; le coup par défaut "
                                     "a été joué à sa place : ")
    assert not any("ran out of time" in t for t in text.values())


def test_a_forfeit_and_a_wait_notice_are_in_the_readers_language(services):
    g = start(services, clock="1d", on_timeout="forfeit")
    late = to_act(services, g.game_id)[0]
    _speaks(services, g.game_id, {late: "fr", 1 - late: "de"})
    services.clock.advance(days=1)
    assert play.timers(services).outcomes == {"ended": 1}
    text = _timeout_texts(services, g.game_id)
    assert text[late] == "Vous avez dépassé votre temps et perdez par forfait."
    assert text[1 - late] == f"{{p{late}}} hat die Bedenkzeit überschritten und damit aufgegeben."
    w = start(services, clock="1d", on_timeout="wait", seed=9)
    late = to_act(services, w.game_id)[0]
    _speaks(services, w.game_id, {1 - late: "fr"})
    services.clock.advance(days=1)
    assert play.timers(services).outcomes == {"waiting": 1}
    (said,) = _timeout_texts(services, w.game_id).values()
    assert said == f"{{p{late}}} a dépassé son temps ; rien n'a été joué à sa place"


@pytest.mark.parametrize(("lang", "subject", "line"), [
    ("de", "Erinnerung: Du bist am Zug", "ERINNERUNG"),
    ("fr", "Rappel", "RAPPEL")])
def test_a_reminder_is_in_the_readers_language(services, lang, subject, line):
    g = start(services, clock="3d")
    first = to_act(services, g.game_id)[0]
    _speaks(services, g.game_id, {first: lang})
    services.clock.advance(days=3, hours=-18)
    assert play.timers(services).reminded == 1
    (row,) = outbox(services, g.game_id, "reminder")
    msg, text, _html = mail_of(services, row["id"])
    assert msg["Subject"].startswith(subject), msg["Subject"]
    assert line in text and "REMINDER" not in text and "Reminder" not in msg["Subject"]


def test_a_deadline_extended_by_another_player_is_told_in_german(services):
    g = start(services, clock="2d", on_timeout="wait")
    late = to_act(services, g.game_id)[0]
    _speaks(services, g.game_id, {late: "de", 1 - late: "de"})
    services.clock.advance(days=2)
    play.timers(services)
    done = timeouts.seat_action(services, g.game_id, 1 - late, 0, "extend", late)
    told = {r["seat"]: r["payload"]["timeout"]["text"]
            for r in outbox(services, g.game_id, "timeout") if r["payload"]["timeout"]
            .get("actions") is None}
    assert told[late].startswith(f"{{p{1 - late}}} hat deine Frist bis ")
    assert told[late].endswith(" verlängert") and "(in 2 Tagen)" in told[late]
    assert told[1 - late].startswith(f"Du hast die Frist von {{p{late}}} bis ")
    assert "now has until" in done      # the English page asked; its answer stays English


def test_a_vacation_day_taken_is_told_in_german(services):
    services.settings = dataclasses.replace(services.settings, AUTO_VACATION=True,
                                            VACATION_DAYS=5)
    g = start(services, clock="2d", on_timeout="forfeit")
    late = to_act(services, g.game_id)[0]
    _speaks(services, g.game_id, {late: "de", 1 - late: "de"})
    services.clock.advance(days=2)
    assert play.timers(services).outcomes == {"vacation": 1}
    text = _timeout_texts(services, g.game_id)
    assert text[late].startswith("Deine Bedenkzeit ist abgelaufen, daher wurde statt einer "
                                 "Zeitüberschreitung einer deiner Urlaubstage genommen (Tag 1 "
                                 "von ")
    assert text[late].endswith("Du hast dieses Jahr noch 4 Urlaubstage.")
    assert "und dieses Jahr bleiben noch 4 Urlaubstage" in text[1 - late]


# --- a link that does not work: the page in the reader's language ---------------------------

def test_a_tampered_links_page_follows_accept_language(app):
    answer = app.test_client().get("/m/" + "x" * 40, headers={"Accept-Language": "de"})
    assert answer.status_code == 400
    page = " ".join(answer.text.split())
    assert "Dieser Link ist beschädigt" in page and "Er stammt nicht von Turnpost" in page
    assert "damaged" not in page and "was not made by Turnpost" not in page


def test_a_link_for_something_else_says_both_purposes_in_french():
    signer = Signer("a secret")
    token = signer.dumps("view", Claims(1, 0))
    with pytest.raises(WrongPurpose) as refused:
        signer.loads("move", token)
    with catalogs.speaking("fr"):
        said = refused.value.detail
    assert said == "Ce lien sert à ouvrir la page d'une partie, pas à jouer un coup."
    assert str(refused.value) == "This is a link to open a game page, not to make a move."


# --- a tournament's words that reach a player outside its letters ----------------------------

def test_a_tournament_invitations_webhook_title_is_in_the_invitees_language(hooked_app):
    """Anna (English) invites Ben (French), whose webhook hears of it: its title is his."""
    app = hooked_app
    svc = app.extensions["turnpost"]
    make_player(app, BEN, "fr")
    anna = form_client(app)
    sign_in(anna, app, ANNA)
    with Receiver() as endpoint:
        hooks.register(svc, endpoint.url, kind="json", email=BEN, events="invitation")
        made = anna.post("/tournaments", data={
            "game": "trees", "format": "swiss", "rounds": "2", "clock": "3d",
            "entrants": f"{BEN}\nbot:easy"})
        assert made.status_code == 302, made.text
    doc = json.loads(endpoint.got[-1].raw)
    assert doc["event"] == "invitation"
    assert doc["title"].startswith("Tournoi de Trees "), doc["title"]


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Trees is for 2 to 4 players; a table of 7 cannot be seated."),
    ("de", "Trees ist für 2 bis 4 Spieler; ein Tisch mit 7 lässt sich nicht besetzen."),
    ("fr", "Trees se joue à 2 à 4 joueurs ; une table de 7 ne peut pas être formée.")])
def test_a_tournaments_refusal_counts_the_players_in_the_writers_language(lang, said):
    with catalogs.speaking(lang):
        with pytest.raises(tournaments.BadTournament) as refused:
            tournaments.table_size(registry.get("trees"), "swiss", 7)
    assert refused.value.detail == said


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "`extend 99` is outside the range allowed; write `extend 2d`: from 1 to 14 days."),
    ("de", "`verlängern 99` liegt außerhalb des Erlaubten; schreib `verlängern 2d`: 1 bis 14 "
           "Tage.")])
def test_an_extension_refused_is_in_the_writers_language(lang, said):
    with catalogs.speaking(lang):
        with pytest.raises(extensions.ExtensionRefused) as refused:
            extensions.parse_days("99")
    assert refused.value.detail == said


def test_a_game_for_too_many_players_is_refused_in_the_writers_language(services):
    with catalogs.speaking("fr"):
        with pytest.raises(play.PlayError) as refused:
            start(services, kind="magnate", players=[f"p{n}@example.org" for n in range(3)])
        said = refused.value.detail
    assert said == "Magnate se joue à 2 joueurs ; vous en avez demandé 3."


@pytest.mark.parametrize("lang, said", [
    ("de", "hat die Zug-E-Mail nicht erhalten (sie kam als unzustellbar zurück)"),
    ("fr", "n'a pas reçu l'e-mail de son tour (il est revenu comme non distribuable)"),
    ("en", "did not receive the turn email (it bounced); the clock of")])
def test_a_bounced_turn_email_is_told_to_the_others_in_their_language(services, lang, said):
    g = start(services, clock="2d")
    late = to_act(services, g.game_id)[0]
    with services.db.transaction() as s:
        other = s.get(Seat, (g.game_id, 1 - late)).player_id
        s.execute(update(Player).where(Player.id == other).values(language=lang))
    row = [r for r in outbox(services, g.game_id, "turn") if r["seat"] == late][-1]
    assert bounces.handle(services, DSN, message_id(services, row["id"]))[0] == "bounced"
    (told,) = outbox(services, g.game_id, "timeout")
    _msg, text, _html = mail_of(services, told["id"])
    assert said in " ".join(text.split())
