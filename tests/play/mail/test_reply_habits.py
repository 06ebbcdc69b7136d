"""Replies as people write them: a thank-you above the move, a name below it, a full stop
after a word, a seat command that fails after a move that went in. Each is read as the player
meant it, or answered saying exactly what was and was not done (found by writing replies as
Gmail, Outlook and phone users do)."""
from __future__ import annotations

import pytest

from tests.play.mail.test_replies import deliver, events, inbound_status, mover, reply_to
from tests.web.helpers import latest_to, mails, move_links, start_game, text_of

ADDRS = ["Anna <anna@example.org>", "Ben <ben@example.org>"]


@pytest.fixture
def table(app):
    start_game(app, "trees", ADDRS)
    addr, ours = mover(app)
    return addr, ours, move_links(ours)[0][0]


@pytest.mark.parametrize("above", ["Thanks for waiting!", "Best I can do:", "Cheers",
                                   "Love this one.", "say sorry for the slow move\nThanks!"])
def test_a_closing_word_above_the_move_does_not_lose_the_move(app, table, above):
    """quotes.extract_reply sets a short closing apart ("Thanks!" + name); the lines of it
    that are moves are still moves."""
    addr, ours, move = table
    before = events(app)
    row_id, _ = deliver(app, reply_to(ours, f"{above}\n{move}"))
    assert inbound_status(app, row_id)[0] == "applied"
    assert events(app) > before


@pytest.mark.parametrize("name", ["Anna", "anna", "- Anna", "Anna."])
def test_a_name_under_the_move_is_a_signature(app, table, name):
    addr, ours, move = table
    before = events(app)
    row_id, _ = deliver(app, reply_to(ours, f"{move}\n\n{name}"))
    assert inbound_status(app, row_id)[0] == "applied"
    assert events(app) > before


@pytest.mark.parametrize("nickname", ["Zoe", "Al", "Mary-Jo", "J."])
def test_a_nickname_set_apart_under_the_move_is_a_sign_off(app, table, nickname):
    """Issue 49, item 9: a last line below a blank line that is no command, after the moves,
    is a sign-off, whatever name the writer goes by (not the name we know them by)."""
    addr, ours, move = table
    before = events(app)
    row_id, _ = deliver(app, reply_to(ours, f"{move}\n\n{nickname}"))
    assert inbound_status(app, row_id)[0] == "applied"
    assert events(app) > before


@pytest.mark.parametrize("last", ["harvset", "play", "hlep"])
def test_a_mistyped_move_set_apart_under_the_move_is_still_refused(app, table, last):
    """A last line that looks like one of the game's words (the refusal's own words, a move's
    or a command's first word) was meant as a move: refused, never dropped as a name."""
    addr, ours, move = table
    before = events(app)
    row_id, _ = deliver(app, reply_to(ours, f"{move}\n\n{last}"))
    assert inbound_status(app, row_id)[0] == "refused"
    assert events(app) == before


def test_a_closing_with_a_name_and_no_move_is_answered_as_no_move(app, table):
    addr, ours, _ = table
    before = events(app)
    row_id, _ = deliver(app, reply_to(ours, "Thanks!\nAnna"))
    assert inbound_status(app, row_id)[0] == "refused"
    assert events(app) == before
    assert "We found no move in your email" in text_of(latest_to(app, addr))


def test_a_line_that_is_not_the_writers_name_is_still_refused(app, table):
    addr, ours, move = table
    before = events(app)
    row_id, _ = deliver(app, reply_to(ours, f"{move}\nBen"))
    assert inbound_status(app, row_id)[0] == "refused", "Ben is not Anna's name"
    assert events(app) == before


@pytest.mark.parametrize("line", ["Help.", "help!", "HELP?"])
def test_a_word_with_a_full_stop_is_the_word(app, table, line):
    addr, ours, _ = table
    row_id, _ = deliver(app, reply_to(ours, line))
    assert inbound_status(app, row_id)[0] == "answered"
    assert "Every move you can make now" in text_of(latest_to(app, addr))


@pytest.mark.parametrize("line", ["Vacation 5.", "vacation 5!"])
def test_a_seat_command_with_a_full_stop_is_the_command(app, table, line):
    addr, ours, _ = table
    row_id, _ = deliver(app, reply_to(ours, line))
    assert inbound_status(app, row_id)[0] == "answered"
    assert "vacation" in text_of(latest_to(app, addr)).lower()
    again = deliver(app, reply_to(latest_to(app, addr), "Back!"))[0]
    assert inbound_status(app, again)[0] == "answered"
    assert "Welcome back" in text_of(latest_to(app, addr))


def test_a_say_line_keeps_its_own_punctuation(app, table):
    addr, ours, _ = table
    deliver(app, reply_to(ours, "say good luck!"))
    other = next(a for a in ("anna@example.org", "ben@example.org") if a != addr)
    assert "good luck!" in text_of(latest_to(app, other))


def test_a_refused_seat_command_after_a_move_refuses_the_whole_reply(app, table):
    """`back` while not on vacation, after a move line: a reply is one batch, all or none, as
    on the page and through the API (service/play/moves/runner.py; issue 48): the move is not
    made either, and the answer names the line. (It used to make the move and say so: each
    way in had its own rule.)"""
    addr, ours, move = table
    before = events(app)
    row_id, _ = deliver(app, reply_to(ours, f"{move}\nback"))
    assert inbound_status(app, row_id)[0] == "refused"
    assert events(app) == before
    answer = text_of(latest_to(app, addr))
    assert "Nothing was changed" in answer
    assert "not on vacation" in answer and "back" in answer


def test_no_move_in_a_reply_is_answered_with_an_example_of_this_game(app, table):
    addr, ours, _ = table
    deliver(app, reply_to(ours, "thanks!"))
    answer = text_of(latest_to(app, addr))
    assert "We found no move in your email" in answer
    assert "sell sailor" not in answer, "a Magnate move, in a Trees game"
    assert "help" in answer


def test_the_same_reply_without_a_message_id_delivered_twice_is_applied_once(app, table):
    """The stand-in id hashes what does not change in transit: a second copy that only
    gained a Received line is the same message."""
    addr, ours, move = table
    raw = reply_to(ours, move)
    raw = b"\r\n".join(ln for ln in raw.replace(b"\r\n", b"\n").split(b"\n")
                       if not ln.startswith(b"Message-ID:"))
    first, new = deliver(app, raw)
    assert new and inbound_status(app, first)[0] == "applied"
    after = events(app), len(mails(app))
    again, new2 = deliver(app, b"Received: from mx2.example.org by mx.turnpost.test; "
                               b"Thu, 26 Nov 2026 10:00:00 +0000\r\n" + raw)
    assert (again, new2) == (first, False)
    assert (events(app), len(mails(app))) == after


def test_a_reply_to_the_from_address_answering_our_email_moves(app, table):
    """A client that replies to From (not Reply-To) still answers one of our emails: its
    In-Reply-To is one of our random Message-IDs, which proves it (README: Links are keys)."""
    addr, ours, move = table
    raw = reply_to(ours, move).replace(ours["Reply-To"].encode(), ours["From"].encode())
    before = events(app)
    row_id, _ = deliver(app, raw)
    assert inbound_status(app, row_id)[0] == "applied"
    assert events(app) > before


def test_a_second_move_after_the_turn_ended_is_refused_saying_why(app, table):
    """Trees is one action a turn: the answer names the line that ended it, instead of
    "it is not your turn" above a table that says it is."""
    addr, ours, move = table
    second = move_links(ours)[1][0]
    before = events(app)
    row_id, _ = deliver(app, reply_to(ours, f"{move}\n{second}"))
    assert inbound_status(app, row_id)[0] == "refused" and events(app) == before
    answer = text_of(latest_to(app, addr))
    assert f'Your turn ended by itself with "{move}"' in answer and second in answer
    assert "not your turn" not in answer.lower()
