"""Who gets an email after a move: every seat whose view changed, except seats watching
someone part-way through a turn of several actions."""
from __future__ import annotations

from types import SimpleNamespace

from service.play import notify


class FakeEngine:
    """States are dicts: {"to_act": {...}, "views": {seat: ...}, "over": bool}."""

    def to_act(self, state):
        return frozenset(state["to_act"])

    def view(self, state, seat):
        return state["views"][seat]

    def outcome(self, state):
        return "over" if state.get("over") else None


def recipients(before, after, seats=3, engine=None) -> list[int]:
    """The seats a turn email is queued for (the database part is not under test here)."""
    every = SimpleNamespace(mail_mode="every")      # which changes reach a seat at all
    game = SimpleNamespace(seats=[SimpleNamespace(seat=n, player=every, bot=None)
                                  for n in range(seats)])
    return notify.changed_seats(game, engine or FakeEngine(), before, after)


def state(to_act, views, over=False):
    return {"to_act": set(to_act), "views": dict(enumerate(views)), "over": over}


def test_mid_turn_actions_mail_only_the_acting_seat():
    before = state({0}, ["a", "b", "c"])
    after = state({0}, ["a2", "b2", "c2"])      # seat 0 took one of several actions
    assert recipients(before, after) == [0]


def test_when_the_turn_passes_every_changed_view_is_mailed():
    before = state({0}, ["a", "b", "c"])
    after = state({1}, ["a2", "b2", "c"])
    assert recipients(before, after) == [0, 1]


def test_a_sealed_choice_mails_the_chooser_only():
    before = state({0, 1, 2}, ["a", "b", "c"])
    after = state({1, 2}, ["a2", "b2", "c2"])   # seat 0 chose; the others see "0 has chosen"
    engine = FakeEngine()
    engine.freshness = lambda st, seat: "same" if seat else st["views"][seat]
    assert recipients(before, after, engine=engine) == [0]


def test_a_seat_still_choosing_is_mailed_if_its_own_position_changed():
    before = state({0, 1, 2}, ["a", "b", "c"])
    after = state({1, 2}, ["a2", "b2", "c2"])   # without a freshness view, "b2" is new to 1
    assert recipients(before, after) == [0, 1, 2]


def test_the_reveal_mails_everyone():
    before = state({2}, ["a", "b", "c"])
    after = state({0}, ["a2", "b2", "c2"])      # the last choice is in: active turns begin
    assert recipients(before, after) == [0, 1, 2]


def test_the_end_is_mailed_to_everyone_whose_view_changed():
    before = state({0}, ["a", "b", "c"])
    after = state(set(), ["a2", "b2", "c2"], over=True)
    assert recipients(before, after) == [0, 1, 2]


def test_the_start_mails_everyone():
    assert recipients(None, state({0}, ["a", "b"]), seats=2) == [0, 1]
