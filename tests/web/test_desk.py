"""The player's desk (issue 50): a player to move in several games is told so in each turn
email and offered the next one after a move (done page, game page, the API's `nextGame`); a
private note (`note ...`) is shown to its writer alone, everywhere they look, and nowhere
else."""
from __future__ import annotations

import json

from sqlalchemy import select

from service import play
from service.play import repository
from service.play.moves import notes, wordregistry
from service.play.players import personaltokens
from service.play.reads import mydata, waiting
from service.store.models import GameRow, Note, Player
from tests.play.mail.test_replies import reply_to
from tests.web.helpers import (
    form_client,
    html_of,
    latest_to,
    mails,
    move_links,
    start_game,
    text_of,
)

ME, BEN = "me@example.org", "ben@example.org"
SECRET = "keep the Mill for the Knots district!"


def _seats(app, gid):
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        pos = repository.load(s, svc.states, gid)
        mine = next(r.seat for r in pos.row.seats if r.player.email == ME)
        return pos, mine


def _my_turn(app, gid) -> int:
    """Ben moves until it is my turn in the game; my seat."""
    svc = app.extensions["turnpost"]
    for _ in range(10):
        pos, mine = _seats(app, gid)
        to_act = pos.engine.to_act(pos.state)
        if mine in to_act:
            return mine
        (other,) = to_act
        move = pos.engine.legal_moves(pos.state, other)[0]
        play.submit(svc, play.Intent(gid, other, moves=[move], source="web"))
    raise AssertionError("never my turn")


def _three_games(app) -> list[int]:
    games = []
    for _ in range(3):
        gid = start_game(app, "trees", [ME, BEN]).game_id
        _my_turn(app, gid)
        games.append(gid)
    return games


def _api(app, addr):
    token = personaltokens.create(app.extensions["turnpost"], addr, "desk")[1]
    return {"Authorization": f"Bearer {token}"}


def _mine_in(app, gid):
    return [m for m in mails(app) if m["To"] == ME and f"#{gid}" in m["Subject"]]


# --- games waiting ------------------------------------------------------------------------

def test_a_turn_email_names_the_other_games_waiting(app):
    g1, g2, g3 = _three_games(app)
    last = _mine_in(app, g3)[-1]
    text, html = text_of(last), html_of(last)
    assert "Also your move in 2 other games: " in text
    assert f"Trees #{g1}" in text and f"Trees #{g2}" in text and "http://turnpost.test/me" in text
    assert "Also your move in 2 other games" in html and 'href="http://turnpost.test/me"' in html
    # the first game's email was composed when nothing else waited
    assert "Also your move" not in text_of(_mine_in(app, g1)[0])


def test_one_other_game_is_one_game(app):
    g1 = start_game(app, "trees", [ME, BEN]).game_id
    _my_turn(app, g1)
    g2 = start_game(app, "trees", [ME, BEN]).game_id
    _my_turn(app, g2)
    assert "Also your move in 1 other game: " in text_of(_mine_in(app, g2)[-1])


def test_the_done_page_offers_the_next_game(app):
    svc = app.extensions["turnpost"]
    g1, g2, g3 = _three_games(app)
    _, path = move_links(_mine_in(app, g3)[-1])[0]
    done = form_client(app).post(path).text
    assert "Next game" in done
    token = done.split('id="next-game"')[1].split('href="/g/')[1].split('"')[0]
    claims = svc.urls.signer.loads("view", token)
    assert claims.game in (g1, g2)
    _, mine = _seats(app, claims.game)
    assert claims.seat == mine
    # its page is my seat's page, and it is my move there
    assert form_client(app).get("/g/" + token).status_code == 200


def test_a_move_by_link_reads_its_next_game_in_the_move_s_own_transaction(app):
    """One pool checkout for the move and its "Next game" (issue 53): the second read was a
    transaction of its own, a checkout, a ping, BEGIN and COMMIT for one statement."""
    from sqlalchemy import event
    svc = app.extensions["turnpost"]
    _three_games(app)
    _, path = move_links(_mine_in(app, _three_games(app)[-1])[-1])[0]
    checkouts, kicked = [], []
    listener = lambda *_: checkouts.append(1)   # noqa: E731
    event.listen(svc.db.engine, "checkout", listener)
    enqueue, svc.enqueue = svc.enqueue, lambda *job: kicked.append(job)   # the request alone
    try:
        done = form_client(app).post(path).text
    finally:
        event.remove(svc.db.engine, "checkout", listener)
        svc.enqueue = enqueue
    assert "Next game" in done and kicked
    assert len(checkouts) == 1


def test_nothing_else_waiting_offers_no_next_game(app):
    g1 = start_game(app, "trees", [ME, BEN]).game_id
    _my_turn(app, g1)
    _, path = move_links(_mine_in(app, g1)[-1])[0]
    done = form_client(app).post(path).text
    assert "Next game" not in done and "Open the game page" in done


def test_the_game_page_after_a_move_offers_the_next_game(app):
    svc = app.extensions["turnpost"]
    g1, g2 = _three_games(app)[:2]
    _, mine = _seats(app, g2)
    path = svc.urls.game_path(g2, mine)
    page = form_client(app).get(path).text
    assert 'id="next-game"' not in page            # my move here: no need to go elsewhere
    pos, _ = _seats(app, g2)
    move = pos.engine.describe(pos.engine.legal_moves(pos.state, mine)[0])
    after = form_client(app).post(path + "/play", data={"commands": move},
                                  follow_redirects=True).text
    assert 'id="next-game"' in after and "Next game" in after


def test_the_api_move_answer_carries_next_game(app):
    g1, g2, g3 = _three_games(app)
    pos, mine = _seats(app, g1)
    move = pos.engine.describe(pos.engine.legal_moves(pos.state, mine)[0])
    r = app.test_client().post(f"/api/v1/games/{g1}/moves", json={"command": move},
                               headers=_api(app, ME))
    assert r.status_code == 200, r.json
    assert r.json["nextGame"]["gameId"] in (g2, g3)
    assert r.json["nextGame"]["page"].startswith("http://turnpost.test/g/")
    # a word is no move: still my turn, no next game
    r = app.test_client().post(f"/api/v1/games/{g2}/moves", json={"command": "help"},
                               headers=_api(app, ME))
    assert r.json["nextGame"] is None


def test_the_soonest_deadline_comes_first(app):
    svc = app.extensions["turnpost"]
    g1, g2, g3 = _three_games(app)
    _, mine2 = _seats(app, g2)
    with svc.db.transaction() as s:
        me = s.scalars(select(Player).where(Player.email == ME)).one()
        order = [w.game_id for w in waiting.waiting(s, me.id)]
        assert sorted(order) == [g1, g2, g3]
        for row in s.get(GameRow, g2).seats:
            if row.seat == mine2:
                row.deadline = svc.clock.now()
    with svc.db.transaction() as s:
        assert waiting.waiting(s, me.id)[0].game_id == g2


def test_a_group_s_shortlists_say_what_the_whole_desk_would_say(app):
    """The relay's desk read counts in the database and brings back the first NAMED games
    besides those its emails are about (issue 53): what each email says is what the player's
    whole list says, for any game asked about, however many wait."""
    svc = app.extensions["turnpost"]
    games = [_three_games(app) for _ in range(2)]
    games = games[0] + games[1]                          # six games, my move in each
    with svc.db.transaction() as s:
        me = s.scalars(select(Player).where(Player.email == ME)).one()
        ben = s.scalars(select(Player).where(Player.email == BEN)).one()
        whole = waiting.waiting(s, me.id)
        assert len(whole) == 6
        for asked in ({games[0]}, {games[5]}, {games[1], games[4]}, set()):
            lists = waiting.shortlists(s, {me.id, ben.id}, asked)
            mine = lists[me.id]
            assert mine.count == 6 and len(mine.first) <= waiting.NAMED + len(asked)
            for game_id in asked | {-1}:
                expected = waiting.email_line([w for w in whole if w.game_id != game_id])
                assert mine.line(game_id) == expected
            assert lists[ben.id] == waiting.Shortlist(0, ())     # nothing waits on Ben

# --- private notes ------------------------------------------------------------------------

def _noted(app):
    """A game where I wrote a note by reply: (game id, my seat, Ben's seat)."""
    gid = start_game(app, "trees", [ME, BEN]).game_id
    _, mine = _seats(app, gid)
    play.accept_mail(app.extensions["turnpost"], reply_to(latest_to(app, ME), "note " + SECRET),
                     "smtp")
    return gid, mine, 1 - mine


def test_a_note_by_reply_is_answered_and_shown_to_its_writer(app):
    svc = app.extensions["turnpost"]
    gid, mine, _ = _noted(app)
    assert "Note kept (only you see it)" in text_of(latest_to(app, ME))
    view = app.test_client().get(f"/api/v1/games/{gid}", headers=_api(app, ME)).json
    assert view["notes"] == [SECRET]
    page = form_client(app).get(svc.urls.game_path(gid, mine)).text
    assert 'id="notes"' in page and "keep the Mill for the Knots district!" in page
    with svc.db.transaction() as s:
        me = s.scalars(select(Player).where(Player.email == ME)).one().id
    exported = mydata.export(svc, me)
    assert [n["text"] for n in exported["games"][0]["notes"]] == [SECRET]


def test_my_turn_emails_carry_my_notes(app):
    gid, mine, _ = _noted(app)
    _my_turn(app, gid)
    pos, _ = _seats(app, gid)
    ours = _mine_in(app, gid)[-1]
    if "Your notes" not in text_of(ours):       # my turn came before the note: one more turn
        move = pos.engine.legal_moves(pos.state, mine)[0]
        play.submit(app.extensions["turnpost"], play.Intent(gid, mine, moves=[move],
                                                            source="web"))
        _my_turn(app, gid)
        ours = _mine_in(app, gid)[-1]
    assert "Your notes" in text_of(ours) and SECRET in text_of(ours)
    assert "Your notes" in html_of(ours)


def test_nobody_else_sees_a_note(app):
    svc = app.extensions["turnpost"]
    gid, mine, theirs = _noted(app)
    # play on so that Ben gets emails after the note was written
    for _ in range(3):
        pos, _ = _seats(app, gid)
        (seat,) = pos.engine.to_act(pos.state)
        play.submit(svc, play.Intent(gid, seat, moves=[pos.engine.legal_moves(pos.state, seat)[0]],
                                     source="web"))
    bens = [m for m in mails(app) if m["To"] == BEN]
    assert bens and all(SECRET not in text_of(m) and "Knots district" not in html_of(m)
                        for m in bens)
    view = app.test_client().get(f"/api/v1/games/{gid}", headers=_api(app, BEN)).json
    assert view["notes"] == [] and SECRET not in json.dumps(view)
    record = app.test_client().get(f"/api/v1/games/{gid}/record", headers=_api(app, BEN)).json
    assert SECRET not in json.dumps(record)
    assert SECRET not in form_client(app).get(svc.urls.game_path(gid, theirs)).text
    with svc.db.transaction() as s:
        game = s.get(GameRow, gid)
        game.public = True
        public_id = game.public_id
        ben = s.scalars(select(Player).where(Player.email == BEN)).one().id
    public = app.test_client().get(f"/games/{public_id}")
    assert public.status_code == 200 and SECRET not in public.text
    assert SECRET not in json.dumps(mydata.export(svc, ben))


def test_notes_lists_and_clear_removes(app):
    svc = app.extensions["turnpost"]
    gid, mine, _ = _noted(app)
    listed = play.runner.run_line(svc, gid, mine, "notes").text
    assert SECRET in listed
    assert "Removed your 1 note" in play.runner.run_line(svc, gid, mine, "note clear").text
    assert "You have no notes" in play.runner.run_line(svc, gid, mine, "notes").text


def test_a_note_too_long_or_too_many_is_refused_and_changes_nothing(app):
    svc = app.extensions["turnpost"]
    gid, mine, _ = _noted(app)
    r = app.test_client().post(f"/api/v1/games/{gid}/moves",
                               json={"command": "note " + "x" * (notes.MAX_CHARS + 1)},
                               headers=_api(app, ME))
    assert r.status_code == 422 and f"at most {notes.MAX_CHARS}" in r.json["detail"]
    for n in range(notes.MAX_NOTES - 1):
        play.runner.run_line(svc, gid, mine, f"note number {n}")
    try:
        play.runner.run_line(svc, gid, mine, "note one too many")
    except play.Refused as exc:
        assert "note clear" in exc.detail
    else:
        raise AssertionError("the note past the limit was kept")
    with svc.db.transaction() as s:
        assert s.scalar(select(Note.id).where(Note.text == "one too many")) is None
        assert len(s.scalars(select(Note)).all()) == notes.MAX_NOTES


def test_the_note_words_help_names_the_bounds_it_keeps():
    """The `note` summary is a catalog message, so its bounds are written as numbers: they
    are the ones notes refuses past."""
    summary = wordregistry.COMMANDS["note"].summary
    assert f"at most {notes.MAX_NOTES} notes of {notes.MAX_CHARS} characters" in summary


def test_a_note_is_no_move(app):
    svc = app.extensions["turnpost"]
    gid, mine, _ = _noted(app)
    with svc.db.transaction() as s:
        seq = s.get(GameRow, gid).seq
    play.runner.run_line(svc, gid, mine, "note another")
    with svc.db.transaction() as s:
        assert s.get(GameRow, gid).seq == seq
