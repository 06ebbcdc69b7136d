"""The last of the English (issue 51): option values the lobby refuses, the answers to `try`
and to plans, the clause naming who ended an Aristocracy game, and Suzerain's prompt on the
replay page, each in the reader's language; English readers keep the English word for word."""
from __future__ import annotations

import html
import re

import pytest

from service import play
from service.display.seatview import result_text, told
from service.games import registry
from service.games.aristocracy import history
from service.games.cards import decktet
from service.games.contract import IllegalMove, OptionError
from service.games.text import N_
from service.mailwire.outbound import catalogs
from service.play.moves import planplay, standingplans, trying
from service.store.models import Plan
from tests.display.render import partials, readable
from tests.display.test_endings import NAMES as ENDINGS_NAMES
from tests.display.test_endings import finished
from tests.games.positions import positions
from tests.languages.helpers import left_in_english
from tests.languages.test_refusals import NAMES, _untranslated
from tests.languages.test_views import PROMPT_WORDS, _cards_and_suits
from tests.web.helpers import form_client
from tests.web.test_replay import _play as play_some

#: options no game takes, for each game: the shared checks' (an unknown name, a bad number,
#: a value not among the choices, a table too big) and the engine's own combinations
BAD_OPTIONS = {
    "trees": [(2, {"zzyzx": 1}), (2, {"turn_cap": "x"}), (2, {"turn_cap": "0"}),
              (9, {}), (2, {"turn_cap": 1.5}), (2, {"deck": "1M,1M"}),
              (2, {"roots": "1M,9Z"}), (2, {"roots": "1M"}), (2, {"deck": "zz"})],
    "suzerain": [(2, {"deck": "the Mill, the Mill"}), (2, {"deck": "zzyzx"}),
                 (2, {"deck": "the Mill"}), (2, {"dealer": "nobody"}),
                 (2, {"aces": "mill"})],
    "magnate": [(2, {"three": True}), (3, {"ruleset": "modern"}),
                (3, {"ruleset": "modern", "three": True, "mega": True}),
                (2, {"ruleset": "modern", "pawn_properties": True}),
                (2, {"courts": "on", "pawn_properties": True}),
                (2, {"mega": True, "pawn_properties": True}), (2, {"deck": "x"}),
                (2, {"mega": 7})],
    "aristocracy": [(3, {"round_cap": "0"}), (3, {"deck": "x"})],
}


def _option_refusals(game_id: str) -> dict[str, OptionError]:
    game, seen = registry.get(game_id), {}
    for seats, options in BAD_OPTIONS[game_id]:
        with pytest.raises(OptionError) as refused:
            game.validate_options(seats, options)
        seen.setdefault(refused.value.template, refused.value)
    return seen


@pytest.mark.parametrize("game_id", sorted(BAD_OPTIONS))
def test_every_option_an_engine_refuses_is_in_the_catalogs(game_id):
    """An option's refusal whose template the catalogs lack reaches a German or French
    player in English."""
    seen = _option_refusals(game_id)
    assert len(seen) >= 2, sorted(seen)
    left = {t: langs for t, exc in seen.items() if (langs := _untranslated(t, exc.values))}
    assert not left


@pytest.mark.parametrize(("lang", "said"), [
    ("de", ["Die Option 'turn_cap' muss mindestens 1 sein",
            "Die Option 'turn_cap' muss eine ganze Zahl sein, nicht 'viele'"]),
    ("fr", ["L’option 'turn_cap' doit valoir au moins 1",
            "L’option 'turn_cap' doit être un nombre entier, pas 'viele'"]),
    ("en", ["option 'turn_cap' must be at least 1",
            "option 'turn_cap' must be a whole number, not 'viele'"])])
def test_an_option_the_lobby_refuses_is_in_the_pages_language(app, lang, said):
    client = form_client(app)
    for value, words in zip(("0", "viele"), said, strict=True):
        page = client.post("/practice", data={"table": "trees:2", "trees.turn_cap": value},
                           headers={"Accept-Language": lang})
        assert page.status_code == 400 and words in html.unescape(page.text), words


def test_an_option_refusal_keeps_its_english_word_for_word():
    with pytest.raises(OptionError) as refused:
        registry.get("trees").validate_options(2, {"zzyzx": 1})
    with catalogs.speaking("en"):
        said = catalogs.spoken(refused.value.template, refused.value.values)
    assert said == refused.value.why == ("Trees has no option 'zzyzx' (its options: bonus, "
                                         "deck, roots, turn_cap)")


# ------------------------------------------------------------------ try and plans

#: our English in the answers to `try` and to plans; none may be left in a German or French
#: one once the moves written (English, as the game's command words are) and card names are cut
TRY_WORDS = {"tried", "nothing", "was", "played", "nobody", "told", "then", "your",
             "moves", "line", "cannot", "be", "is", "not", "move", "of", "yours",
             "could", "make", "can", "never", "own", "it", "would", "there", "card",
             "here", "unknown", "seat", "they", "already", "been", "has"}


NAMES2 = ["Anna", "Ben"]
#: what Suzerain's prompt names as written: cards, suits, the players, the move words quoted
SUZERAIN_NAMES = [*_cards_and_suits(), "p0", "p1", "'remove nothing'", "'discard none'"]


def _trees_position():
    """A two-seat Trees position, its seat to act, the other seat, and a card the seat to act
    holds."""
    pos = next(p for p in positions("trees") if p.seats == 2 and p.game.outcome(p.state) is None
               and len(p.game.to_act(p.state)) == 1 and p.state["hands"][min(p.game.to_act(p.state))])
    seat = min(pos.game.to_act(pos.state))
    return pos.game, pos.state, seat, 1 - seat, pos.state["hands"][seat][0]


def _answers(lang: str) -> dict[str, str]:
    """What `try` and plans answer in Trees, in `lang`: a try played, a try refused, a plan
    whose condition cannot be read, one that can never be met, and a `next:` on one's turn."""
    game, state, seat, other, mine = _trees_position()
    legal = game.describe(game.legal_moves(state, seat)[0])
    # the other seat playing a card the writer holds: a plan that can never be met
    never = f"play {decktet.name(mine)} under {legal.partition(' under ')[2] or 'the Mill'}"
    out = {}
    with catalogs.speaking(lang):
        out["tried"] = trying.tried(game, state, seat, [legal]).text
        for key, call in {
            "try refused": lambda: trying.tried(game, state, seat, ["play zzyzx under 1M"]),
            "plan unread": lambda: standingplans.judge(game, state, other, NAMES2, "if",
                                                       "they zzyzx then harvest"),
            "plan never": lambda: standingplans.judge(game, state, seat, NAMES2, "if",
                                                      f"they {never} then harvest"),
            "next on your turn": lambda: standingplans.judge(game, state, seat, NAMES2, "next",
                                                             "harvest"),
        }.items():
            with pytest.raises(play.PlayError) as refused:
                call()
            out[key] = refused.value.detail
    return out, [legal, "play zzyzx under 1M", "zzyzx", never, "harvest", "next:"]


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_the_answers_to_try_and_to_plans_are_in_the_writers_language(lang):
    """The service's own sentences around the game's reason, and the reason itself: nothing
    English is left but the moves written and the cards' names."""
    answers, written = _answers(lang)
    english, _ = _answers("en")
    for key, said in answers.items():
        assert said != english[key], key
        left = left_in_english(said, sorted(written, key=len, reverse=True) + NAMES, TRY_WORDS)
        assert not left, (key, said, left)


def test_the_answers_to_try_and_to_plans_keep_their_english():
    answers, _ = _answers("en")
    assert answers["try refused"] == ("Line 1, \"play zzyzx under 1M\", cannot be played "
                                      "then: there is no card 'zzyzx' here")
    assert answers["tried"].startswith("Tried (nothing was played, nobody was told):\n* play ")
    assert "\nScores then: seat 1: 0, seat 2: 0\n" in answers["tried"]
    assert answers["plan never"].startswith("They can never play ")
    assert answers["plan never"].endswith(" is in your own hand.")
    assert answers["next on your turn"] == ("It is your move now: write the move itself "
                                            "rather than next:.")


# ------------------------------------------------------------------ who ended the game

@pytest.mark.parametrize(("lang", "theirs", "yours"), [
    ("de", "{name} hat die Partie beendet", "du hast die Partie beendet"),
    ("fr", "{name} a mis fin à la partie", "vous avez mis fin à la partie"),
    ("en", "{name} ended the game", "you ended the game")])
def test_who_ended_an_aristocracy_game_is_said_in_the_readers_language(lang, theirs, yours):
    """The view's last line and the result line name the seat that ended the game in the
    reader's words, and say it to that seat in its own form."""
    sample = finished("aristocracy", 3, {})
    how = sample.engine.outcome(sample.state).how
    ender = int(how[2:how.index("}")])
    other = (ender + 1) % 3
    with catalogs.speaking(lang):
        seen = {seat: " ".join(readable(partials(sample, seat)["txt"]).split())
                for seat in (ender, other)}
        result = {seat: result_text(sample.engine.outcome(sample.state).to_json(),
                                    sample.names, seat) for seat in (ender, other)}
    assert theirs.format(name=ENDINGS_NAMES[ender]) in seen[other], seen[other]
    assert yours in seen[ender], seen[ender]
    assert result[other].endswith(" " + theirs.format(name=ENDINGS_NAMES[ender]) + ".")
    assert result[ender].endswith(" " + yours[:1].upper() + yours[1:] + "."), result[ender]


# ------------------------------------------------------------------ the replay's prompt

PROMPT = re.compile(r'<p class="prompt">(.*?)</p>', re.S)


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_suzerains_prompt_on_the_replay_page_is_in_the_readers_language(app, lang):
    """A past position's prompt, from the engine's template as the seat page says it: no
    English left in German or French; English as the view recorded it."""
    client = form_client(app)
    gid, svc = play_some(client, app, "suzerain", moves=3)
    base = svc.urls.game_path(gid, 0) + "/replay"
    prompts = {}
    for at in (None, 2, 4):
        query = "" if at is None else f"?at={at}"
        for reader in (lang, "en"):
            page = client.get(base + query, headers={"Accept-Language": reader}).text
            prompts[at, reader] = html.unescape(PROMPT.search(page).group(1)).split(". ", 1)[1]
        said = prompts[at, lang]
        assert said != prompts[at, "en"], said
        assert not left_in_english(said, SUZERAIN_NAMES, PROMPT_WORDS), said


# ------------------------------------------------------------------ Aristocracy's English

def _told(event: dict, seat: int) -> str:
    return told(event, ["Anna", "Ben"], seat)


def test_aristocracys_history_says_one_and_you_in_good_english():
    """One farm produces, one face-down card, and "you ... see": the English the golden games
    now record, and the reader's own form; German and French kept (their msgids moved)."""
    phase = history._phase_ended({"income": [0, 0], "production": ["7H.1"]}, 0)
    built = history._built({"seat": 0, "address": "7H.1", "cards": ["8H.1"]}, 0)
    seen = history._visited({"seat": 0, "owner": 1, "building": "7H.1",
                            "paid": True, "look": ["8H.1", "9H.1"]}, 0)
    assert phase["text"] == "The phase ends. 1 farm produces."
    assert built["text"] == "{p0} builds at 7♥ with 1 face-down card."
    assert _told(built, 0) == "You build at 7♥ with 1 face-down card."
    assert _told(seen, 0).startswith("You visit Ben's building at 7♥ and see 8♥")
    with catalogs.speaking("de"):
        assert _told(phase, 0) == "Die Phase endet. 1 Farm produziert."
        assert _told(seen, 0).startswith("Du besuchst das Gebäude von Ben auf 7♥ und siehst")
    with catalogs.speaking("fr"):
        assert _told(built, 0) == "Vous construisez sur 7♥ avec 1 carte face cachée."


# ------------------------------------------------------------------ a plan dropped

def test_why_a_plan_was_dropped_is_said_in_the_readers_language():
    """The reason is kept with its values when the plan is dropped and said when the writer's
    email is composed, in the writer's language, an engine's reason inside it too; a reason
    stored as plain English before is shown as it is."""
    plan = Plan(status="standing")
    refused = IllegalMove(N_("{card} is not in your hand"), card="the Mill")
    planplay._drop([plan], N_("\"%(move)s\" was no longer allowed: %(why)s"),
                   move="play the Mill under the Sea",
                   why={"template": refused.template, "args": refused.values})
    said = {}
    for lang in ("en", "de", "fr"):
        with catalogs.speaking(lang):
            said[lang] = catalogs.unkept(plan.why)
    assert said["en"] == ("\"play the Mill under the Sea\" was no longer allowed: the Mill is "
                          "not in your hand")
    assert said["de"] == ("„play the Mill under the Sea“ nicht mehr erlaubt war: the Mill hast "
                          "du nicht auf der Hand")
    assert said["fr"] == ("« play the Mill under the Sea » n’était plus permis : the Mill "
                          "n’est pas dans votre main")
    assert catalogs.unkept("Anna moved otherwise") == "Anna moved otherwise"
