"""Reading names players type: any case, with or without "the", ids, unambiguous prefixes."""
from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterable, Mapping

from .contract import N_, CommandError, english  # N_: engines' marker, re-exported here

# Quotation marks a player may put around a name: double quotes of every kind, and single
# quotes where they open or close a word. A single quote inside a word is an apostrophe
# ("player 2's"), and curly ones are folded to straight first, as phones type them.
DOUBLE_QUOTES = re.compile(r"[\"“”„«»]")
EDGE_QUOTE = re.compile(r"(?<![^\W_])'|'(?![^\W_])")


def unquote(text: str) -> str:
    """`text` without the quotation marks around its names: ``play 'the Castle'`` and
    ``play “the Castle”`` read as ``play the Castle``; apostrophes inside words stay."""
    text = DOUBLE_QUOTES.sub(" ", text.replace("‘", "'").replace("’", "'"))
    return EDGE_QUOTE.sub(" ", text)


# a game's names are normalised again on every match (a Trees line looks at every card's
# spellings): remembered, a reply's parse does not redo them (bench/reply_cpu.py measures it)
@functools.lru_cache(maxsize=8192)
def norm(text: str) -> str:
    # the quotes go first: a name in quotes ('the Castle') would keep its marks, and "the"
    # behind an opening quote would not be dropped
    text = re.sub(r"[^a-z0-9.' ]+", " ", unquote(text.lower()))
    text = re.sub(r"^(the|a|an) ", "", text.strip())
    return re.sub(r"\s+", " ", text).strip()


# What `match` says of each kind of name, whole: German and French make "which" and "no"
# agree with the noun, so the noun cannot be a parameter of one sentence. A kind not here is
# said in English ("which {what}?").
NOUNS = {
    "card": (N_("which card?"), N_("{query} could be several cards"),
             N_("there is no card {query} here")),
    "tree": (N_("which tree?"), N_("{query} could be several trees"),
             N_("there is no tree {query} here")),
    "deed": (N_("which deed?"), N_("{query} could be several deeds"),
             N_("there is no deed {query} here")),
    "district": (N_("which district?"), N_("{query} could be several districts"),
                 N_("there is no district {query} here")),
}


def _nouns(what: str) -> tuple[str, str, str]:
    return NOUNS.get(what) or (f"which {what}?", "{query} could be several " + what + "s",
                               "there is no " + what + " {query} here")


def match(query: str, names: Mapping[str, Iterable[str]], what: str = "card") -> str:
    """Resolve `query` to one key of `names` (key -> its spellings).

    Exact spellings win; otherwise a unique prefix (of a spelling or of one of its words).
    Unknown or ambiguous text raises CommandError naming the candidates."""
    which, several, nowhere = _nouns(what)
    q = norm(query)
    if not q:
        raise CommandError(which)
    spellings = {key: {norm(s) for s in spells} | {norm(key)} for key, spells in names.items()}
    exact = [k for k, ss in spellings.items() if q in ss]
    if len(exact) == 1:
        return exact[0]
    pref = exact or [k for k, ss in spellings.items()
                     if any(s.startswith(q) for s in ss)]
    if not pref:
        pref = [k for k, ss in spellings.items()
                if any(w.startswith(q) for s in ss for w in s.split())]
    if len(pref) == 1:
        return pref[0]
    if pref:
        raise CommandError(several, [first(names[k]) for k in pref], query=repr(query))
    pool = {s: k for k, ss in spellings.items() for s in ss}
    close = difflib.get_close_matches(q, list(pool), n=3, cutoff=0.6)
    keys = list(dict.fromkeys(pool[c] for c in close))
    hint = [first(names[k]) for k in keys]
    raise CommandError(nowhere, hint, query=repr(query))


def first(spellings: Iterable[str]) -> str:
    spells = list(spellings)
    # the longest spelling reads best ("the Chance Meeting" rather than "7ML")
    return max(spells, key=len) if spells else ""


# ------------------------------------------------------------------ history sentences
# An engine says what happened in English and also as a template with named parameters, so
# the display (service.display.seatview) can say it in the reader's language. Engines stay
# pure: these build plain dicts and import nothing of the catalogs.

def phrase(template: str, **args) -> dict:
    """A part of a sentence translated on its own ("3 Crowns"), as a parameter of `said`."""
    return {"template": template, "args": args}


def all_of(names: list) -> dict | str:
    """Names as one parameter, "the Mill, the Sailor and the Savage", its "and" said in the
    reader's language; one name is itself, none is "nothing"."""
    if not names:
        return phrase(N_("nothing"))
    if len(names) == 1:
        return names[0]
    return phrase(N_("{names} and {last}"), names=", ".join(names[:-1]), last=names[-1])


def any_of(names: list) -> dict | str:
    """Names as one parameter, "Moons or Suns or Waves", each "or" in the reader's language."""
    if len(names) == 1:
        return names[0]
    return phrase(N_("{first} or {last}"), first=any_of(names[:-1]), last=names[-1])


def said(template: str, mine: str | None = None, seat: int | None = None, **args) -> dict:
    """A history sentence about `seat` (its "{player}"), as an event's redacted fields:
    `text`, the English with "{p<seat>}" for the display to fill in (as engines always
    wrote it), and `say`, what the display translates: the template, `mine` (the reader's own
    form when the reader is `seat`: German and French conjugate "you" differently, so that
    cannot be made by rule) and the parameters (card names as the rules name them, numbers,
    phrases)."""
    if seat is not None:
        args["player"] = "{p" + str(seat) + "}"
    return {"text": english(template, args),
            "say": {"template": template, "mine": mine, "seat": seat, "args": args}}


def joined(*sentences: dict, sep: str = " ") -> dict:
    """Sentences from `said`, or clauses, as one: a line about two seats ("{p0} won the trick;
    {p1} leads the next") is made of clauses each about one, so each has its reader's form."""
    return {"text": sep.join(s["text"] for s in sentences),
            "say": {"parts": [s["say"] for s in sentences], "sep": sep}}
