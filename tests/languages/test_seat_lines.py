"""The service's own lines in a game's history (issue 51, item 1): a resignation, an extension
agreed or declined, a seat switched to the default move, a take-over and a vacation day are
read in the reader's language, and by the seat they are about in its own form (German du,
French vous); a line stored as English text before is shown as it is; the data export gives
the English, and an erasure still takes the player's name out of a take-over line."""
from __future__ import annotations

import dataclasses
import json
import re

import pytest
from sqlalchemy import select

from service import play
from service.linking.signer import Claims
from service.mailwire.outbound import catalogs
from service.play.players import erasure, seatchanges
from service.play.reads import mydata
from service.play.time.sweep import timeouts
from service.store.models import SeatChange
from tests.play.helpers import position
from tests.play.time.helpers import start, to_act

THREE = ["Anna <anna@example.org>", "Ben <ben@example.org>", "Carla <carla@example.org>"]
DORA = "dora@example.org"
#: what a line may keep of its English: the players' names and the invited address
NAMES = {"anna", "ben", "carla", "dora", "example", "org"}


def lines(svc, game_id: int, seat: int | None, lang: str | None) -> dict[str, str]:
    """The seat changes of the game's history as `seat` reads them in `lang`, by kind."""
    with catalogs.speaking(lang):
        read = play.read_game(svc, game_id, play.Reader.at(game_id, seat))
    kinds = {c for c, in _rows(svc, game_id, SeatChange.kind)}
    return {h["type"]: h["text"] for h in read.history if h.get("type") in kinds}


def _rows(svc, game_id: int, *columns):
    with svc.db.transaction() as s:
        return s.execute(select(*columns).where(SeatChange.game_id == game_id)
                         .order_by(SeatChange.id)).all()


def english_left(line: str, english: str) -> set[str]:
    """The words of the English `english` that `line` still says, but the names (and "a",
    which French has as a word of its own)."""
    def words(text):
        return {w.lower() for w in re.findall(r"[^\W\d_]+", text)}
    return (words(line) & words(english)) - NAMES - {"a"}


def check(svc, game_id: int, seats, mine: dict[str, dict[str, str]]):
    """Each kind's line read by every seat in German and French has no English but names,
    and reads to the seat it is about (the `mine` seat of each kind) as `mine` says."""
    for seat in seats:
        english = lines(svc, game_id, seat, None)
        for lang in ("de", "fr"):
            told = lines(svc, game_id, seat, lang)
            assert told.keys() == english.keys()
            for kind, line in told.items():
                assert not english_left(line, english[kind]), (lang, seat, line)
    for kind, (seat, by_lang) in mine.items():
        for lang, expected in by_lang.items():
            assert lines(svc, game_id, seat, lang)[kind] == expected, (kind, lang)


def _three_seats(services):
    """A game of THREE on a 2-day clock: it, the seat to act, and the other two in order."""
    g = start(services, players=THREE, clock="2d")
    asker = to_act(services, g.game_id)[0]
    first, second = sorted({0, 1, 2} - {asker})
    return g, asker, first, second


def test_an_extension_agreed_a_resignation_and_a_takeover(services):
    g, asker, first, second = _three_seats(services)
    play.runner.run_line(services, g.game_id, asker, "extend 2d")
    play.runner.run_line(services, g.game_id, first, "agree")
    play.runner.run_line(services, g.game_id, second, "agree")
    seatchanges.resign(services, g.game_id, second)
    seatchanges.invite_replacement(services, g.game_id, first, second, DORA)
    holder = position(services, g.game_id).row.seats[second].holder
    seatchanges.accept_replacement(services, services.urls.signer.dumps(
        "invite", Claims(g.game_id, second, move={"email": DORA}, holder=holder)))
    names = [s.player.name for s in position(services, g.game_id).row.seats]
    english = lines(services, g.game_id, None, None)
    # a seat is named as it is called now; the take-over line names who it was then
    assert english == {
        "extended": f"everyone agreed: {names[asker]} has 2 more days",
        "resigned": "dora resigned",
        "invited": f"{names[first]} invited {DORA} to take over dora's seat",
        "replaced": f"dora took over {THREE[second].split()[0]}'s seat"}
    # English word for word, the reader's own line as before
    assert lines(services, g.game_id, asker, None)["extended"] == \
        "everyone agreed: you have 2 more days"
    check(services, g.game_id, [None, asker, first], {
        "extended": (asker, {"de": "Alle haben zugestimmt: Du hast 2 Tage mehr",
                             "fr": "Tout le monde a accepté : vous avez 2 jours de plus"}),
        "invited": (first, {"de": f"Du hast {DORA} eingeladen, den Platz von dora zu "
                                  "übernehmen",
                            "fr": f"Vous avez invité {DORA} à reprendre la place de dora"})})


def test_a_resignation_read_by_the_seat_itself(services):
    g = start(services, players=THREE, clock="2d")
    seatchanges.resign(services, g.game_id, 2)
    assert lines(services, g.game_id, 2, None) == {"resigned": "You resigned"}
    check(services, g.game_id, [0, 2], {"resigned": (2, {"de": "Du hast aufgegeben",
                                                         "fr": "Vous avez abandonné"})})
    assert lines(services, g.game_id, 0, "de") == {"resigned": "Carla hat aufgegeben"}


def test_an_extension_declined(services):
    g, asker, first, second = _three_seats(services)
    play.runner.run_line(services, g.game_id, asker, "extend 1d")
    play.runner.run_line(services, g.game_id, second, "decline")
    who = [p.split()[0] for p in THREE]
    assert lines(services, g.game_id, first, None) == {
        "extension declined": f"{who[second]} declined the request of {who[asker]} for "
                              "1 more day"}
    check(services, g.game_id, [first, asker, second], {"extension declined": (asker, {
        "de": f"{who[second]} hat deine Bitte um 1 Tag mehr abgelehnt",
        "fr": f"{who[second]} a refusé votre demande de 1 jour de plus"})})
    assert lines(services, g.game_id, second, "fr")["extension declined"] == \
        f"Vous avez refusé la demande de 1 jour de plus faite par {who[asker]}"


def test_a_deadline_extended_then_the_seat_switched_to_the_default_move(services):
    g = start(services, clock="2d", on_timeout="wait")
    late = to_act(services, g.game_id)[0]
    services.clock.advance(days=2)
    play.timers(services)
    timeouts.seat_action(services, g.game_id, 1 - late, 0, "extend", late)
    services.clock.advance(days=2)
    play.timers(services)
    timeouts.seat_action(services, g.game_id, 1 - late, 0, "bot", late)
    who = ["Anna", "Ben"]
    assert lines(services, g.game_id, late, None) == {
        "extended": f"Your deadline was extended by {who[1 - late]}",
        "bot": f"{who[1 - late]} asked for your turns to be played by the default move"}
    check(services, g.game_id, [0, 1], {
        "extended": (1 - late, {"de": f"Die Frist von {who[late]} wurde von dir verlängert",
                                "fr": f"L'échéance de {who[late]} a été prolongée par vous"}),
        "bot": (late, {
            "de": f"{who[1 - late]} hat veranlasst, dass deine Züge mit dem Standardzug "
                  "gespielt werden",
            "fr": f"{who[1 - late]} a demandé que vos tours soient joués par le coup par "
                  "défaut"})})


@pytest.mark.parametrize("bulk", [True, False], ids=["batched", "per-game"])
def test_a_vacation_day(services, bulk):
    services.settings = dataclasses.replace(services.settings, AUTO_VACATION=True,
                                            VACATION_DAYS=5)
    g = start(services, clock="2d", on_timeout="forfeit")
    late = to_act(services, g.game_id)[0]
    services.clock.advance(days=2)
    assert (play.timers(services) if bulk else timeouts.run(services, bulk=False)
            ).outcomes == {"vacation": 1}
    assert lines(services, g.game_id, late, None)["vacation_day"].startswith(
        "You ran out of time: a vacation day was taken instead of a timeout (1 of the ")
    check(services, g.game_id, [0, 1], {"vacation_day": (late, {
        "de": "Deine Bedenkzeit ist abgelaufen: Statt einer Zeitüberschreitung wurde ein "
              "Urlaubstag genommen (Tag 1 von 3, die diese Partie pro Spieler nimmt)",
        "fr": "Votre temps est écoulé : un jour de vacances a été pris au lieu d'un "
              "dépassement de temps (jour 1 sur les 3 que cette partie prend par joueur)"})})


def test_a_line_stored_as_text_before_is_shown_as_it_is(services):
    g = start(services, players=THREE, clock="2d")
    seatchanges.resign(services, g.game_id, 2)
    with services.db.transaction() as s:
        s.execute(SeatChange.__table__.update().values(text="{p2} resigned"))
    assert lines(services, g.game_id, 2, "de") == {"resigned": "You resigned"}
    assert lines(services, g.game_id, 0, "fr") == {"resigned": "Carla resigned"}


def test_the_export_gives_the_english_and_erasure_unnames_a_takeover(services):
    # a name that is also a word of the line's template: erasure renames the name, never
    # the template (nor the kept line's own keys)
    g = start(services, players=THREE[:2] + ["took <took@example.org>"], clock="2d")
    seatchanges.resign(services, g.game_id, 2)
    seatchanges.invite_replacement(services, g.game_id, 0, 2, DORA)
    holder = position(services, g.game_id).row.seats[2].holder
    seatchanges.accept_replacement(services, services.urls.signer.dumps(
        "invite", Claims(g.game_id, 2, move={"email": DORA}, holder=holder)))
    doc = mydata.export_address(services, DORA)
    assert [c["text"] for c in doc["games"][0]["seat_changes"]] == [
        "dora resigned", "Anna invited dora@example.org to take over dora's seat",
        "dora took over took's seat"]
    erasure.erase(services, "took@example.org")
    kept = json.loads(_rows(services, g.game_id, SeatChange.text)[2][0])
    anonymous = kept["say"]["args"]["old"]
    assert anonymous.startswith("former player ")
    assert kept["text"] == f"dora took over {anonymous}'s seat"
    assert kept["say"]["template"] == "{new} took over {old}'s seat"
    assert lines(services, g.game_id, 0, "de")["replaced"] == \
        f"dora hat den Platz von {anonymous} übernommen"
    assert lines(services, g.game_id, 0, None)["replaced"] == \
        f"dora took over {anonymous}'s seat"
