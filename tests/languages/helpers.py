"""What the language tests share: a player made with a chosen language, a game played to its
end, and the check that a rendered page or letter has none of our English words left once
the words that are not ours to translate (card names, players' names, the engines' own
sentences) are cut out."""
from __future__ import annotations

import html
import random
import re

from service.display.seatview import fill
from service.games import cards, registry
from service.games.cards import decktet
from service.games.contract import replay
from service.store.models import Player
from tests.games.positions import configurations


def make_player(app, addr, language):
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        s.add(Player(email=addr, name=addr.split("@")[0], mail_mode="every", language=language,
                     created_at=svc.clock.now()))


def words(text: str) -> set[str]:
    """The words of a rendered text, lower-cased, without its markup, styles and links."""
    text = re.sub(r"<style.*?</style>", " ", text, flags=re.S)
    text = re.sub(r"<[^>]+>|https?://\S+", " ", text)
    return {w.lower() for w in re.findall(r"[^\W\d_]+", text)}


def finished(game_id: str, seed: int = 1):
    """A game played to its end by random moves (the outcome's branches), in the first
    configuration the lobby offers."""
    game = registry.get(game_id)
    seats, options = configurations(game)[0]
    rng = random.Random(seed)
    state = replay(game, game.start(seats, options, rng))
    while game.outcome(state) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        move = rng.choice(game.legal_moves(state, seat))
        state = replay(game, game.decide(state, seat, move, rng), state)
    return game, seats, state


def theirs(view, names: list[str], me: int | None) -> list[str]:
    """The words a view shows that are not ours to translate: every card's name and label,
    and the engine's own strings (a prompt, a tree's name, how a game ended), as written and
    as the partials put names and capitals into them. Longest first, to be cut out whole."""
    strings: set[str] = set()

    def walk(x):
        if isinstance(x, str):
            if cards.is_french(x) or cards.face(x) in decktet.ALL:
                # Magnate's board names a card short, without its article ("Harvest")
                strings.update({cards.name(x), cards.label(x), cards.name(x).removeprefix("the ")})
            else:
                strings.update({x, x.capitalize(), x[:1].upper() + x[1:], fill(x, names, me),
                                fill(x, names, me, start=False)})
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)
    walk(view)
    return sorted((s for s in strings if s.strip()), key=len, reverse=True)


def left_in_english(rendered: str, cut: list[str], english: set[str]) -> set[str]:
    """The words of `english` a rendered page or view still has, once its markup, scripts
    and styles, the strings of `cut` (whole words only) and the quoted move words a player
    is told to write are taken out."""
    text = re.sub(r"<(style|script)\b.*?</\1>", " ", rendered, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text))
    text = re.sub(r"\s+", " ", text)          # wrapped lines joined, as the strings were
    for s in cut:       # whole words only: a kind "stall" is no licence for "stalls"
        text = re.sub(r"(?<!\w)" + re.escape(re.sub(r"\s+", " ", s)) + r"(?!\w)", " ", text)
    text = re.sub(r'"[^"]*"', " ", text)      # a move word the player is told to write
    return words(text) & english


#: a tournament invitation's accept link in a letter
INVITATION = re.compile(r"http://turnpost\.test(/tournaments/invitations/[A-Za-z0-9_.\-]+/"
                        r"accept)")


class Links:
    def game(self):
        return "http://turnpost.test/g/x"

    def unsubscribe(self):
        return "http://turnpost.test/u/x"


def email_contexts():
    """Every branch of the email templates: the same letter twice, its switches flipped."""
    filler = "Qx"
    page = {"my_clock": {"deadline_text": filler, "paused": False}, "your_turn": True,
            "lead": "", "whose_move": "", "news": [filler, filler], "headline": filler}
    base = {
        "marker": "--", "game_title": "Qux", "game_id": 7, "names": ["Zed", "Yan"], "me": 0,
        "others": ["Yan"], "movers": ["Yan"], "links": Links(), "page": page,
        "refusal": {"why": filler, "line": filler, "suggestions": [filler]},
        "said": {"name": "Zed", "text": filler, "private": True},
        "plans_dropped": [filler], "forced": [filler], "bounced": ["Zed"], "reminder": True,
        "moves": [{"text": filler, "url": "http://turnpost.test/m/x"}], "plans": [filler],
        "plan_hints": [filler], "partial_txt": "email/_picture.html",
        "partial_html": "email/_picture.html", "inviter": "Zed", "title": "Qux", "seats": 2,
        "accept": "http://a", "decline": "http://d", "never": "http://n", "clock": filler,
        "expires": filler, "opponent": "Yan", "rated": True, "started": True,
        "lobby": "http://l", "challenger": "Zed", "place": 2, "their_place": 3,
        "link": "http://x", "starts": filler, "answer_within": filler, "name": "Zed",
        "tournament": 4, "round": 1, "rounds": 3, "standings": [filler], "format": "Swiss",
        "no_vacation": True, "why": filler, "their_subject": filler, "subject": filler,
        "paragraphs": [filler], "button": filler, "small": filler}
    flipped = {**base, "said": {"name": "Zed", "text": filler, "private": False},
               "reminder": False, "started": False, "rated": False, "their_subject": "",
               "page": {**page, "your_turn": False, "my_clock": {"paused": True}},
               "result": filler}
    return [base, flipped]
