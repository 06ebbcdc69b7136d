"""Every engine through the whole service: a game played to its end by signed links, with the
bots choosing, including Aristocracy's sealed choices where several seats act at once. Each
seat's emails must render and name no card that seat may not know."""
from __future__ import annotations

import random
import re

import pytest
from sqlalchemy import select

from service.display.seatview import history
from service.games import cards, registry
from service.linking import freshness
from service.linking.signer import Claims
from service.play import repository
from service.store import eventstore
from tests.web.helpers import MailWatcher, html_of, mails, start_game, text_of

CASES = [("trees", 3, {}), ("suzerain", 2, {}), ("aristocracy", 3, {"round_cap": 2}),
         ("magnate-roller", 2, {})]


def _leaks(engine, state, seat, body: str, seen: str = "") -> set[str]:
    """Names of secret cards in `body`, where the name is not shared by a card the reader may
    know (double decks have two cards of one name), nor was shown to it as it happened (`seen`:
    its own history; news of several moves may name a card since covered)."""
    zones = engine.zones(state)
    every = {c for cs in zones.values() for c in cs}
    secret = engine.secrets(state, seat)
    known_names = {cards.name(c) for c in every - secret}
    return {cards.name(c) for c in secret
            if cards.name(c) not in known_names and not re.search(re.escape(cards.name(c)) + r"\b", seen)
            and re.search(re.escape(cards.name(c)) + r"\b", body)}


def _check_new_mail(watcher, svc, gid, addrs) -> None:
    """Each email sent since the last look names no card its reader may not know at the
    position it shows."""
    from service.store.models import OutboxRow
    with svc.db.transaction() as s:
        for msg in watcher.new():
            local = msg["Message-ID"].strip("<>").split("@")[0]
            row = s.scalar(select(OutboxRow).where(OutboxRow.message_id == local))
            pos = repository.load(s, svc.states, gid, upto=row.seq)
            seat = addrs.index(msg["To"])
            events = [(r.seq, r.event) for r in eventstore.load(s, pos.row, upto=row.seq)]
            seen = " ".join(h["text"] for h in history(pos.engine, events, seat, addrs))
            leaked = _leaks(pos.engine, pos.state, seat, text_of(msg) + html_of(msg), seen)
            assert not leaked, f"email to {msg['To']} at seq {row.seq} names {leaked}"


@pytest.mark.parametrize("kind, seats, options", CASES, ids=[c[0] for c in CASES])
def test_a_game_played_to_the_end_through_links(client, app, kind, seats, options):
    if kind not in [e[0] for e in registry.lobby()]:
        pytest.skip(f"{kind} engine not present")
    addrs = [f"p{n}@example.org" for n in range(seats)]
    gid = start_game(app, kind, addrs, {k: str(v) for k, v in options.items()}).game_id
    signer, db = app.extensions["turnpost"].urls.signer, app.extensions["turnpost"].db
    rng = random.Random(4)
    watcher = MailWatcher(app)
    for step in range(3000):
        _check_new_mail(watcher, app.extensions["turnpost"], gid, addrs)
        with db.transaction() as s:
            pos = repository.load(s, app.extensions["turnpost"].states, gid)
        engine = pos.engine
        if engine.outcome(pos.state) is not None:
            break
        seat = rng.choice(sorted(engine.to_act(pos.state)))
        move = engine.bots["random"](pos.state, seat, rng)
        token = signer.dumps("move", Claims(gid, seat, freshness.mark(pos.engine, pos.state, seat), move))
        resp = client.post(f"/m/{token}")
        assert resp.status_code == 200, f"step {step}: {resp.text}"
    else:
        pytest.fail("the game did not end")
    # every email rendered; the last one per seat shows the end and leaks nothing
    sent = mails(app)
    assert len(sent) >= seats
    with db.transaction() as s:
        final = repository.load(s, app.extensions["turnpost"].states, gid)
        events = [(r.seq, r.event) for r in eventstore.load(s, final.row)]
    for seat, addr in enumerate(addrs):
        last = [m for m in sent if m["To"] == addr][-1]
        body = text_of(last) + html_of(last)
        assert "GAME OVER" in text_of(last)
        seen = " ".join(h["text"] for h in history(final.engine, events, seat, addrs))
        assert not _leaks(final.engine, final.state, seat, body, seen)
