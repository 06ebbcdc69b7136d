"""The API's seat view carries every seat's clock, as the game page's Clocks box shows them:
one seat-page builder (service/play/reads/seatpage.py) for the email, the page and the API."""
from __future__ import annotations

from datetime import datetime, timezone

from service import play
from service.play.clock import ManualClock
from service.play.players import personaltokens

ANNA, BEN = "anna@example.org", "ben@example.org"
T0 = datetime(2026, 11, 24, 9, 0, tzinfo=timezone.utc)


def test_the_seat_view_has_every_seats_clock_as_the_page_shows_them(app_factory):
    app = app_factory(TURNPOST_CLOCK=ManualClock(T0))
    svc = app.extensions["turnpost"]
    gid = play.start_game(svc, "trees", [ANNA, BEN], {"clock": "3d"}).game_id
    mover = play.read_game(svc, gid, play.Reader.at(gid, None)).page.to_act[0]
    for seat, addr in enumerate((ANNA, BEN)):
        auth = {"Authorization": f"Bearer {personaltokens.create(svc, addr, 'clocks')[1]}"}
        clocks = app.test_client().get(f"/api/v1/games/{gid}", headers=auth).json["clocks"]
        assert [(c["seat"], c["name"], c["status"]) for c in clocks] == \
            [(0, "anna", "active"), (1, "ben", "active")]
        assert all(c["clockWords"] == "3 days per move" for c in clocks)
        assert clocks[mover]["inTurn"] and clocks[mover]["deadline"] == "2026-11-27T09:00:00Z"
        assert clocks[1 - mover]["deadline"] is None
        # the very clocks of the game page, in the API's camelCase
        page = play.read_game(svc, gid, play.Reader.at(gid, seat)).page.clocks
        assert [sorted(c) for c in clocks] == [sorted(_camel(k) for k in p) for p in page]
        assert [c["deadlineText"] for c in clocks] == [p["deadline_text"] for p in page]


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(w.capitalize() for w in rest)
