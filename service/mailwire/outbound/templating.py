"""The Jinja environment of the email templates (the web app registers the same filters on
its own)."""
from __future__ import annotations

import re
from pathlib import Path

from jinja2 import (
    BytecodeCache,
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    pass_environment,
    select_autoescape,
)
from jinja2.filters import do_wordwrap

from service.display import decktetsuits, frenchsuits
from service.display.seatview import ending, fill, game_over, view_sentence
from service.games import cards

from . import catalogs

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


_REPLY_PREFIX = re.compile(r"^\s*((re|aw|sv|fw|fwd|wg)\s*(\[\d+\])?\s*:\s*)+", re.IGNORECASE)


def reply_subject(subject: str) -> str:
    """"Re: " once, however many "Re: Re: AW:" the subject already carries."""
    return "Re: " + _REPLY_PREFIX.sub("", subject or "").strip()


@pass_environment
def wordwrap(environment: Environment, s: str, width: int = 79, break_long_words: bool = True,
             wrapstring: str | None = None, break_on_hyphens: bool = True) -> str:
    """Jinja's `wordwrap`, without running textwrap over lines that already fit.

    The plain-text emails wrap each line of prose they build, and nearly all of them are
    shorter than the width: textwrap then gives each line back as it was, at a cost of a
    third of rendering a late Aristocracy table's text part. A line comes back
    as it was exactly when it is not empty, fits, and ends in no whitespace (textwrap drops
    trailing whitespace, and gives nothing for an empty line); any other line, and the text
    it is in, goes to Jinja's own filter."""
    lines = s.splitlines()
    if all(0 < len(line) <= width and not line[-1].isspace() for line in lines):
        return (environment.newline_sequence if wrapstring is None else wrapstring).join(lines)
    return do_wordwrap(environment, s, width, break_long_words, wrapstring, break_on_hyphens)


FILTERS = {"card": cards.label, "cardname": cards.name, "reply_subject": reply_subject,
           "wordwrap": wordwrap}
GLOBALS = {"fill": fill, "ending": ending, "view_sentence": view_sentence,
           "unkept": catalogs.unkept, "language": catalogs.current, "game_over": game_over,
           "decktet_suit": decktetsuits.suit,
           "decktet_suit_names": decktetsuits.suit_names, "decktet_mark": decktetsuits.mark,
           "french_card": frenchsuits.chip}


_DICT_ATTRIBUTES = frozenset(dir(dict))


class DictItemsFirst:
    """`view.hand` in a template is looked up by Jinja as an attribute first, then as an item.
    The game views and the pages' rows are plain dicts, so nearly every lookup first raised
    and caught an AttributeError (a late Aristocracy table makes hundreds). For a plain dict and a name that is none of dict's own attributes,
    the attribute lookup can only fail, so the item is taken at once: the same answer, and
    `d.items()` is still the method. Mixed into the email and the web environments."""

    def getattr(self, obj, attribute: str):
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


class EmailEnvironment(DictItemsFirst, Environment):
    """The email templates' environment."""


class CompiledOnce(BytecodeCache):
    """A template compiled once per process, however many environments of one kind the process
    builds: the suite builds an app (and with it both environments) per test, and compiling the
    dozen templates of a first email again would dominate each. Jinja keys the code by the template's
    file and checks it against the source, so an edited template is compiled again. One cache
    per kind of environment: the same file compiles differently under the pages' settings."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


EMAIL_CODE = CompiledOnce()


def make_env(extra: Path | None = None, *, auto_reload: bool = False) -> Environment:
    """`auto_reload`: look at each template file's time again whenever it is used (Jinja's
    default), for a developer editing templates under `flask --debug run`. Otherwise a
    template is read once per process: an email uses a dozen, and the checks were a few
    percent of composing one."""
    loaders = [FileSystemLoader(str(TEMPLATES))]
    if extra is not None:
        loaders.insert(0, FileSystemLoader(str(extra)))
    env = EmailEnvironment(loader=ChoiceLoader(loaders),
                           autoescape=select_autoescape(["html"], default_for_string=False),
                           trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                           auto_reload=auto_reload, bytecode_cache=EMAIL_CODE,
                           extensions=["jinja2.ext.i18n"])
    catalogs.install(env)          # {% trans %} speaks the recipient's language (compose)
    env.filters.update(FILTERS)
    env.globals.update(GLOBALS)
    return env


def precompile(env: Environment) -> int:
    """Compile every email template and game partial now (Jinja compiles a template the first
    time it is asked for): a worker does it before forking, so that its children share the
    compiled code instead of each compiling it while sending its first emails."""
    names = env.list_templates(filter_func=lambda name: name.startswith(("email/", "games/")))
    for name in names:
        env.get_template(name)
    return len(names)


def game_partial(env: Environment, kind: str, ext: str) -> str:
    """The game's own view partial, or the generic one while a game has none."""
    name = f"games/{kind}/view.{ext}"
    try:
        env.get_template(name)
        return name
    except Exception:
        return f"games/_generic/view.{ext}"
