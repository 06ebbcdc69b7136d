"""The service's own refusals in the reader's language (issue 51): chat's, the players list's
and invitations', the clock, extension and calendar settings', and the replay page's whole
log; each said in German and French with none of its English left but what the player wrote
and the option words they are told to write, and shown so where a person reads it (the game
page, the lobby, the problem page). English readers keep the English word for word."""
from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

import pytest

from service import play
from service.mailwire.outbound import catalogs
from service.play import repository
from service.play.community import challenges, leagueshow, profiles
from service.play.moves import apiwrites, chat, notes, undo
from service.play.players import blocks, hooks, invitations, readdress, seatchanges, start
from service.play.readpolicy import Reader
from service.play.time import ClockError, SeatClock, clocks
from service.play.time.calendar import calendarrules, prefs
from service.store.models import Player
from tests.languages.helpers import left_in_english, make_player, words
from tests.web.helpers import form_client, sign_in, start_game

ANNA, BEN = "anna@example.org", "ben@example.org"

#: words a German or French refusal keeps as the English one has them: the words a player is
#: told to write (`bot`, `none`, `on`, day, event, preference and game names), names
#: (Turnpost, a time zone's cities), and words the languages spell alike ("Name", "position")
SAME = {"bot", "bots", "easy", "normal", "none", "on", "off", "forfeit", "wait", "default",
        "say", "in", "plus", "me", "get", "api", "v", "games", "sat", "sun", "mon", "tue",
        "wed", "thu", "fri", "tz", "europe", "berlin", "america", "new", "york", "min",
        "trees", "name", "message", "table", "long", "page", "position", "note", "notes",
        "webhook", "webhooks", "http", "https", "json", "discord", "slack", "turn",
        "invitation", "loopback", "private", "link", "an", "turnpost", "second", "magnate",
        "suzerain", "aristocracy", *words(" ".join(prefs.KEYS))}


#: a card and a district as the rules name them (a note's example), and the players' names
NAMED = ["the Mill", "Knots", "anna", "ben", "cleo"]


def _written(text: str) -> str:
    """A refusal less what the player wrote or is told to write: quoted values ('zzyzx'),
    settings (`clock=1h+0h`, `reminders=24h,4h,1h`, `game_over`), addresses and spans of
    hours."""
    return re.sub(r"'[^']*'|\S*[=@/\d_]\S*", " ", text)


def _english_left(said: str, english: str) -> set[str]:
    ours = {w for w in words(_written(english)) if len(w) > 1} - SAME
    return left_in_english(_written(said), NAMED, ours)


def _said(call) -> str:
    """What the refusal `call` raises says (a PlayError's detail, a ClockError's message)."""
    try:
        call()
    except play.PlayError as exc:
        return exc.detail
    except ClockError as exc:
        return str(exc)
    raise AssertionError("not refused")


def _refusals(app) -> dict[str, object]:
    """Every refusal below, as a call raising it, on a table of Anna and Ben (Anna's game)."""
    svc = app.extensions["turnpost"]
    for addr in (ANNA, BEN):
        make_player(app, addr, None)
    game = play.start_game(svc, "trees", [ANNA, BEN], {}).game_id
    with svc.db.transaction() as s:
        anna, ben = (s.query(Player).filter_by(email=a).one().id for a in (ANNA, BEN))
    now = datetime(2026, 12, 6, tzinfo=UTC)
    # a table of three whose third player has resigned: a second resignation is refused
    trio = play.start_game(svc, "aristocracy", [ANNA, BEN, "cleo@example.org"], {}).game_id
    seatchanges.resign(svc, trio, 2)
    # Ben's standing challenge, for players rated 2900 or more: Anna, a newcomer, is not
    steep = challenges.post(svc, ben, challenges.read_terms("trees", "3d", min_rating="2900",
                                                            min_reliability="90")).challenge_id
    with svc.db.transaction() as s:
        mover = min(repository.load(s, svc.states, game).engine.to_act(
            repository.load(s, svc.states, game).state))

    def in_session(call):
        def run():
            with svc.db.transaction() as s:
                call(s)
        return run

    def game_with(**options):
        return lambda: play.start_game(svc, "trees", [ANNA, BEN], options)

    def invite(invitees, kind="trees", **kw):
        return lambda: invitations.create_game(svc, anna, kind, invitees, **kw)

    return {
        # chat (service.play.moves.chat)
        "chat empty": lambda: chat.say(svc, game, 0, "  "),
        "chat too long": lambda: chat.say(svc, game, 0, "x" * 2001),
        "chat no such player": lambda: chat.say(svc, game, 0, "hi", 6),
        "chat to oneself": lambda: chat.say(svc, game, 0, "hi", 0),
        # the players list (service.play.players.start)
        "name too long": lambda: start.parse_player("Q" * 70 + " <q@example.org>"),
        "name with control characters": lambda: start.parse_player("Q\u200bQ <q@example.org>"),
        "bot with an address": lambda: start.parse_entry("bot:q@example.org", "example.com"),
        "no such bot": lambda: start.parse_entry("bot:hard", "example.com"),
        "an address of ours": lambda: start.parse_entry("q@example.com", "example.com"),
        "no such game": lambda: play.start_game(svc, "zzyzx", [ANNA, BEN], {}),
        "bots only": lambda: play.start_game(svc, "trees", ["bot", "bot"], {}),
        "one address twice": lambda: play.start_game(svc, "trees", [ANNA, ANNA], {}),
        "practice: no such bot": lambda: start.start_practice(svc, "trees", 2, "hard", {}),
        "practice: a bot's seat": lambda: start.start_practice(svc, "trees", 2, "easy", {},
                                                               address="bot"),
        "practice: mail, no address": lambda: start.start_practice(svc, "trees", 2, "easy",
                                                                   {}, mail=True),
        "practice: no bot": lambda: start.start_practice(svc, "trees", 1, "easy", {}),
        # invitations (service.play.players.invitations)
        "too many invited": invite([f"p{n}@example.org" for n in range(13)]),
        "too many seats": invite([BEN], open_seats=9),
        "a seat asked twice": invite([BEN, BEN]),
        "an address refused": invite(["ben@"]),
        "invitations: no such game": invite([BEN], kind="zzyzx"),
        "no open seat": lambda: invitations.join_open_seat(svc, ben, 999),
        "a rematch too early": lambda: invitations.rematch(svc, game, 0),
        # clock and extension settings (service.play.time)
        "not a clock": game_with(clock="soon"),
        "nothing added": game_with(clock="7d+0h"),
        "more added than banked": game_with(clock="1d+2d"),
        "too short a clock": game_with(clock="0h"),
        "too long a clock": game_with(clock="999d"),
        "too short a bank": game_with(clock="0h+0h"),
        "no such timeout policy": game_with(on_timeout="never"),
        "no such number of extensions": game_with(extensions="99"),
        "not a day": game_with(rest_days="funday"),
        "every day a rest day": game_with(rest_days="mon,tue,wed,thu,fri,sat,sun"),
        "no deadline to extend": lambda: clocks.extend_once(clocks.fixed(timedelta(days=1)),
                                                            SeatClock(), now),
        "extended already": lambda: clocks.extend_once(
            clocks.fixed(timedelta(days=1)),
            SeatClock(deadline=now, turn_started=now, extended=True), now),
        "not a span of hours": lambda: calendarrules.parse_quiet_hours("late"),
        "too long a quiet": lambda: calendarrules.parse_quiet_hours("08-07"),
        "not a reminder": lambda: calendarrules.parse_reminders("soon"),
        "too many reminders": lambda: calendarrules.parse_reminders("1h,2h,3h,4h,5h,6h,7h"),
        "a reminder too early": lambda: calendarrules.check_reminders_fit(
            (timedelta(days=9),), timedelta(days=3)),
        "not on or off": lambda: calendarrules.parse_switch("vacation_mail", "maybe"),
        "no such preference": lambda: prefs.save_preferences(svc, {"zz9": "1"}, email=ANNA),
        "no such player": lambda: prefs.save_preferences(svc, {"tz": "UTC"},
                                                         email="nobody@example.org"),
        "no such time zone": lambda: prefs.save_preferences(svc, {"tz": "Mars/Olympus"},
                                                            email=ANNA),
        # moves, take-backs, notes and blocks (service.play.moves, players.blocks)
        "a position never reached": lambda: play.submit(svc, play.Intent(
            game, mover, lines=["harvest"], expected_seq=99)),
        "moved on since the email": lambda: play.submit(svc, play.Intent(
            game, mover, lines=["harvest"], expected="zz")),
        "moved on, another to move": lambda: play.submit(svc, play.Intent(
            game, 1 - mover, lines=["harvest"], expected="zz")),
        "no move in that": lambda: play.submit(svc, play.Intent(game, mover)),
        "nothing to take back": lambda: undo.ask(svc, game, mover),
        "no request to answer": lambda: undo.answer(svc, game, 1 - mover, True),
        "no such game number": in_session(lambda s: repository.game_row(s, 999)),
        "an empty note": in_session(lambda s: notes.write(s, svc, game, 0, anna, " ")),
        "too long a note": in_session(lambda s: notes.write(s, svc, game, 0, anna, "x" * 501)),
        "blocking oneself": lambda: blocks.block(svc, anna, anna),
        "blocking nobody": lambda: blocks.block(svc, anna, 999),
        # the API's writes, resigning twice, reports and webhooks
        "no position with that number": lambda: apiwrites.move(svc, game, anna, lines=["x"],
                                                               seq=0),
        "not a listed move object": lambda: apiwrites.move(svc, game, anna,
                                                           move_object={"type": "zzyzx"}),
        "nothing to say": lambda: apiwrites.say(svc, game, anna, " "),
        "resigned already": lambda: seatchanges.resign(svc, trio, 2),
        "no such webhook": lambda: hooks.test(svc, anna, 999),
        "not a webhook address": lambda: hooks.check_url(" ", False),
        "not http": lambda: hooks.check_url("ftp://example.org/x", False),
        "a private address": lambda: hooks.check_url("http://127.0.0.1/x", False),
        "not a kind of webhook": lambda: hooks.register(svc, "https://example.org/x",
                                                        kind="zz", email=ANNA),
        "not an event": lambda: hooks.read_events("zz9"),
        # moving an account (service.play.players.readdress)
        "the address already": lambda: readdress.request(svc, anna, ANNA),
        "another player's address": lambda: readdress.request(svc, anna, BEN),
        # standing challenges (service.play.community.challenges)
        "a challenge for no game": lambda: challenges.read_terms("zzyzx", "3d"),
        "a challenge without a clock": lambda: challenges.read_terms("trees", "none"),
        "a rating out of range": lambda: challenges.read_terms("trees", "3d", min_rating="9999"),
        "an empty rating range": lambda: challenges.read_terms("trees", "3d", min_rating="1700",
                                                               max_rating="1400"),
        "not a percentage": lambda: challenges.read_terms("trees", "3d", min_reliability="150"),
        "not a whole number": lambda: challenges.read_terms("trees", "3d", max_rating="lots"),
        "a second challenge": lambda: challenges.post(svc, ben, challenges.read_terms(
            "trees", "3d")),
        "terms not met": lambda: challenges.accept(svc, anna, steep),
        "one's own challenge": lambda: challenges.accept(svc, ben, steep),
        "no open challenge": lambda: challenges.accept(svc, anna, 999),
        "not one's to withdraw": lambda: challenges.withdraw(svc, anna, steep),
        # a league or a leaderboard that is none (service.play.community)
        "no such league": lambda: leagueshow.show(svc, 999),
        "no such leaderboard": lambda: profiles.board(svc, "zz9"),
        # the replay page's whole log, and a game one may not see (service.play.reads)
        "the whole log too early": lambda: play.whole_log(svc, Reader.player(anna), game),
        "no such game log": lambda: play.whole_log(svc, Reader.player(anna), 999),
        "no such game to read": lambda: play.read_game(svc, 999, Reader.at(999, 0)),
    }


@pytest.fixture
def refusals(app):
    return _refusals(app)


def test_each_refusal_keeps_its_english(refusals):
    english = {k: _said(call) for k, call in refusals.items()}
    assert english["chat too long"] == ("The message is 2,001 characters long; the most is "
                                        "2,000. Please shorten it.")
    assert english["practice: no such bot"] == ("There is no bot called 'hard'; the bots are "
                                                "easy and normal.")
    assert english["too many seats"] == ("Trees is for 2 to 4 players; you asked for 11 (you, "
                                         "1 invited, 9 open).")
    assert english["no such timeout policy"].startswith("on_timeout=never is not a timeout "
                                                        "policy: write bot (the default")


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_each_refusal_is_in_the_readers_language(refusals, lang):
    english = {k: _said(call) for k, call in refusals.items()}
    with catalogs.speaking(lang):
        said = {k: _said(call) for k, call in refusals.items()}
    same = [k for k in said if said[k] == english[k]]
    assert not same, same
    left = {k: w for k in said if (w := _english_left(said[k], english[k]))}
    assert not left, {k: (said[k], w) for k, w in left.items()}


# ------------------------------------------------------------------ where a person reads them

ERROR_CARD = re.compile(r'<div class="card error">\s*<p class="status">(.*?)</p>\s*<p>(.*?)</p>',
                        re.S)


def _error_card(page) -> tuple[str, str]:
    """The problem page's title and detail, as the reader reads them."""
    return tuple(html.unescape(x) for x in ERROR_CARD.search(page.text).groups())


@pytest.mark.parametrize(("lang", "said"), [
    ("de", ("Die Nachricht wurde nicht verschickt",
            "In dieser Partie gibt es keinen Spieler 8; die Spieler sind 1 bis 2.")),
    ("fr", ("Ce message n’a pas été envoyé",
            "Il n’y a pas de joueur 8 dans cette partie ; les joueurs vont de 1 à 2.")),
    ("en", ("That message was not sent",
            "There is no player 8 in this game; the players are 1 to 2."))])
def test_a_chat_refusal_on_the_game_page_is_in_the_pages_language(app, lang, said):
    svc = app.extensions["turnpost"]
    game = start_game(app, "trees", [ANNA, BEN]).game_id
    page = form_client(app).post(svc.urls.game_path(game, 0) + "/say",
                                 data={"text": "hi", "to": "7"},
                                 headers={"Accept-Language": lang})
    assert page.status_code == 422 and _error_card(page) == said


@pytest.mark.parametrize(("lang", "said"), [
    ("de", ("Erst wenn die Partie vorbei ist", "Das ganze Protokoll zeigt jede verdeckte "
            "Karte, deshalb kann man es erst nach dem Ende der Partie herunterladen.")),
    ("fr", ("Pas avant la fin de la partie", "Le journal complet montre toutes les cartes "
            "cachées : il ne peut donc être téléchargé qu’une fois la partie terminée.")),
    ("en", ("Not until the game is over", "The whole log shows every hidden card, so it can "
            "be downloaded once the game is over."))])
def test_the_whole_log_refused_before_the_end_is_in_the_pages_language(app, lang, said):
    svc = app.extensions["turnpost"]
    game = start_game(app, "trees", [ANNA, BEN]).game_id
    page = form_client(app).get(svc.urls.game_path(game, 0) + "/whole-log.json",
                                headers={"Accept-Language": lang})
    title, detail = _error_card(page)
    assert page.status_code == 403 and title == said[0] and detail.startswith(said[1])


@pytest.mark.parametrize(("lang", "said"), [
    ("de", ["Es gibt keinen Bot namens 'hard'; die Bots heißen easy und normal.",
            "clock=soon ist keine Bedenkzeit: Schreib none, eine Zeit pro Zug wie 3d oder "
            "12h oder ein Zeitkonto mit Zuschlag wie 7d+1d",
            "'funday' ist kein Wochentag: Schreib Ruhetage als mon,tue,wed,thu,fri,sat,sun, "
            "etwa rest_days=sat,sun (oder rest_days=none)."]),
    ("fr", ["Il n’y a pas de bot appelé 'hard' ; les bots sont easy et normal.",
            "clock=soon n’est pas une cadence : écrivez none, un temps par coup comme 3d ou "
            "12h, ou une réserve plus un incrément comme 7d+1d",
            "'funday' n’est pas un jour : écrivez les jours de repos parmi "
            "mon,tue,wed,thu,fri,sat,sun, par exemple rest_days=sat,sun (ou rest_days=none)."]),
    ("en", ["There is no bot called 'hard'; the bots are easy and normal.",
            "clock=soon is not a time control: write none, a time per move such as 3d or "
            "12h, or a bank plus increment such as 7d+1d",
            "'funday' is not a day: write rest days as mon,tue,wed,thu,fri,sat,sun, such as "
            "rest_days=sat,sun (or rest_days=none)."])])
def test_the_lobbys_refused_players_and_clocks_are_in_the_pages_language(app, lang, said):
    """The practice form's bot, and the invitation form's clock and rest days, refused beside
    the form in the language the browser asks for."""
    browser = form_client(app)
    browser.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    practice = browser.post("/practice", data={"table": "trees:2", "level": "hard"})
    assert practice.status_code == 400 and said[0] in html.unescape(practice.text)
    sign_in(browser, app, ANNA)
    for fields, wanted in [({"clock": "soon"}, said[1]), ({"rest_days": "funday"}, said[2])]:
        page = browser.post("/games", data={"game": "trees", "players": BEN, **fields})
        assert page.status_code == 400 and wanted in html.unescape(page.text), wanted


@pytest.mark.parametrize(("lang", "said"), [
    ("de", ("Dieses Formular ist abgelaufen", "Die Seite, von der das Formular kam, ist zu alt")),
    ("fr", ("Ce formulaire a expiré", "La page d’où vient le formulaire est trop ancienne")),
    ("en", ("This form has expired", "The page the form came from is too old"))])
def test_an_expired_form_is_refused_in_the_pages_language(app, lang, said):
    """A form posted without its page's token (too old, or another browser's)."""
    page = app.test_client().post("/practice", data={"table": "trees:2"},
                                  headers={"Accept-Language": lang})
    title, detail = _error_card(page)
    assert page.status_code == 400 and title == said[0] and detail.startswith(said[1])
