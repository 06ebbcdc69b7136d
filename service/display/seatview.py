"""What a seat is shown of a game: its view, the news since it last looked, whose turn it is,
and its one-click moves. Shared by the emails and the web pages; built only from the engine's
`view` and `redact`, never from the state, so nothing hidden can reach a template."""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from service.games.contract import Event, Game
from service.linking.freshness import mark
from service.mailwire.outbound.catalogs import _, current, ngettext, spoken

_SEAT = re.compile(r"\{p(\d+)\}")


def fill(text: str, names: list[str], me: int | None, start: bool = True) -> str:
    """Put names into an engine's history sentence: "{p0} plays first" -> "Anna plays first",
    or "You play first" for the reader: the verb after "you" loses its third-person -s,
    "{p0}'s stall" becomes "your stall", "you end their turn" "you end your turn", and a "you"
    that starts a sentence gets its capital. `start=False`: the text goes inside a sentence
    ("wins (you ended the game)"), so its own start takes no capital."""
    def possessive(m: re.Match) -> str:
        seat = int(m.group(1))
        return "\x00your" if seat == me else _name(names, seat) + "'s"

    def name(m: re.Match) -> str:
        seat = int(m.group(1))
        return "\x00you" if seat == me else _name(names, seat)
    out = _SEAT.sub(name, _POSSESSIVE.sub(possessive, text))
    out = _YOU_VERB.sub(lambda m: "\x00you " + _plain_verb(m.group(1)), out)
    out = _YOU_THEIR.sub(r"\1 your", out)
    sentence_you = _SENTENCE_YOU if start else _LATER_SENTENCE_YOU
    out = sentence_you.sub(lambda m: m.group(1) + m.group(2).upper(), out)
    return out.replace("\x00", "")


def game_over(view: Mapping, page=None) -> bool:
    """Whether nobody is to move any more: the game ended by its rules (the view's outcome)
    or by the service (a resignation, a forfeit: the page's outcome, when a page is given;
    the engine knows nothing of those). The games' partials ask it as `game_over`."""
    return bool(view.get("outcome") or (page and page.outcome))


def ending(how: str, names: list[str], me: int | None, start: bool = True) -> str:
    """How a game ended (an engine's `Outcome.how`) in the language of the moment, names
    filled in (`start=False`: inside a sentence)."""
    return fill(_ended(how, me), names, me, start=start)


def _ended(how: str, me: int | None) -> str:
    """`how`, marked for the catalogs, in the language of the moment, its seat still written
    "{pN}". A clause naming a seat ("{p2} ended the game") is in the catalogs with that seat
    as "{player}", and for its reader as the English says it to them ("you ended the game"):
    German and French conjugate "you" differently, as `said`'s `mine` does. A clause not in
    the catalogs is the engine's English."""
    seats = _SEAT.findall(how)
    template = _SEAT.sub("{player}", how)
    if len(seats) != 1 or _(template) == template:     # no seat, or a clause not ours
        return _(how)
    if int(seats[0]) == me:
        yours = fill(how, [], me, start=False)
        if _(yours) != yours:
            return _(yours)
    return spoken(template, {"player": "{p" + seats[0] + "}"})


def view_sentence(view: Mapping, said: Mapping, key: str, names: list[str],
                  me: int | None) -> str:
    """A sentence of a view (Suzerain's prompt) in the language of the moment: from the
    engine's template where it gives one (`said`, from its `view_said`), else its English.
    The seat page's and the replay page's (a past position's view) alike."""
    template = said.get(key)
    return told(template, names, me) if template else fill(view[key], names, me)


def sentence(text: str, names: list[str], me: int | None) -> str:
    """An engine's or the service's clause ("{p1} resigned", "most districts") as a sentence
    of its own: names filled in, a capital first letter unless it starts with a player's
    name (written as its player chose it: "bob resigned."), and one full stop at the end."""
    raw = text.strip()
    out = fill(raw, names, me)
    if not _SEAT.match(raw):
        out = out[:1].upper() + out[1:]
    return out if out.endswith((".", "!", "?")) else out + "."


def _name(names: list[str], seat: int) -> str:
    # a seat beyond the names cannot happen with a real game; still say something human
    return names[seat] if 0 <= seat < len(names) else "another player"


_POSSESSIVE = re.compile(r"\{p(\d+)\}'s\b")
_YOU_VERB = re.compile(r"\x00you ([a-z]+)\b")
_YOU_THEIR = re.compile(r"(\x00you [a-z]+) their\b")
# "you" at the start of the text or of a sentence (after ". ", "! " or "? ")
_SENTENCE_YOU = re.compile(r"(^|[.!?]\s+)\x00(y)")
_LATER_SENTENCE_YOU = re.compile(r"([.!?]\s+)\x00(y)")
_IRREGULAR = {"has": "have", "is": "are", "was": "were", "does": "do"}


def _plain_verb(word: str) -> str:
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if not word.endswith("s") or word.endswith("ss") or len(word) < 3:
        return word
    if word.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        return word[:-2]
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-1]


@dataclass
class SeatPage:
    game_id: int
    kind: str
    title: str
    seq: int
    mark: str          # the position as this seat sees it: links and forms carry it
    me: int | None
    names: list[str]
    view: dict
    news: list[str]
    to_act: list[int]
    your_turn: bool
    menu: list[dict] = field(default_factory=list)   # [{"move": ..., "text": ...}]
    all_moves: list[dict] = field(default_factory=list)  # every legal move, as the menu
    outcome: dict | None = None
    # every seat's clock (service.play.time.clocks.clock_view + "name", "seat", "status"), in seat order
    clocks: list[dict] = field(default_factory=list)
    holder: int = 0            # who holds the reader's seat now: links carry it
    # the news line the headline leads with: the last move, not what only followed it (a
    # card drawn, a tree started: the engine's `follow_on_events`); "" without news
    lead: str = ""
    # the view's own sentences as templates, by the view's key (the engine's `view_said`)
    said: dict = field(default_factory=dict)

    @property
    def my_clock(self) -> dict | None:
        if self.me is None or self.me >= len(self.clocks):
            return None
        return self.clocks[self.me]

    def spoken(self, key: str) -> str:
        """A sentence of the view (Suzerain's prompt) in the language of the moment: from the
        engine's template where it gives one (`view_said`), else in its English."""
        return view_sentence(self.view, self.said, key, self.names, self.me)

    @property
    def waiting_for(self) -> str:
        return waiting_for(self.names, self.to_act, self.me)

    @property
    def whose_move(self) -> str:
        """"Your turn.", "Your turn; Ben is choosing too.", "Ben to move.", "Game over.", in
        the language of the moment (the reader's: catalogs.speaking)."""
        others = [s for s in self.to_act if s != self.me]
        if self.outcome:
            return _("Game over.")
        if self.your_turn:
            if not others:
                return _("Your turn.")
            # the count only picks the verb's number (is / are choosing): the names say who
            return ngettext("Your turn; %(others)s is choosing too.",
                            "Your turn; %(others)s are choosing too.", len(others),
                            others=self.waiting_for)
        if not others:
            return ""
        return ngettext("%(others)s to move.", "%(others)s to choose.", len(others),
                        others=self.waiting_for)

    @property
    def headline(self) -> str:
        """The email's top line: what happened last, and whose move it is now."""
        return " ".join(x for x in (self.lead, self.whose_move) if x)


def history(engine: Game, events: list[tuple[int, Event]], seat: int | None,
            names: list[str]) -> list[dict]:
    """Each event as `seat` may see it: [{"seq", "text"}]; events it may not see are left out."""
    out = []
    for seq, event in events:
        seen = redact(engine, event, seat)
        if seen is not None and seen.get("text"):
            out.append({"seq": seq, "text": told(seen, names, seat), "type": seen.get("type")})
    return out


def told(seen: Mapping, names: list[str], me: int | None) -> str:
    """A redacted event's sentence in the language of the moment: from its template
    (service.games.text.said), the reader's own form when it is about the reader; an engine
    that gives no template is told in its English, "you" made by `fill`'s English rule."""
    say = seen.get("say")
    if not say:
        return fill(seen["text"], names, me)
    out = _said(say, me)
    if me is not None and current() != "en":
        # the reader named where no form of the sentence is theirs (a score listed: "du 5,
        # Ben 3"): `fill` would make an English "you" of it
        out = out.replace(f"{{p{me}}}", _("you"))
    return fill(out, names, me)


def _said(say: Mapping, me: int | None) -> str:
    """A template (or clauses) in the language of the moment. A parameter may itself be a
    `phrase`, or the `say` of a clause about another seat (a list of each seat's discards, the
    stall a card was taken from): that one takes the reader's form too when it is about them."""
    if "parts" in say:
        return say["sep"].join(_said(part, me) for part in say["parts"])
    mine = say.get("mine") if me is not None and say.get("seat") == me else None
    return spoken(mine or say["template"],
                  {k: _said(v, me) if isinstance(v, dict) else v for k, v in say["args"].items()})


#: how the reader's own line starts where a colon leads into it in small letters ("...played
#: for you: you rolled"); German starts a whole sentence after a colon with its capital
_OWN_START = {"en": "You ", "fr": "Vous "}


def after_colon(line: str) -> str:
    """A history line told to its reader, as it goes on after a colon in the language of the
    moment: "You rolled" as "you rolled", "Vous avez" as "vous avez", "Du hast" as it is."""
    start = _OWN_START.get(current())
    return line[:1].lower() + line[1:] if start and line.startswith(start) else line


#: the service's take-back event (service.play.moves.undo): not the engine's to redact
TAKEN_BACK = "MoveTakenBack"


def redact(engine: Game, event: Event, seat: int | None) -> dict | None:
    """An event as `seat` may see it; the service's own take-back event is public, in the
    language of the moment. The reader's own take-back is a sentence of its own: `fill` can
    make "you" of a seat only in English."""
    if event.type == TAKEN_BACK:
        mover = event.data["seat"]
        text = _("You took back a move, as everyone agreed.") if mover == seat else \
            _("%(mover)s took back a move, as everyone agreed.", mover=f"{{p{mover}}}")
        return {"type": TAKEN_BACK, "text": text, **event.data}
    return engine.redact(event, seat)


def lead(engine: Game, told: list[dict]) -> str:
    """The news line a headline leads with: the last one that is not an event which only
    follows a move (the engine's optional `follow_on_events`: Trees' draw after every
    action), else the last line."""
    follow_on = getattr(engine, "follow_on_events", frozenset())
    return next((h["text"] for h in reversed(told) if h.get("type") not in follow_on),
                told[-1]["text"] if told else "")


def seat_page(engine: Game, game_id: int, kind: str, state: Any, seq: int, seat: int | None,
              names: list[str], news_events: list[tuple[int, Event]],
              every_move: bool = False, with_menu: bool = True,
              title: str | None = None) -> SeatPage:
    """`every_move` also lists every legal move (the game page's buttons); emails, which
    show only the menu, skip that work. `with_menu=False` skips the menu too, for pages that
    show the position without offering moves (a link's confirm page, its done page): in a
    long game listing the moves costs more than the rest of the page. `title`: the game's
    name with its options ("Magnate Roller"; registry.title), else the engine's."""
    title = title or engine.title
    view = engine.view(state, seat)
    to_act = sorted(engine.to_act(state))
    outcome = engine.outcome(state)
    told = history(engine, news_events, seat, names)
    page = SeatPage(game_id=game_id, kind=kind, title=title, seq=seq,
                    mark=mark(engine, state, seat, view), me=seat,
                    names=names, view=view,
                    news=[h["text"] for h in told], lead=lead(engine, told),
                    to_act=to_act, your_turn=seat is not None and seat in to_act,
                    outcome=outcome.to_json() if outcome else None)
    view_said = getattr(engine, "view_said", None)
    if view_said is not None:
        page.said = dict(view_said(state, seat))
    if page.your_turn and with_menu:
        page.menu = [{"move": m, "text": engine.describe(m)} for m in engine.menu(state, seat)]
    if every_move and with_menu and seat is not None and outcome is None:
        # off-turn moves exist too (Magnate's standing preferences), so ask for every seat
        page.all_moves = [{"move": m, "text": engine.describe(m)}
                          for m in engine.legal_moves(state, seat)]
    return page


def waiting_for(names: Sequence[str], to_act: Iterable[int], me: int | None) -> str:
    """The seats to act other than `me`, by name: "Ben", "Ben and Cleo", "Ben, Cleo and Dan"
    ("und", "et" in German and French)."""
    others = [names[s] for s in to_act if s != me]
    if len(others) < 2:
        return "".join(others)
    return _("%(some)s and %(last)s", some=", ".join(others[:-1]), last=others[-1])


def result_line(page: SeatPage) -> str:
    return result_text(page.outcome, page.names, page.me)


def result_text(outcome: Mapping | None, names: list[str], me: int | None) -> str:
    """A game's result as `me` reads it ("You won (you: 6, Ben: 4). Most districts."), from
    its result (the service's ranking: service.play.ranking; for a game that ended before
    it was stored, the engine's outcome); "" while it has none. At a table of three or more
    it lists every place ("Places: 1st Ben (6), 2nd you (4), 3rd Cleo (7; left the game)")."""
    if not outcome:
        return ""
    winners = outcome["winners"]
    you = _("you")
    who = [(you if w == me else _name(names, w)) for w in winners]
    if not who:
        head = _("Nobody won")
    elif len(who) == 1:
        head = _("You won") if winners[0] == me else _("%(name)s won", name=who[0])
    else:
        head = _("Shared win: %(names)s", names=", ".join(who))
    # an engine's `how` is marked for the catalogs (service.games.text.N_): said in the
    # reader's language when it is there, else as the engine wrote it
    how = sentence(_ended(outcome["how"], me), names, me) if outcome.get("how") else ""
    scores = outcome.get("scores")
    places = outcome.get("places")
    if places and len(places) > 2:
        return " ".join(part for part in (f"{head}.", _places_text(outcome, names, me), how)
                        if part)
    if not scores:     # the service ended it: a resignation, a forfeit
        return f"{head}. {how}".rstrip()
    # each score set apart from its name ("Normal bot 1: 6": a name may end in a number),
    # the reader's as "you"
    listed = ", ".join(f"{you if s == me else names[s]}: "
                       f"{scores[s]:g}" for s in range(len(names)))
    if outcome.get("how") in SCORES_SAY_IT:
        return f"{head} ({listed})."
    return f"{head} ({listed}). {how}".rstrip()


#: an outcome's `how` that only says the higher score won (Suzerain's "score", kept so in
#: its logs and golden games): after the scores it adds nothing but a bare "Score."
SCORES_SAY_IT = frozenset({"score"})


def _places_text(outcome: Mapping, names: list[str], me: int | None) -> str:
    """Every seat by place, best first, with its score and whether it left."""
    places, scores = outcome["places"], outcome.get("scores")
    left = set(outcome.get("left") or ())
    parts = []
    for s in sorted(range(len(places)), key=lambda s: (places[s], s)):
        notes = ([f"{scores[s]:g}"] if scores else []) + ([_("left the game")] if s in left else [])
        name = _("you") if s == me else _name(names, s)
        parts.append(f"{ordinal(places[s])} {name}" + (f" ({'; '.join(notes)})" if notes else ""))
    return _("Places: %(places)s.", places=", ".join(parts))


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 5th; in German 1., 2., in French 1er, 2e (catalogs.current)."""
    language = current()
    if language == "de":
        return f"{n}."
    if language == "fr":
        return f"{n}er" if n == 1 else f"{n}e"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th")
    return f"{n}{suffix}"
