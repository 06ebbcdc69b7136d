"""One command runner and one after-commit seam for every way in (issue 48, items 1 and 2): a
one-click link, the game page, a reply, the JSON API and `flask move` hand their lines to
service/play/moves/runner.py, and what a commit calls for (the emails, the bot's answer) is
run by service/play/aftercommit.py. So the same move gets the same bot answer and the same
emails whichever way it came in, and a batch with a refused line stores nothing, anywhere."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from service import play
from service.games.trees import GAME as TREES
from service.play import repository
from service.play.players import personaltokens
from service.store.models import ChatMessage, EventRow, ExtensionRequest, Plan
from tests.play.mail.test_replies import reply_to
from tests.play.moves.test_plans_trees_magnate import trees_exchange
from tests.web.helpers import form_client, latest_to, mails, move_links, start_game, text_of

ANNA, BEN = "anna@example.org", "ben@example.org"


# --- the same move, five ways in -------------------------------------------------------------

def _link(app, gid, text, path):
    return app.test_client().post(path).status_code


def _page(app, gid, text, path):
    url = app.extensions["turnpost"].urls.game_path(gid, 0)
    r = form_client(app).post(url + "/play", data={"commands": text})
    return 200 if r.status_code == 302 else r.status_code      # back to the page: done


def _reply(app, gid, text, path):
    with app.app_context():
        play.accept_mail(app.extensions["turnpost"], reply_to(latest_to(app, ANNA), text),
                         "smtp")
    return 200


def _api(app, gid, text, path):
    token = personaltokens.create(app.extensions["turnpost"], ANNA, "runner")[1]
    return app.test_client().post(f"/api/v1/games/{gid}/moves", json={"command": text},
                                  headers={"Authorization": f"Bearer {token}"}).status_code


def _cli(app, gid, text, path):
    with app.app_context():
        result = app.test_cli_runner().invoke(args=["move", str(gid), "0", *text.split()])
    return 200 if result.exit_code == 0 else result.output


def _plain(text: str, gid: int) -> str:
    """An email's words without what differs between two games of the same deal: its links
    (signed for that game), its number, and the other games waiting on its reader (the apps
    share one database, so the first way's game waits on Anna while the second is played)."""
    text = re.sub(r"https?://\S+", "<link>", text)
    text = re.sub(r"\r?\n\r?\nAlso your move in \d+ other games?: .*?\r?\nAll your games: <link>",
                  "", text, flags=re.S)
    return re.sub(rf"(#|[Gg]ame ){gid}\b", r"\1<game>", text)


def _after_the_move(app, gid, seq):
    """The bot's answer (its events) and Anna's emails since position `seq`."""
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        answered = [(e.seat, e.source, e.type, e.data) for e in s.scalars(
            select(EventRow).where(EventRow.game_id == gid, EventRow.seq > seq)
            .order_by(EventRow.seq)) if e.source == "bot"]
    return answered


@pytest.mark.parametrize("way", [_link, _page, _reply, _api, _cli])
def test_the_same_move_gets_the_same_bot_answer_and_the_same_emails_every_way_in(
        app_factory, way):
    found = {}
    for channel in (_link, way):
        app = app_factory()           # the same seed: the same deal, the same bot
        gid = start_game(app, "trees", [ANNA, "bot"]).game_id
        ours = latest_to(app, ANNA)
        text, path = move_links(ours)[0]
        svc = app.extensions["turnpost"]
        seq = play.read_game(svc, gid, play.Reader.at(gid, 0)).page.seq
        sent = {m["Message-ID"] for m in mails(app)}      # the apps share one Maildir
        assert channel(app, gid, text, path) == 200, channel.__name__
        emails = [(m["To"], _plain(m["Subject"], gid), _plain(text_of(m), gid))
                  for m in mails(app) if m["Message-ID"] not in sent]
        found[channel.__name__] = (_after_the_move(app, gid, seq), emails)
    link, other = found["_link"], found[way.__name__]
    assert link[0], "the bot answered the move at once, before any sweep"
    assert other == link
    assert [to for to, _, _ in link[1]] == [ANNA]     # her next turn, after the bot's move


# --- a batch is all or none, every way in ------------------------------------------------------

def _stored(svc, gid) -> dict:
    with svc.db.transaction() as s:
        def count(model):
            return s.scalar(select(func.count()).select_from(model)
                            .where(model.game_id == gid))
        return {"events": count(EventRow), "plans": count(Plan),
                "said": count(ChatMessage), "extensions": count(ExtensionRequest)}


def _to_act(app, gid):
    svc = app.extensions["turnpost"]
    seat = play.read_game(svc, gid, play.Reader.at(gid, None)).page.to_act[0]
    return seat, (ANNA, BEN)[seat]


def test_a_page_batch_of_a_good_plan_and_a_refused_one_keeps_neither(app):
    """Issue 49, item 23: "a page batch of a good plan line and a refused one answered 422 yet
    kept the good plan" (each word ran in a transaction of its own)."""
    svc = app.extensions["turnpost"]
    gid = start_game(app, "trees", [ANNA, BEN]).game_id
    with svc.db.transaction() as s:
        pos = repository.load(s, svc.states, gid)
    mover, theirs, mine = trees_exchange(pos.state)
    waiting = 1 - mover
    good = f"if they {TREES.describe(theirs)} then {TREES.describe(mine)}"
    page = svc.urls.game_path(gid, waiting)
    alone = form_client(app).post(page + "/play", data={"commands": good})
    assert alone.status_code == 302 and _stored(svc, gid)["plans"] == 1    # a good plan
    with svc.db.transaction() as s:
        s.execute(Plan.__table__.delete())
    before = _stored(svc, gid)
    r = form_client(app).post(page + "/play",
                              data={"commands": f"{good}\nif they frobnicate then harvest"})
    assert r.status_code == 422
    assert "frobnicate" in r.text
    assert _stored(svc, gid) == before                     # the good plan was not kept


BATCH = "{move}\nsay good luck\nextend 99d"        # the last line is refused (1 to 14 days)


def _batch_by_page(app, gid, seat, addr, lines):
    url = app.extensions["turnpost"].urls.game_path(gid, seat)
    r = form_client(app).post(url + "/play", data={"commands": lines})
    return r.status_code, r.text


def _batch_by_api(app, gid, seat, addr, lines):
    token = personaltokens.create(app.extensions["turnpost"], addr, "batch")[1]
    r = app.test_client().post(f"/api/v1/games/{gid}/moves",
                               json={"commands": lines.splitlines()},
                               headers={"Authorization": f"Bearer {token}"})
    # a word's refusal is the kind's status (409 here), a move's 422; either names the line
    return {409: 422}.get(r.status_code, r.status_code), f"{r.json['detail']} {r.json['line']}"


def _batch_by_reply(app, gid, seat, addr, lines):
    with app.app_context():
        play.accept_mail(app.extensions["turnpost"], reply_to(latest_to(app, addr), lines),
                         "smtp")
    return 422, text_of(latest_to(app, addr))


@pytest.mark.parametrize("way", [_batch_by_page, _batch_by_api, _batch_by_reply])
def test_one_refused_line_stores_nothing_of_its_batch_every_way_in(app, way):
    svc = app.extensions["turnpost"]
    gid = start_game(app, "trees", [ANNA, BEN]).game_id
    seat, addr = _to_act(app, gid)
    move = play.read_game(svc, gid, play.Reader.at(gid, seat)).page.all_moves[0]["text"]
    before = _stored(svc, gid)
    status, said = way(app, gid, seat, addr, BATCH.format(move=move))
    assert status == 422
    assert "extend 99d" in said and "outside the range" in said
    assert _stored(svc, gid) == before           # no move, no message, no request


def test_a_refused_vacation_refuses_the_batch_before_anything_is_stored(app):
    """`back` acts on every game, after the batch commits, but what it would refuse (not on
    vacation) is refused with the batch: the move beside it is not made either."""
    svc = app.extensions["turnpost"]
    gid = start_game(app, "trees", [ANNA, BEN]).game_id
    seat, addr = _to_act(app, gid)
    move = play.read_game(svc, gid, play.Reader.at(gid, seat)).page.all_moves[0]["text"]
    before = _stored(svc, gid)
    status, said = _batch_by_page(app, gid, seat, addr, f"{move}\nback")
    assert status == 422 and "not on vacation" in said
    assert _stored(svc, gid) == before
