"""Turn emails: headers that thread a game as one conversation and let clients unsubscribe, a
template trio, links per legal move, and no card the reader may not know anywhere in the mail."""
from __future__ import annotations

import re

from sqlalchemy import select

from service.play import repository
from tests.web.helpers import html_of, latest_to, mails, move_links, start_game, text_of

ADDRS = ["anna@example.org", "ben@example.org"]


def start(client):
    return start_game(client.application, "trees", ADDRS).game_id


def test_headers_thread_identify_and_unsubscribe(client, app):
    gid = start(client)
    sent = mails(app)
    ids = {m["Message-ID"] for m in sent}
    assert len(ids) == len(sent), "every email has its own Message-ID"
    for msg in sent:
        assert msg["In-Reply-To"] == msg["References"] == f"<game-{gid}@turnpost.test>"
        assert msg["List-Id"].endswith(f"<game-{gid}.turnpost.test>")
        assert msg["Auto-Submitted"] == "auto-generated"
        assert msg["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert re.fullmatch(r"<http://turnpost\.test/u/[\w.\-]+>", msg["List-Unsubscribe"])
        assert re.fullmatch(r".*<play\+[a-z2-7]{26}@turnpost\.test>", msg["Reply-To"])
        assert msg.get_content_type() == "multipart/alternative"
    # the subject says whose move it is (issue 12); References keep the thread together
    for m in sent:
        assert re.fullmatch(r"(Your move · Trees #\d+ with \w+|\w+ to move · Trees #\d+)",
                            m["Subject"]), m["Subject"]


def test_message_ids_are_stable_when_a_row_is_rendered_again(client, app):
    start(client)
    svc = app.extensions["turnpost"]
    from service.play.mail import relay
    from service.store.models import OutboxRow
    with svc.db.transaction() as s:
        row = s.get(OutboxRow, 1)
        first = relay.render(s, svc, row)
        second = relay.render(s, svc, row)
    assert first["Message-ID"] == second["Message-ID"]
    # the same words; only the move links' one-time nonces differ
    strip = lambda text: re.sub(r"/[mgu]/\S+", "/LINK", text.replace("=\n", ""))  # noqa: E731
    assert strip(text_of(first)) == strip(text_of(second))


def test_html_is_inlined_and_carries_the_moves(client, app):
    start(client)
    for addr in ADDRS:
        msg = latest_to(app, addr)
        html = html_of(msg)
        # CSS is inlined for clients that drop <style>; only the dark-mode @media block stays
        kept = re.findall(r"<style>(.*?)</style>", html, re.S)
        assert all(k.strip().startswith("@media") for k in kept), kept
        assert 'style="' in html
        assert "-- reply above this line --" in html and "-- reply above this line --" in text_of(msg)
        for text, path in move_links(msg):
            assert path in html and text in html


def test_both_parts_offer_the_unsubscribe_link_in_the_same_words(client, app):
    """The plain text said "Stop these emails" where the HTML says "Stop emails for this
    game": one thing, two names, and the first is a phrase spam filters score (SpamAssassin's
    END_FUTURE_EMAILS, on mail without a DKIM signature)."""
    start(client)
    for msg in mails(app):
        url = msg["List-Unsubscribe"].strip("<>")
        assert f"Stop emails for this game: {url}" in text_of(msg)
        assert f'<a href="{url}"' in html_of(msg) and ">Stop emails for this game</a>" in html_of(msg)
        assert "these emails" not in text_of(msg) + html_of(msg)


def test_the_pictures_base64_lines_are_76_characters_at_most(client, app):
    """RFC 2045 6.8: "The encoded output stream must be represented in lines of no more than
    76 characters each." Longer lines are what spam filters score (SpamAssassin's
    BASE64_LENGTH_79_INF); the headers' own limit (998, for the List-Unsubscribe URL) is not
    base64's."""
    start(client)
    transport = app.extensions["turnpost"].transport
    pictures = 0
    for (_, raw), msg in zip(transport.messages(), mails(app), strict=True):
        for part in msg.walk():
            if part.get("Content-Transfer-Encoding") != "base64":
                continue
            pictures += 1
            encoded = part.get_payload(decode=False)
            lines = encoded.splitlines()
            assert lines and max(map(len, lines)) <= 76, (part.get_content_type(),
                                                           max(map(len, lines)))
            assert part.get_content().startswith(b"\x89PNG\r\n\x1a\n")     # still a PNG
        assert max(map(len, raw.splitlines())) <= 998                    # RFC 5322 2.1.1
    assert pictures, "a Trees table has a picture in every turn email"


def test_no_email_shows_a_card_its_reader_may_not_know(client, app):
    gid = start(client)
    # play a few moves so there is history too
    for _ in range(6):
        addr = next((a for a in ADDRS if move_links(latest_to(app, a))), None)
        client.post(move_links(latest_to(app, addr))[0][1])
    db = app.extensions["turnpost"].db
    from service.games.cards import decktet
    from service.store.models import OutboxRow
    with db.transaction() as s:
        for seat, addr in enumerate(ADDRS):
            msg = latest_to(app, addr)
            local = msg["Message-ID"].strip("<>").split("@")[0]
            row = s.scalar(select(OutboxRow).where(OutboxRow.message_id == local))
            pos = repository.load(s, app.extensions["turnpost"].states, gid, upto=row.seq)  # as the mail shows it
            secret = pos.engine.secrets(pos.state, seat)
            body = text_of(msg) + html_of(msg)
            for card in secret:
                name = decktet.name(card)
                assert name not in body, f"{addr}'s email names {name}, which they cannot know"
