"""`d.name` in a template finds a plain dict's item without first failing to find an attribute
(templating.DictItemsFirst, in the email and the web environments), and answers exactly as
stock Jinja does: dict's own methods stay methods, a missing key is undefined, and anything
that is not a plain dict is looked up as before."""
from __future__ import annotations

from collections import OrderedDict
from types import SimpleNamespace

import pytest
from jinja2 import Environment

from service.mailwire.outbound.templating import make_env
from service.web import create_app


class Tagged(dict):
    """A dict subclass with an attribute of its own that shadows one of its keys."""

    hand = "the attribute"


VALUES = {"d": {"hand": ["KD.1", "3H"], "items": "a key named items", "round": 3,
                "sealed": None},
          "o": SimpleNamespace(hand="an attribute"), "t": Tagged(hand="the item"),
          "od": OrderedDict(hand="ordered")}
EXPRESSIONS = ["d.hand", "d.hand|length", "d.round + 1", "d.sealed is none",
               "d.missing is defined", "d.missing|default('nothing')", "d.items()|list|length",
               "d.get('round')", "d.keys()|list|length", "o.hand", "t.hand", "od.hand",
               "d.hand.0", "d['hand'][1]"]


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_the_email_environment_answers_as_stock_jinja(expression):
    template = "{{ (" + expression + ")|string }}"
    stock = Environment().from_string(template).render(VALUES)
    assert make_env().from_string(template).render(VALUES) == stock


def test_the_web_environment_answers_as_stock_jinja(tmp_path):
    app = create_app({"TURNPOST_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"})
    stock = Environment(autoescape=True)        # Flask escapes string templates
    for expression in EXPRESSIONS:
        template = "{{ (" + expression + ")|string }}"
        assert (app.jinja_env.from_string(template).render(VALUES)
                == stock.from_string(template).render(VALUES)), expression


def test_a_plain_dicts_item_is_taken_without_an_attribute_lookup(monkeypatch):
    """The point of it: no AttributeError raised and caught per lookup."""
    env = make_env()
    tried = []
    monkeypatch.setattr(Environment, "getattr",
                        lambda self, obj, name: tried.append(name) or "stock")
    out = env.from_string("{{ d.hand|length }} {{ d.items is defined }} {{ o.hand }}").render(
        VALUES)
    assert out == "2 True stock" and tried == ["items", "hand"]
