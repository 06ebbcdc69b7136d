"""The games' own words in German and French: every game's view partial (the turn emails'
text and HTML, the seat page's) rendered from real positions, each seat's and a spectator's,
with none of its fixed words left in English (the method of test_catalogs' email check,
over the views); what stays as the rule texts name it (the cards, the engines' sentences,
the moves a player types in quotes) is taken out before the words are counted. And each
game's seat page in German, its headline and headings German. The engines' own sentences
(every game's history, Suzerain's prompt, the clock's note on a move it played) are held to
German and French by the tests below, each reader's own line in its du/vous form."""
from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from service import play
from service.display.seatview import (
    TAKEN_BACK,
    SeatPage,
    fill,
    history,
    result_text,
    seat_page,
)
from service.games import aristocracy, registry
from service.games.cards import decktet, french
from service.games.contract import Event, replay
from service.mailwire.outbound import catalogs
from service.mailwire.outbound.templating import make_env
from service.play import repository
from tests.games.positions import configurations, positions
from tests.languages.helpers import finished, left_in_english, make_player, theirs, words
from tests.web.helpers import game_link, latest_to, start_game, text_of

GAMES = ["trees", "suzerain", "magnate", "aristocracy"]
NAMES = ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn"]

#: our fixed English words in the views; none may be left in a German or French one (words
#: German or French spell the same, "Hand", "Set", "Phase", "Limit", "blind", "point",
#: "table", "pile", "final", "face", "Total", "production", are not here)
ENGLISH = {"your", "you", "turn", "most", "play", "discards", "none", "empty",
           "cards", "card", "trees", "players", "player", "deck", "trick", "round",
           "market", "coins", "coin", "left", "waiting", "chosen", "still", "choose",
           "down", "up", "value", "herald", "king", "queen", "jack",
           "order", "sealed", "auction", "bids", "declared", "visit", "visits", "building",
           "stall", "game", "over", "win", "wins", "won", "districts", "district", "tokens",
           "roll", "rolled", "income", "taxed", "latest", "draw", "deed", "rules",
           "classic", "leads", "majorities", "unseen", "score", "led", "played",
           "next", "aside", "rights", "claims", "discarded", "with", "and",
           "of", "to", "at", "the", "is", "no", "full", "room", "worth", "fits", "under",
           "neither", "nor", "harvest", "must", "unroot", "nobody", "yet", "hidden", "others",
           "only", "see", "has", "exposed", "turned", "complete", "fewest", "held", "any",
           "first", "used"}


def _views(game_id: str) -> Iterator[tuple[dict, int, int | None]]:
    """(view, seats, reader) of every kept position and of a finished game, for each seat and
    a spectator."""
    tables = [(p.game, p.seats, p.state) for p in positions(game_id)] + [finished(game_id)]
    for game, seats, state in tables:
        for me in [*range(seats), None]:
            yield game.view(state, me), seats, me


@pytest.mark.parametrize("ext", ["txt", "html"])
@pytest.mark.parametrize("game_id", GAMES)
def test_every_games_view_speaks_the_language(game_id, ext):
    env = make_env()
    template = env.get_template(f"games/{game_id}/view.{ext}")
    english_seen: set[str] = set()
    for view, seats, me in _views(game_id):
        names = NAMES[:seats]
        cut = theirs(view, names, me)
        context = {"view": view, "names": names, "me": me}
        with catalogs.speaking("en"):
            english_seen |= left_in_english(template.render(context), cut, ENGLISH)
        for lang in ("de", "fr"):
            with catalogs.speaking(lang):
                rendered = template.render(context)
            left = left_in_english(rendered, cut, ENGLISH)
            assert not left, f"{game_id} {ext} in {lang} still says {sorted(left)}:\n{rendered}"
    # the check has teeth: the English view has many such words
    assert len(english_seen) > 15, english_seen


def test_the_text_views_stay_narrow_in_german_and_french():
    """German runs longer: the lines our words may lengthen are wrapped (under 72 characters,
    but a card list a player would not want broken, and the engines' own lines)."""
    env = make_env()
    for game_id in GAMES:
        template = env.get_template(f"games/{game_id}/view.txt")
        for view, seats, me in _views(game_id):
            for lang in ("de", "fr"):
                with catalogs.speaking(lang):
                    text = template.render(view=view, names=NAMES[:seats], me=me)
                wide = [line for line in text.splitlines() if len(line) > 76]
                assert not wide, f"{game_id} in {lang}: {wide}"


#: a heading of each game's view, in German, and its English that must be gone
HEADINGS = {"trees": ("Bäume im Spiel", "Trees in play"), "suzerain": ("Der Tisch", "The table"),
            "magnate": ("Bezirke", "Districts"), "aristocracy": ("Markt", "Market")}


@pytest.mark.parametrize("kind", ["trees", "suzerain", "magnate-roller", "aristocracy"])
def test_each_games_seat_page_in_german(app, client, kind):
    people = ["anna@example.org", "ben@example.org", "cleo@example.org"][
        :3 if kind in ("magnate-roller", "aristocracy") else 2]
    start_game(app, kind, people)
    for addr in people:
        page = client.get(game_link(latest_to(app, addr)),
                          headers={"Accept-Language": "de"}).text
        german, english = HEADINGS[kind.split("-")[0]]
        # the view, its cards as pictures and the table drawn (the history below is the
        # engines' sentences: test_the_history_speaks_the_readers_language holds them)
        shown = page.split('id="position"', 1)[1].split("<ol", 1)[0]
        assert '<html lang="de">' in page and german in shown and english not in shown
        assert "Deine Hand" in shown and "Your hand" not in shown
        # the headline: whose move it is (or Suzerain's prompt, "Warten, bis Ben bedient.")
        assert ("Du bist am Zug." in page or "Warten auf " in page) and "Your turn" not in page


def _page(to_act, me=0, outcome=None):
    return SeatPage(game_id=1, kind="trees", title="Trees", seq=1, mark="", me=me,
                    names=["Anna", "Ben", "Cleo"], view={}, news=[], to_act=to_act,
                    your_turn=me in to_act, outcome=outcome)


def test_the_headline_and_the_result_are_in_the_readers_language():
    three = {"winners": [1], "how": "most districts", "scores": [4, 6, 5],
             "places": [3, 1, 2], "left": [0]}
    with catalogs.speaking("de"):
        assert _page([0]).whose_move == "Du bist am Zug."
        assert _page([0, 1, 2]).whose_move == "Du bist am Zug; Ben und Cleo wählen auch gerade."
        assert _page([1]).whose_move == "Ben ist am Zug."
        assert _page([1], outcome={"winners": [1]}).whose_move == "Partie beendet."
        assert result_text(three, ["Anna", "Ben", "Cleo"], 0) == \
            "Ben hat gewonnen. Plätze: 1. Ben (6), 2. Cleo (5), 3. du (4; hat die Partie " \
            "verlassen). Die meisten Bezirke."
    with catalogs.speaking("fr"):
        assert _page([1, 2]).whose_move == "Ben et Cleo doivent choisir."
        assert result_text({"winners": [0], "scores": [3, 1]}, ["Anna", "Ben"], 0) == \
            "Vous avez gagné (vous: 3, Ben: 1)."
        assert result_text(three, ["Anna", "Ben", "Cleo"], 1).startswith(
            "Vous avez gagné. Classement : 1er vous (6), 2e Cleo (5), 3e Anna")
    # English as before
    assert _page([0, 1]).whose_move == "Your turn; Ben is choosing too."
    assert result_text(three, ["Anna", "Ben", "Cleo"], 0).startswith(
        "Ben won. Places: 1st Ben (6), 2nd Cleo (5), 3rd you (4; left the game).")


def test_a_move_taken_back_is_told_in_the_readers_language():
    trees = registry.get("trees")
    taken = [(7, Event(TAKEN_BACK, {"seat": 1}))]
    told = {}
    for lang in ("en", "de", "fr"):
        with catalogs.speaking(lang):
            told[lang] = [history(trees, taken, me, ["Anna", "Ben"])[0]["text"]
                          for me in (0, 1)]
    assert told["en"] == ["Ben took back a move, as everyone agreed.",
                          "You took back a move, as everyone agreed."]
    assert told["de"] == ["Ben hat einen Zug zurückgenommen, wie alle zugestimmt haben.",
                          "Du hast einen Zug zurückgenommen, wie alle zugestimmt haben."]
    assert told["fr"][1] == "Vous avez repris un coup, avec l’accord de tous."


def test_a_german_turn_emails_top_line_says_whose_move_in_capitals(app):
    people = ["anna@example.org", "ben@example.org"]
    for addr in people:
        make_player(app, addr, "de")
    start_game(app, "trees", people)
    texts = [text_of(latest_to(app, addr)) for addr in people]
    assert sum("DU BIST AM ZUG." in t for t in texts) == 1
    assert not any("YOUR TURN" in t or "Du bist am Zug." in t for t in texts)


# ------------------------------------------------------------------ the engines' sentences
#: the engines whose history sentences are templates (service.games.text.said), held to
#: German and French here: all four
TOLD = ["trees", "suzerain", "magnate", "aristocracy"]


def _log(game_id: str, seed: int = 1, configuration: tuple | None = None):
    """Every event of a game played to its end by random moves, with its engine and seat count
    (the engine's first configuration unless one is given)."""
    game = registry.get(game_id)
    seats, options = configuration or configurations(game)[0]
    rng = random.Random(seed)
    events = game.start(seats, options, rng)
    state = replay(game, events)
    log = list(events)
    while game.outcome(state) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        move = rng.choice(game.legal_moves(state, seat))
        made = game.decide(state, seat, move, rng)
        log += made
        state = replay(game, made, state)
    return game, seats, list(enumerate(log))


def _templates(say: dict) -> set[str]:
    if "parts" in say:      # a line of clauses (service.games.text.joined)
        return set().union(*(_templates(part) for part in say["parts"]))
    out = {say["template"]} | ({say["mine"]} if say.get("mine") else set())
    for value in say["args"].values():
        if isinstance(value, dict):
            out |= _templates(value)
    return out


def _catalog(lang: str) -> dict[str, str]:
    with open(catalogs.CATALOGS / lang / "LC_MESSAGES" / "messages.po", "rb") as po:
        return {m.id: m.string for m in read_po(po) if m.id and not m.fuzzy}


@pytest.mark.parametrize("game_id", TOLD)
def test_every_history_sentence_has_its_german_and_french(game_id):
    game, seats, log = _log(game_id)
    templates: set[str] = set()
    for _seq, event in log:
        for me in [*range(seats), None]:
            seen = game.redact(event, me)
            if seen and seen.get("text"):
                assert seen.get("say"), f"{event.type} has no template"
                templates |= _templates(seen["say"])
    assert len(templates) > 10, templates
    for lang in ("de", "fr"):
        catalog = _catalog(lang)
        assert not [t for t in templates if not catalog.get(t)], lang


def _cards_and_suits() -> list[str]:
    """The Decktet's names as the rules write them, also starting a sentence ("The Mill"),
    and its suits (a tree is named by one): not ours to translate."""
    names = {decktet.name(c) for c in decktet.ALL}
    names |= {n[:1].upper() + n[1:] for n in names}
    return sorted(names | set(decktet.SUIT_NAMES.values()), key=len, reverse=True)


def filled(text: str, names: list[str], me: int | None) -> str:
    """An engine's English as its reader reads it: "you" as `fill` makes it, and a second
    verb of the reader's own made plain too, where `fill`'s rule stops at the first ("You
    visit Ben's building and see": Aristocracy's template says it so)."""
    out = fill(text, names, me)
    return re.sub(r"^(You \w+ .*?) and sees ", r"\1 and see ", out)


@pytest.mark.parametrize("game_id", TOLD)
def test_the_history_speaks_the_readers_language_and_english_stays_as_it_was(game_id):
    game, seats, log = _log(game_id)
    names = NAMES[:seats]
    theirs = _cards_and_suits() + names
    for me in [*range(seats), None]:
        with catalogs.speaking("en"):
            english = [h["text"] for h in history(game, log, me, names)]
        # the templates make the engine's English word for word, "you" as `fill` made it
        assert english == [filled(s["text"], names, me) for s in
                           (game.redact(e, me) for _seq, e in log) if s and s.get("text")]
        for lang in ("de", "fr"):
            with catalogs.speaking(lang):
                told = [h["text"] for h in history(game, log, me, names)]
            left = left_in_english(" ".join(told), theirs, ENGLISH)
            assert not left, f"{game_id} history in {lang} still says {sorted(left)}: {told}"


def test_a_german_readers_own_move_is_about_du_and_anothers_about_them():
    game, seats, log = _log("trees")
    played = next((seq, e) for seq, e in log if e.type == "CardPlayed")
    mover, names = played[1].data["seat"], NAMES[:seats]
    other = (mover + 1) % seats
    said = {}
    for lang in ("de", "fr"):
        with catalogs.speaking(lang):
            said[lang] = [history(game, [played], me, names)[0]["text"] for me in (mover, other)]
    assert said["de"][0].startswith("Du hast ") and said["de"][0].endswith("-Baum gespielt.")
    assert said["de"][1].startswith(f"{names[mover]} hat ")
    assert said["fr"][0].startswith("Vous avez joué ")
    assert said["fr"][1].startswith(f"{names[mover]} a joué ")


def test_how_a_game_ended_is_in_the_readers_language():
    over = {"winners": [0], "how": "all six Aces harvested", "scores": [9, 4]}
    with catalogs.speaking("de"):
        assert result_text(over, ["Anna", "Ben"], 1).endswith(
            "(Anna: 9, du: 4). Alle sechs Aces geerntet.")
    assert result_text(over, ["Anna", "Ben"], 1).endswith(". All six Aces harvested.")


def test_a_suzerain_line_about_both_seats_gives_each_its_form():
    """A trick won and the next lead, the scores and the winner: clauses each about one seat
    (service.games.text.joined), so "du" gets its own verb wherever it stands."""
    suzerain, names = registry.get("suzerain"), ["Anna", "Ben"]
    won = [(5, Event("TrickWon", {"winner": 1, "next_leader": 1, "trick": 3}))]
    ended = [(9, Event("Ended", {"scores": [13, 21], "winners": [1], "how": "score"}))]
    with catalogs.speaking("de"):
        assert history(suzerain, won, 1, names)[0]["text"] == \
            "Du hast Stich 3 gewonnen; du spielst zum nächsten aus."
        assert history(suzerain, won, 0, names)[0]["text"] == \
            "Ben hat Stich 3 gewonnen; Ben spielt zum nächsten aus."
        assert history(suzerain, ended, 1, names)[0]["text"] == \
            "Die Partie ist zu Ende: Anna 13, du 21 Punkte; du hast gewonnen."
    with catalogs.speaking("fr"):
        assert history(suzerain, won, 1, names)[0]["text"] == \
            "Vous avez remporté le pli 3 ; vous entamerez le suivant."
    assert history(suzerain, won, 1, names)[0]["text"] == \
        "You won trick 3; you will lead the next."


# ------------------------------------------------------------------ Aristocracy's sentences
#: events its played games rarely or never reach, one for each branch of its history that
#: they miss (service/games/aristocracy/history.py), at a table of three
RARE = [Event("Reshuffled", {"order": ["7H.1", "8S.1"]}),
        Event("TaxPaid", {"discards": [[], [], []]}),
        Event("TaxPaid", {"discards": [["7H.1"], [], ["8S.1", "9C.1"]]}),
        Event("BallHeld", {"given": [["7H.1"], [], ["8S.1", "9C.1"]], "reveal": True,
                           "returns": [["9C.1"], [], ["7H.1", "8S.1"]], "market": []}),
        Event("DeclarationsSettled", {"awards": [], "discarded": [], "price": 2}),
        Event("DeclarationsSettled", {"awards": [[1, "7H.1"]], "discarded": ["8S.1"],
                                      "price": 2}),
        Event("Built", {"seat": 1, "address": "7H.1", "cards": ["8S.1"]}),
        Event("VisitCoinTaken", {"seat": 0, "owner": 1, "paid": True}),
        Event("VisitCoinTaken", {"seat": 0, "owner": 1, "paid": False}),
        Event("ExposedDiscarded", {"seat": 0, "owner": 1, "card": "5D.1"}),
        Event("Visited", {"seat": 2, "owner": 0, "building": "7H.1", "paid": True,
                          "look": ["8S.1"], "mode": "look"}),
        Event("EndOffered", {"seats": [0, 2]}),
        Event("EndDeclined", {"seat": 0}),
        Event("GameEnded", {"how": "ended", "by": 1}),
        Event("AuctionTaken", {"seat": 1, "card": "7H.1", "price": 3}),
        *[Event("ChoiceMade", {"seat": 0, "kind": kind, "choice": []})
          for kind in ("tax", "ball", "stall")]]


def _aristocracy_lines() -> list[tuple[object, int, list[tuple[int, Event]]]]:
    """(game, seats, log) of Aristocracy played to its end at each table size the lobby
    offers, by random moves, and the rare events at a table of three."""
    out = [_log("aristocracy", 2, configurations(registry.get("aristocracy"))[i]) for i in range(4)]
    return out + [(registry.get("aristocracy"), 3, list(enumerate(RARE)))]


def _written_templates(path: Path) -> set[str]:
    """Every template a module marks with N_ (its sentences and their parts)."""
    tree = ast.parse(path.read_text())
    return {node.args[0].value for node in ast.walk(tree) if isinstance(node, ast.Call)
            and getattr(node.func, "id", "") == "N_"}


def test_every_aristocracy_sentence_is_told_and_translated():
    """The games and the rare events reach every template the history writes, so the checks
    below hold for each; and each has its German and French."""
    reached: set[str] = set()
    for game, seats, log in _aristocracy_lines():
        for _seq, event in log:
            for me in [*range(seats), None]:
                seen = game.redact(event, me)
                if seen is not None:
                    assert seen.get("say"), f"{event.type} has no template"
                    reached |= _templates(seen["say"])
    assert reached == _written_templates(Path(aristocracy.__file__).with_name("history.py"))
    for lang in ("de", "fr"):
        catalog = _catalog(lang)
        assert not [t for t in reached if not catalog.get(t)], lang


#: the words a German or French reader's own line is told with (du/vous, never "Anna")
OWN = {"de": {"du", "dir", "dich", "dein", "deine", "deinen", "deinem"},
       "fr": {"vous", "votre", "vos"}}


#: Aristocracy's history words besides the views' (the rule text's "farm", and "phase" and
#: "action", which German or French spell the same, are not here)
TOLD_WORDS = ENGLISH | {
    "buys", "buy", "sells", "sell", "hides", "trades", "trade", "stores", "pays", "pay",
    "declares", "takes", "take", "gives", "give", "gave", "exposes", "expose", "ends", "end",
    "begins", "everyone", "draws", "revealed", "nothing", "sold", "price", "tax", "pooled",
    "income", "produce", "choice", "gifts", "discard", "from", "for", "but", "none", "adds",
    "builds", "downgrades", "taking", "favor", "royal", "asks", "cap", "reached", "does", "not",
    "will", "can", "owners", "hands", "shuffled", "new", "into", "sees", "harvests"}


def test_aristocracy_history_in_german_and_french_each_reader_in_their_own_form():
    theirs = [french.label(c) for c in french.deck(2)] + NAMES
    for game, seats, log in _aristocracy_lines():
        names = NAMES[:seats]
        for me in [*range(seats), None]:
            seen = [s for s in (game.redact(e, me) for _seq, e in log) if s]
            with catalogs.speaking("en"):
                english = [h["text"] for h in history(game, log, me, names)]
            # English word for word as the engine writes it, "you" as `fill` makes it
            assert english == [filled(s["text"], names, me) for s in seen]
            for lang in ("de", "fr"):
                with catalogs.speaking(lang):
                    told = history(game, log, me, names)
                left = left_in_english(" ".join(h["text"] for h in told), theirs, TOLD_WORDS)
                assert not left, f"aristocracy in {lang} still says {sorted(left)}"
                for h, said in zip(told, (s["say"] for s in seen), strict=True):
                    if me is not None and said.get("seat") == me and said.get("mine"):
                        assert words(h["text"]) & OWN[lang], (lang, h["text"])
                        assert names[me] not in h["text"], (lang, h["text"])


def test_an_aristocracy_line_about_a_second_seat_gives_that_reader_its_form():
    """The owner of the building visited, the player a coin is asked of: told as "you"
    in their words, not their name in a sentence made for another."""
    game, names = registry.get("aristocracy"), ["Anna", "Ben", "Cleo"]
    coin, tax, bought = ((n, RARE[n]) for n in (7, 2, 14))

    def told(lang, me, what):
        with catalogs.speaking(lang):
            return history(game, [what], me, names)[0]["text"]
    assert told("de", 1, coin) == "Anna nimmt dir eine Münze ab."
    assert told("fr", 1, coin) == "Anna vous prend une pièce."
    assert told("de", 2, coin) == "Anna nimmt Ben eine Münze ab."
    assert told("en", 1, coin) == "Anna takes a coin from you."
    assert told("de", 1, bought) == "Du kaufst 7♥ für 3."
    assert told("fr", 1, bought) == "Vous achetez 7♥ pour 3."
    assert told("de", 0, bought) == "Ben kauft 7♥ für 3."
    assert told("en", 1, bought) == "You buy 7♥ for 3."
    assert told("de", 0, tax) == "Steuer: du wirfst 7♥ ab; Cleo wirft 2 ab."
    assert told("fr", 2, tax) == "Impôt : Anna défausse 1 ; vous défaussez 8♠ 9♣."
    assert told("en", 0, tax) == "Tax: you discard 7♥; Cleo discards 2."


def test_a_move_the_clock_played_is_told_in_the_readers_language(app):
    """The history's note on a move the clock made for a seat out of time: the engine's line
    said in the reader's language inside it, the seat's own line in its du/vous form."""
    people = ["anna@example.org", "ben@example.org"]
    gid = start_game(app, "trees", people).game_id
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:
        pos = repository.load(s, svc.states, gid)
    (seat,) = pos.engine.to_act(pos.state)
    move = next(m for m in pos.engine.legal_moves(pos.state, seat) if m["type"] == "play")
    play.submit(svc, play.Intent(gid, seat, moves=[move], source="timer"))

    def line(lang, reader):
        with catalogs.speaking(lang):
            told = play.read_game(svc, gid, play.Reader.at(gid, reader)).history
        return next(h["text"] for h in told if h.get("type") == "CardPlayed")
    assert line("de", seat).startswith(
        "Deine Bedenkzeit war abgelaufen, also hat die Uhr für dich gespielt: Du hast ")
    assert line("fr", seat).startswith(
        "Votre temps était écoulé, la pendule a donc joué pour vous : vous avez joué ")
    other = line("de", 1 - seat)
    assert other.startswith(("anna hat ", "ben hat ")), other
    assert other.endswith(" (von der Uhr gespielt: Bedenkzeit abgelaufen)")
    assert line("en", seat).startswith(
        "Your time ran out, so the clock played for you: you played ")


#: the prompt's English words (the move words it quotes are cut out as written)
PROMPT_WORDS = ENGLISH | {"waiting", "lead", "follow", "claim", "winner", "loser", "decide",
                          "whether", "right", "unused", "take", "may", "remove", "discard",
                          "keep", "later", "lost", "if", "can", "or", "share", "shares", "so"}


def test_suzerains_prompt_is_in_the_readers_language():
    """The page's prompt ("Waiting for Ben to follow.", "Follow the Sea: ...") from the
    engine's templates (`view_said`): no English left in German or French, the reader asked
    in their own form, the English as the view says it."""
    game, names = registry.get("suzerain"), NAMES[:2]
    theirs = [*_cards_and_suits(), *names, "'remove nothing'", "'discard none'"]
    asked = set()
    for p in positions("suzerain"):
        for me in [0, 1, None]:
            page = seat_page(game, 1, "suzerain", p.state, 1, me, names, [])
            assert page.spoken("prompt") == fill(page.view["prompt"], names, me)
            for lang in ("de", "fr"):
                with catalogs.speaking(lang):
                    said = page.spoken("prompt")
                left = left_in_english(said, theirs, PROMPT_WORDS)
                assert not left, f"{lang}: {said}"
                if me in game.to_act(p.state):
                    assert words(said) & OWN[lang], said
                    asked.add(page.said["prompt"]["text"].split(" ", 1)[0])
                elif game.to_act(p.state):
                    assert names[next(iter(game.to_act(p.state)))] in said, said
    assert len(asked) > 2, asked     # the positions ask more than one thing


@pytest.mark.parametrize("ext", ["txt", "html"])
@pytest.mark.parametrize("game_id", ["magnate", "aristocracy"])
def test_the_views_game_over_line_says_how_it_ended_in_the_readers_language(game_id, ext):
    game, seats, state = finished(game_id)
    view = game.view(state, 0)
    how = view["outcome"]["how"]
    with catalogs.speaking("de"):
        shown = make_env().get_template(f"games/{game_id}/view.{ext}").render(
            view=view, names=NAMES[:seats], me=0)
        german = catalogs.gettext(how)
    assert german != how and f"({german})" in shown and how not in shown
