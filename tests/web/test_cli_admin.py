"""The operators' CLI: look at games, resend and retry mail, mute a player, and move a game
between services as a verifiable JSON file that is refused once edited."""
from __future__ import annotations

import json

import pytest
from sqlalchemy import update

from service import play
from service.play.reads import gamefile
from service.store.models import OutboxRow, Seat
from tests.web.helpers import mails, start_game

ANNA, BEN = "anna@example.org", "ben@example.org"


@pytest.fixture
def game(app):
    svc = app.extensions["turnpost"]
    # players who read every move's mail, so each seat has rows to resend and park
    gid = start_game(app, "trees", [ANNA, BEN]).game_id
    read = play.read_game(svc, gid, play.Reader.at(gid, 0))
    mover = read.page.to_act[0]
    legal = play.read_game(svc, gid, play.Reader.at(gid, mover)).page.all_moves
    play.submit(svc, play.Intent(gid, mover, moves=[legal[0]["move"]], source="cli"))
    return gid


def run(app, *args):
    result = app.test_cli_runner().invoke(args=list(args))
    return result


def test_games_list_and_waiting_on(app, game):
    svc = app.extensions["turnpost"]
    waiting = [ANNA, BEN][play.read_game(svc, game, play.Reader.at(game, 0)).page.to_act[0]]
    other = ({ANNA, BEN} - {waiting}).pop()
    out = run(app, "games", "list").output
    assert f"{game}\ttrees\tactive" in out and "1 games" in out
    assert "1 games" in run(app, "games", "list", "--waiting-on", waiting).output
    assert "0 games" in run(app, "games", "list", "--waiting-on", other).output
    assert "0 games" in run(app, "games", "list", "--status", "ended").output


def test_games_show_has_seats_log_and_outbox(app, game):
    out = run(app, "games", "show", str(game)).output
    assert f"0 {ANNA}" in out and f"1 {BEN}" in out
    assert "log (" in out and "\tcli\t" in out and "outbox (" in out and "sent" in out
    bad = run(app, "games", "show", "999")
    assert bad.exit_code != 0 and "no game number 999" in bad.output


def test_outbox_resend_sends_a_sent_row_again_and_retry_parked(app, game):
    svc = app.extensions["turnpost"]
    before = len(mails(app))
    assert run(app, "outbox", "resend", "1").exit_code == 0
    assert len(mails(app)) == before + 1
    with svc.db.transaction() as session:
        session.execute(update(OutboxRow).where(OutboxRow.id.in_([2, 3]))
                        .values(status="parked", last_error="relay down"))
    listed = run(app, "outbox").output                # the old spelling still lists parked
    assert "2 parked" in listed and "relay down" in listed
    assert "2 parked" in run(app, "outbox", "list", "--status", "parked").output
    assert "requeued [2, 3]" in run(app, "outbox", "retry-parked").output
    assert "0 parked" in run(app, "outbox").output
    assert len(mails(app)) == before + 3
    assert run(app, "outbox", "resend", "9999").exit_code != 0


def test_players_mute_mutes_every_seat_of_the_address(app, game):
    svc = app.extensions["turnpost"]
    play.start_game(svc, "trees", [ANNA, "cleo@example.org"], {})
    assert "muted 2 seats" in run(app, "players", "mute", ANNA.upper()).output
    with svc.db.transaction() as session:
        assert {s.muted for s in session.query(Seat).filter_by(player_id=1)} == {True}
    assert run(app, "players", "mute", "nobody@example.org").exit_code != 0


def test_export_then_import_replays_to_the_same_game(app, game, tmp_path):
    svc = app.extensions["turnpost"]
    out = run(app, "games", "export", str(game))
    doc = json.loads(out.output)
    assert doc["rules_version"] == 1 and doc["sha256"] and len(doc["events"]) >= 2
    path = tmp_path / "game.json"
    path.write_text(out.output)
    result = run(app, "games", "import", str(path))
    assert result.exit_code == 0, result.output
    new_id = int(result.output.split()[-1])
    for seat in (None, 0, 1):
        assert play.read_game(svc, new_id, play.Reader.at(new_id, seat)).page.view == \
            play.read_game(svc, game, play.Reader.at(game, seat)).page.view
    again = gamefile.export(svc, new_id, play.OPERATOR)
    assert again["views_sha256"] == doc["views_sha256"]


def test_an_edited_export_is_refused_and_nothing_is_imported(app, game, tmp_path):
    svc = app.extensions["turnpost"]
    doc = gamefile.export(svc, game, play.OPERATOR)
    edited = json.loads(json.dumps(doc))
    edited["seats"][0]["email"] = "mallory@example.org"
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(edited))
    result = run(app, "games", "import", str(path))
    assert result.exit_code != 0 and "changed after it was exported" in result.output
    # edited and re-hashed: the log no longer replays to the position exported
    forged = json.loads(json.dumps(doc))
    forged["events"] = forged["events"][:-1]
    forged["sha256"] = gamefile.content_hash(forged)
    with pytest.raises(gamefile.BadArchive, match="different position"):
        gamefile.import_game(svc, forged)
    assert "1 games" in run(app, "games", "list").output
