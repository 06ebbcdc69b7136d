"""A player finds what is theirs: the public page from the game page and My games while the
game is on (when its players keep one), the way back from the token page, times in the zone
they chose, and the invitation says the clock they agree to."""
from __future__ import annotations

import re

from sqlalchemy import select

from service.store.models import GameRow, Player
from tests.web.helpers import (
    form_client,
    game_link,
    latest_to,
    lobby_game,
    mails,
    sign_in,
    start_game,
    text_of,
)

ANNA, BEN = "anna@example.org", "ben@example.org"


def _public(app, gid, public: bool) -> str:
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        row = s.get(GameRow, gid)
        row.public = public
        return row.public_id


def test_the_public_page_is_linked_from_the_game_page_and_my_games_while_it_is_on(app):
    gid = start_game(app, "trees", [ANNA, BEN]).game_id
    public_id = _public(app, gid, True)
    client = form_client(app)
    mine = game_link(latest_to(app, ANNA))
    assert f'href="/games/{public_id}"' in client.get(mine).text
    sign_in(client, app, ANNA)
    assert f'href="/games/{public_id}"' in client.get("/me").text
    _public(app, gid, False)
    assert f"/games/{public_id}" not in client.get(mine).text
    assert f"/games/{public_id}" not in client.get("/me").text


def test_the_token_page_of_my_games_leads_back_to_my_games(app):
    client = form_client(app)
    sign_in(client, app, ANNA)
    page = client.get("/me/tokens").text
    assert 'href="/g/"' not in page and 'href="/me"' in page


def test_the_game_page_shows_times_in_the_zone_the_player_chose(app):
    gid = start_game(app, "trees", [ANNA, BEN]).game_id
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        s.scalars(select(Player).where(Player.email == ANNA)).one().zone = "Asia/Tokyo"
    client = form_client(app)
    assert 'data-zone="Asia/Tokyo"' in client.get(game_link(latest_to(app, ANNA))).text
    assert "data-zone" not in client.get(game_link(latest_to(app, BEN))).text
    assert "dataset.zone" in client.get("/static/times.js").text
    assert gid


def test_the_invitation_states_the_clock(app):
    lobby_game(app, ANNA, [BEN], clock="3d")
    invitation = next(m for m in mails(app) if m["To"] == BEN and "invites you" in m["Subject"])
    assert re.search(r"Clock: 3 days per move", text_of(invitation))


def test_a_game_filled_in_while_signed_out_is_kept_through_signing_in(app):
    from tests.web.helpers import post_form
    client = app.test_client()
    sent = post_form(client, "/games", {"game": "magnate", "players": f"{ANNA}\n{BEN}",
                                        "clock": "7d"}, page="/")
    assert sent.status_code == 302 and "/sign-in" in sent.headers["Location"]
    client.get(sent.headers["Location"])
    signed_in = sign_in(client, app, ANNA)
    assert signed_in.headers["Location"] == "/"
    lobby = client.get("/").text
    assert f"{ANNA}\n{BEN}</textarea>" in lobby
    assert re.search(r'<option value="7d"\s+selected', lobby)
    assert "as you filled it in" in lobby
    assert "as you filled it in" not in client.get("/").text     # once
