"""A finished game reads as finished, in names: no "{p1}" placeholder survives in any game's
end text (the engines' `outcome.how` is a sentence with seat placeholders, as their history
is), on the game page, in the replay (the partial without a page) and in the final email, for
every seat and the spectator; and a game the service ended (a resignation) says nobody's move,
writes each name as its player chose it, and ends its sentence with one full stop."""
from __future__ import annotations

import random

import pytest

from service.display.seatview import result_line
from service.games.contract import replay
from service.mailwire.outbound.templating import game_partial
from tests.display.render import ENV, page_of, partials, readable, turn_email
from tests.display.samples import CASES, Sample, _entry

# lower-case names, as players may choose them: none may come out capitalised
NAMES = ["anna", "bob", "chloe", "dmitri"]


# every game; Aristocracy without a round cap, so that someone builds enough to end it
ENDINGS = [(e, n, {} if e == "aristocracy" else o) for e, n, o in CASES]


def finished(entry: str, seats: int, options: dict, seed: int = 3) -> Sample:
    """A game played to its end by the bots, ended by "end game" as soon as a seat may (in
    Aristocracy, whose outcome then names who ended it, as a placeholder)."""
    engine, preset = _entry(entry)
    rng = random.Random(seed)
    log = list(engine.start(seats, engine.validate_options(seats, {**options, **preset}), rng))
    state = replay(engine, log)
    bot = engine.bots.get("normal") or next(iter(engine.bots.values()))
    for _ in range(6000):
        if engine.outcome(state) is not None:
            break
        seat = rng.choice(sorted(engine.to_act(state)))
        ending = [m for m in engine.legal_moves(state, seat)
                  if isinstance(m, dict) and m.get("type") == "end"]
        new = engine.decide(state, seat, ending[0] if ending else bot(state, seat, rng), rng)
        log.extend(new)
        state = replay(engine, new, state)
    assert engine.outcome(state) is not None
    return Sample(entry, engine, state, list(enumerate(log, start=1)), NAMES[:seats], "end")


@pytest.fixture(scope="module", params=ENDINGS, ids=[c[0] for c in ENDINGS])
def ended(request):
    return finished(*request.param)


def _replay_partials(sample: Sample, seat) -> dict[str, str]:
    """The partials as the replay page renders them: view, names, me, and no page."""
    ctx = {"view": sample.engine.view(sample.state, seat), "names": sample.names, "me": seat}
    return {ext: ENV.get_template(game_partial(ENV, sample.engine.id, ext)).render(ctx)
            for ext in ("html", "txt")}


def test_no_placeholder_survives_the_end_of_any_game(ended):
    if ended.entry == "aristocracy":        # the case that showed "({p1} ended the game)"
        assert "{p" in ended.engine.outcome(ended.state).how
    for seat in [*range(len(ended.names)), None]:
        texts = {**{f"page {k}": v for k, v in partials(ended, seat).items()},
                 **{f"replay {k}": v for k, v in _replay_partials(ended, seat).items()}}
        if seat is not None:
            msg = turn_email(ended, seat)
            texts.update(subject=msg["Subject"],
                         text=msg.get_body(("plain",)).get_content(),
                         html=msg.get_body(("html",)).get_content())
        for where, text in texts.items():
            assert "{p" not in text, f"{ended.entry}, seat {seat}, {where}: {text[:300]!r}"


def test_aristocracy_says_who_ended_the_game_by_name():
    sample = finished("aristocracy", 3, {})
    how = sample.engine.outcome(sample.state).how
    ender = int(how[2:how.index("}")])
    other = (ender + 1) % 3
    text = readable(partials(sample, other)["txt"])
    assert f"{NAMES[ender]} ended the game" in " ".join(text.split())
    assert "you ended the game" in " ".join(readable(partials(sample, ender)["txt"]).split())


def _resigned(entry: str, seats: int, options: dict, mid: int = 30) -> Sample:
    """A game part-way through, as the service ends it when bob (seat 1) resigns."""
    engine, preset = _entry(entry)
    rng = random.Random(5)
    log = list(engine.start(seats, engine.validate_options(seats, {**options, **preset}), rng))
    state = replay(engine, log)
    bot = engine.bots.get("easy") or next(iter(engine.bots.values()))
    for _ in range(mid):
        seat = rng.choice(sorted(engine.to_act(state)))
        new = engine.decide(state, seat, bot(state, seat, rng), rng)
        if engine.outcome(replay(engine, new, state)) is not None:
            break
        log.extend(new)
        state = replay(engine, new, state)
    return Sample(entry, engine, state, list(enumerate(log, start=1)), NAMES[:seats], "mid")


def _dressed(sample: Sample, seat: int):
    """The page as service.play.reads.seatpage.build leaves it for a game the service ended."""
    page = page_of(sample, seat)
    page.outcome = {"winners": [0], "last": [1], "how": "{p1} resigned", "scores": None}
    page.your_turn, page.menu, page.all_moves, page.to_act = False, [], [], []
    return page


@pytest.mark.parametrize("entry, seats, options", CASES, ids=[c[0] for c in CASES])
def test_a_resigned_game_shows_nobodys_move_and_the_name_as_written(entry, seats, options):
    from service.mailwire.outbound.compose import Envelope, compose_turn
    from tests.display.render import URLS, WHEN
    sample = _resigned(entry, seats, options)
    for seat in range(seats):
        page = _dressed(sample, seat)
        ctx = {"view": page.view, "names": page.names, "me": seat, "page": page}
        parts = [ENV.get_template(game_partial(ENV, entry, ext)).render(ctx)
                 for ext in ("html", "txt")]
        links = URLS.for_seat(1, seat, page.mark)
        msg = compose_turn(ENV, page, links, Envelope("tp.end", "x@example.org", "Turnpost", WHEN),
                           extra={"kind": "turn", "timeout": {"text": "{p1} resigned", "seat": 1}})
        text = msg.get_body(("plain",)).get_content()
        html = msg.get_body(("html",)).get_content()
        for where, t in {"page html": readable(parts[0], True), "page txt": parts[1],
                         "email text": text, "email html": readable(html, True)}.items():
            flat = " ".join(t.split())
            assert "to play" not in flat and "to move" not in flat and "YOUR TURN" not in flat, \
                (entry, seat, where, flat[:400])
            assert "Waiting for" not in flat and "Turn:" not in flat, (entry, seat, where)
            assert "resigned.." not in flat and "Bob" not in flat, (entry, seat, where, flat[:400])
        assert msg["Subject"].startswith("Game over")
        said = "You resigned." if seat == 1 else "bob resigned."
        assert said in text
        assert result_line(page).endswith(said)
