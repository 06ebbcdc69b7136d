"""The Jinja environment of the email templates (the web app registers the same filters on
its own)."""
from __future__ import annotations

from pathlib import Path

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, select_autoescape

from service.games import cards
from service.presenting import fill

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


FILTERS = {"card": cards.label, "cardname": cards.name}


def make_env(extra: Path | None = None) -> Environment:
    loaders = [FileSystemLoader(str(TEMPLATES))]
    if extra is not None:
        loaders.insert(0, FileSystemLoader(str(extra)))
    env = Environment(loader=ChoiceLoader(loaders),
                      autoescape=select_autoescape(["html"], default_for_string=False),
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(FILTERS)
    env.globals["fill"] = fill
    return env


def game_partial(env: Environment, kind: str, ext: str) -> str:
    """The game's own view partial, or the generic one while a game has none."""
    name = f"games/{kind}/view.{ext}"
    try:
        env.get_template(name)
        return name
    except Exception:
        return f"games/_generic/view.{ext}"
