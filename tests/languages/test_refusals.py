"""The last English of refusals and forms, in the reader's language (issue 51): a move
refused by reply is answered in the writer's language, one refused on the game page in the
page's and one refused by the API in the one its Accept-Language asks for, with none of
their words left in English but the names of cards and trees (as the rules name them); every
refusal an engine gives is in both catalogs; the lobby's option labels and help, a seat
taken over (the invitation, its webhook, the table's notice, the refusals on the way) and a
refused sign-in address's reason. English readers keep the English word for word."""
from __future__ import annotations

import html
import random
import re

import pytest

from service import play
from service.games.cards import decktet
from service.games.contract import Refusal
from service.games.trees.commands import TREE_NAMES
from service.mailwire.outbound import catalogs
from service.play.players import hooks, personaltokens, seatchanges
from tests.games.positions import positions
from tests.languages.helpers import left_in_english, make_player
from tests.play.mail.test_replies import deliver, mover, reply_to
from tests.play.time.helpers import outbox
from tests.web.helpers import form_client, game_link, latest_to, post_form, start_game, text_of

ADDRS = ["Anna <anna@example.org>", "Ben <ben@example.org>"]
LANGUAGES = {"anna@example.org": "de", "ben@example.org": "fr"}

#: the English of the refusals below; none may be left in a German or French one
ENGLISH = {"there", "is", "no", "card", "here", "you", "may", "unroot", "only", "when", "can",
           "neither", "play", "nor", "harvest", "and", "have", "to", "which", "tree",
           "the", "of", "under", "go", "should"}
#: what the refusals name as the rules do: every card's and every tree's name
NAMES = sorted({decktet.name(c) for c in decktet.ALL}
               | {s for spells in TREE_NAMES.values() for s in spells}, key=len, reverse=True)

#: (lines written, what a German, a French and an English player are told); `{ace}` is an
#: Ace in play, read from the turn email's moves
REFUSALS = [
    ("play zzyzx under {ace}", {
        "de": "hier gibt es keine Karte 'zzyzx'",
        "fr": "il n’y a pas de carte 'zzyzx' ici",
        "en": "there is no card 'zzyzx' here"}),
    ("unroot {ace}", {
        "de": "entwurzeln darfst du nur, wenn du weder spielen noch ernten kannst, und du "
              "hast eine Karte zum Spielen",
        "fr": "vous ne pouvez déraciner que si vous ne pouvez ni jouer ni récolter, et vous "
              "avez une carte à jouer",
        "en": "you may unroot only when you can neither play nor harvest, and you have a "
              "card to play"}),
    ("harvest", {
        "de": "welchen Baum willst du ernten?",
        "fr": "quel arbre voulez-vous récolter ?",
        "en": "harvest which tree?"}),
]


def _table(app, languages):
    for addr, lang in languages.items():
        make_player(app, addr, lang)
    start_game(app, "trees", ADDRS)
    addr, ours = mover(app)
    ace = re.search(r"under (the Ace of \w+)", text_of(ours)).group(1)
    return addr, ours, ace


def _refusal_line(app, addr: str) -> str:
    """The refusal in the answer to a reply: its first line below the reply marker."""
    lines = [ln.strip() for ln in text_of(latest_to(app, addr)).splitlines()]
    return lines[lines.index("-- reply above this line --") + 1]


def _english_left(said: str) -> set[str]:
    return left_in_english(said, NAMES, ENGLISH)


@pytest.mark.parametrize(("line", "said"), REFUSALS)
def test_a_refusal_by_reply_is_in_the_writers_language(app, line, said):
    addr, ours, ace = _table(app, LANGUAGES)
    deliver(app, reply_to(ours, line.format(ace=ace)))
    refusal = _refusal_line(app, addr)
    lang = LANGUAGES[addr.split("<")[-1].rstrip(">")]
    assert refusal.endswith(": " + said[lang]), refusal
    assert not _english_left(refusal.partition(": ")[2])


@pytest.mark.parametrize(("line", "said"), REFUSALS)
@pytest.mark.parametrize("lang", ["de", "fr"])
def test_a_refusal_on_the_game_page_is_in_the_pages_language(app, lang, line, said):
    _addr, ours, ace = _table(app, {})
    page = form_client(app).post(game_link(ours) + "/play",
                                 data={"commands": line.format(ace=ace)},
                                 headers={"Accept-Language": lang})
    assert page.status_code == 422
    detail = re.search(r'<div class="card error">\s*<p class="status">.*?</p>\s*<p>(.*?)</p>',
                       page.text, re.S).group(1)
    detail = html.unescape(detail)
    assert detail == said[lang]
    assert not _english_left(detail)


@pytest.mark.parametrize(("line", "said"), REFUSALS)
def test_an_english_player_keeps_the_english_refusal(app, line, said):
    addr, ours, ace = _table(app, {})
    deliver(app, reply_to(ours, line.format(ace=ace)))
    assert _refusal_line(app, addr).endswith(": " + said["en"])


#: the English of the lobby's option labels and help texts (words German or French spell the
#: same, "Ball", "Deck", "Bonus", "Phase", "Farm", "an", "so", "points", "scores", "double",
#: "a", "in", are not here); the option values an engine names ("classic", "mega") and the
#: districts' "Y" stay as written, and so does a game's name
GAME_NAME = "Magnate (Roller rules)"
OPTION_WORDS = {"the", "game", "ends", "after", "this", "many", "turns", "with", "as", "they",
                "are", "extra", "per", "harvested", "matching", "you", "already", "own", "turn",
                "cap", "properties", "every", "district", "unrestricted", "only", "needs",
                "drawn", "end", "of", "may", "be", "replaced", "replace", "taxation",
                "two", "tax", "dice", "always", "nine", "districts", "plays", "three", "players",
                "on", "cards", "estate", "and", "is", "short", "one", "hands",
                "building", "sizes", "by", "default", "everyone", "chooses", "stalls", "bids",
                "gifts", "discards", "same", "time", "all", "revealed", "together", "when",
                "last", "round", "costs", "wait", "instead", "switch", "printed",
                "rules", "order", "herald", "choose", "another", "starting", "at", "each",
                "seeing", "how", "those", "before", "them", "chose", "choice", "once", "made",
                "final", "sealed", "choices", "reveal", "show", "pooled", "downgrade", "take",
                "any", "number", "jack", "latest"}
OPTIONS = re.compile(r'<details class="options">.*?</details>', re.S)


@pytest.mark.parametrize(("lang", "said"), [
    ("de", ["Zuglimit", "Die Partie endet nach so vielen Zügen mit dem Punktestand, wie er "
            "dann ist.", "Pawns als Grundstücke", "Gebäudegrößen"]),
    ("fr", ["Limite de tours", "La partie se termine après ce nombre de tours, avec les "
            "scores tels qu’ils sont.", "Pawns comme propriétés", "Tailles des bâtiments"]),
    ("en", ["Turn cap", "The game ends after this many turns with the scores as they are.",
            "Pawn properties", "Building sizes"])])
def test_the_lobbys_options_are_in_the_browsers_language(client, lang, said):
    page = client.get("/", headers={"Accept-Language": lang}).text
    options = html.unescape(" ".join(OPTIONS.findall(page)))
    assert options and all(s in options for s in said), said
    left = left_in_english(options, [GAME_NAME, *NAMES], OPTION_WORDS)
    assert (not left) if lang != "en" else left, left


def test_a_seat_taken_over_speaks_each_readers_language(app):
    """The inviter is answered in their page's language, the invitee (a German player) is
    invited in German by email and webhook, and the table told of the takeover in each
    reader's; the history keeps its English."""
    svc = app.extensions["turnpost"]
    for addr, lang in [("carla@example.org", "fr"), ("dora@example.org", "de")]:
        make_player(app, addr, lang)
    game = play.start_game(svc, "aristocracy", ["anna@example.org", "ben@example.org",
                                                "carla@example.org"], {}).game_id
    hooks.register(svc, "https://example.org/dora", events="invitation",
                   email="dora@example.org")
    seatchanges.resign(svc, game, 1)
    with catalogs.speaking("fr"), pytest.raises(play.PlayError) as refused:
        seatchanges.invite_replacement(svc, game, 0, 1, "carla@example.org")
    assert refused.value.detail == ("carla@example.org est déjà à cette table ; invitez "
                                    "quelqu’un qui ne joue pas dans cette partie.")
    with catalogs.speaking("fr"):
        done = seatchanges.invite_replacement(svc, game, 0, 1, "dora@example.org")
    assert done == "Invitation envoyée à dora@example.org."
    invite = outbox(svc, None, "invite")[-1]["payload"]
    assert invite["why"].startswith("anna lädt dich ein, den Platz von ben in der "
                                    f"Aristocracy-Partie {game}")
    assert outbox(svc, None, "webhook")[-1]["payload"]["title"] == \
        f"Aristocracy-Partie {game}"
    token = invite["why"].rsplit("/i/", 1)[1].split()[0]
    seatchanges.accept_replacement(svc, token)
    told = {r["to"]: r["payload"]["timeout"]["text"] for r in outbox(svc, game, "timeout")}
    assert told["carla@example.org"] == "dora a repris la place de ben"
    assert told["anna@example.org"] == "dora took over ben's seat"
    with catalogs.speaking("de"), pytest.raises(play.PlayError) as refused:
        seatchanges.accept_replacement(svc, token)
    assert refused.value.detail == "Diese Einladung gilt nicht mehr: Der Platz wurde schon " \
        "übernommen."
    history = play.read_game(svc, game, play.Reader.at(game, 0)).history
    assert any("took over ben's seat" in h["text"] for h in history)


@pytest.mark.parametrize(("typed", "said"), [
    ("anna", {"de": "'anna' ist keine E-Mail-Adresse: Eine E-Mail-Adresse braucht ein "
                    "@-Zeichen.",
              "fr": "'anna' n'est pas une adresse e-mail : Une adresse e-mail doit contenir "
                    "une arobase (@).",
              "en": "'anna' is not an email address: An email address must have an @-sign."}),
    ("anna@example", {
        "de": "'anna@example' ist keine E-Mail-Adresse: Die Domain nach dem @-Zeichen ist "
              "ungültig: Ihr fehlt ein Punkt (wie in example.org).",
        "fr": "'anna@example' n'est pas une adresse e-mail : Le domaine après l’arobase (@) "
              "n’est pas valable : il lui manque un point (comme dans example.org).",
        "en": "'anna@example' is not an email address: The part after the @-sign is not "
              "valid. It should have a period."}),
    ("anna@example.test", {
        "de": "'anna@example.test' ist keine E-Mail-Adresse: Die Domain nach dem @-Zeichen "
              "ist ein reservierter Name, an den keine E-Mails gehen können.",
        "fr": "'anna@example.test' n'est pas une adresse e-mail : Le domaine après l’arobase "
              "(@) est un nom réservé qui ne peut pas recevoir d’e-mails.",
        "en": "'anna@example.test' is not an email address: The part after the @-sign is a "
              "special-use or reserved name that cannot be used with email."}),
    ("anna@@example.org", {
        "de": "'anna@@example.org' ist keine E-Mail-Adresse: Nach dem @-Zeichen stehen "
              "Zeichen, die in einer Domain nicht vorkommen dürfen: '@'.",
        "fr": "'anna@@example.org' n'est pas une adresse e-mail : Après l’arobase (@), "
              "l’adresse contient des caractères interdits : '@'.",
        "en": "'anna@@example.org' is not an email address: The part after the @-sign "
              "contains invalid characters: '@'."})])
@pytest.mark.parametrize("lang", ["de", "fr", "en"])
def test_a_refused_sign_in_address_says_why_in_the_pages_language(app, lang, typed, said):
    browser = app.test_client()
    browser.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    page = post_form(browser, "/sign-in", {"email": typed})
    assert page.status_code == 400
    assert said[lang] in html.unescape(page.text)


#: the command texts tried on every kept position beside every seat's moves: no move, a
#: word alone, names no game has, and every move of the position written in reverse order
TEXTS = ["", "play", "harvest", "unroot", "take", "discard", "remove", "lead", "zzyzx",
         "play zzyzx under zzyzx", "buy zzyzx", "sell zzyzx", "add 1 zzyzx to zzyzx",
         "trade 2 zzyzx for 1 knots", "remove zzyzx with zzyzx", "bid", "favor", "royal",
         "stall zzyzx", "deed zzyzx in 9"]


def _refusals(game_id: str):
    """Every refusal random positions give: each seat's every move of any seat decided, those
    moves crossed (one's type, another's cards), moves of no shape, and the texts above read,
    for each seat."""
    seen = {}
    for pos in positions(game_id):
        game, state = pos.game, pos.state
        moves = [m for seat in range(pos.seats) for m in game.legal_moves(state, seat)][:12]
        crossed = [{**one, **{k: v for k, v in other.items() if k != "type"}}
                   for one in moves for other in moves]
        odd = [{}, {"type": "zzyzx"}, {"type": moves[0]["type"] if moves else "play", "x": 1}]
        for seat in range(pos.seats):
            for move in moves + crossed + odd:
                try:
                    game.decide(state, seat, move, random.Random(1))
                except Refusal as exc:
                    seen.setdefault(exc.template, exc)
            for text in TEXTS:
                try:
                    game.parse(state, seat, text)
                except Refusal as exc:
                    seen.setdefault(exc.template, exc)
    return seen


def _untranslated(template: str, values) -> list[str]:
    """The languages that say this refusal (or a phrase in it) as it is in English."""
    out = [lang for lang in ("de", "fr")
           if catalogs.translations(lang).gettext(template) == template]
    for value in values.values():
        if isinstance(value, dict):
            out += _untranslated(value["template"], value["args"])
    return out


@pytest.mark.parametrize("game_id", ["trees", "suzerain", "magnate", "aristocracy"])
def test_every_refusal_an_engine_gives_is_in_the_catalogs(game_id):
    """A refusal whose template the catalogs lack would reach a German or French player in
    English: every one random play provokes is translated, its phrases too."""
    seen = _refusals(game_id)
    assert len(seen) >= 8, sorted(seen)
    left = {t: langs for t, exc in seen.items() if (langs := _untranslated(t, exc.values))}
    assert not left


@pytest.mark.parametrize(("lang", "said"), [(None, REFUSALS[2][1]["en"]),
                                            ("de", REFUSALS[2][1]["de"]),
                                            ("fr", REFUSALS[2][1]["fr"])])
def test_the_apis_problem_detail_is_in_the_language_asked_for(app, client, lang, said):
    """An API client reads the English it always did unless its Accept-Language asks for
    another of ours."""
    svc = app.extensions["turnpost"]
    game = play.start_game(svc, "trees", ["anna@example.org", "ben@example.org"], {}).game_id
    tokens = [personaltokens.create(svc, a, "test")[1]
              for a in ("anna@example.org", "ben@example.org")]
    answers = [client.post(f"/api/v1/games/{game}/moves", json={"command": "harvest"},
                           headers={"Authorization": f"Bearer {t}",
                                    **({"Accept-Language": lang} if lang else {})})
               for t in tokens]
    refused = next(r.json for r in answers if r.json.get("line") == "harvest")
    assert refused["status"] == 422 and refused["detail"] == said
