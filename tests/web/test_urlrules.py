"""URL builders compiled once per process (service/web/urlrules.py) build exactly what
werkzeug's own would, for every rule of the app, and two apps share them. Budget: under a
second (two apps, no database)."""
from __future__ import annotations

from werkzeug.routing import IntegerConverter, Map, PathConverter, Rule

from service.web import urlrules


def sample_values(rule: Rule) -> dict:
    """A value for each of the rule's variables that its converter accepts, with characters
    that need quoting where the converter takes text."""
    values = {}
    for name, converter in rule._converters.items():
        if isinstance(converter, IntegerConverter):
            values[name] = 7
        elif isinstance(converter, PathConverter):
            values[name] = "a b/c"
        else:
            values[name] = "x y&z"
    return values


def test_every_rule_builds_what_werkzeug_builds(app):
    assert app.url_rule_class is urlrules.SharedBuilderRule
    rules = list(app.url_map.iter_rules())
    plain = Map([Rule(r.rule, endpoint=r.endpoint, defaults=r.defaults, methods=r.methods)
                 for r in rules], converters=app.url_map.converters)
    assert len(rules) > 100
    for rule, twin in zip(rules, plain.iter_rules(), strict=True):
        values = sample_values(rule)
        assert rule.build(values) == twin.build(values), rule.rule
        # an unknown argument goes to the query string, as werkzeug's does
        assert rule.build({**values, "lang": "de fr"}) == twin.build({**values, "lang": "de fr"})
        assert rule.build(values, append_unknown=False) == twin.build(values,
                                                                       append_unknown=False)


def test_two_apps_share_each_rules_builder(app_factory):
    first, second = app_factory(), app_factory()
    for one, other in zip(first.url_map.iter_rules(), second.url_map.iter_rules(), strict=True):
        assert one is not other
        assert one._build.__func__ is other._build.__func__, one.rule
    with second.test_request_context():
        from flask import url_for
        assert url_for("static", filename="times.js") == "/static/times.js"


def test_a_default_folded_into_the_rule_is_part_of_the_key():
    """A default given for one of a rule's variables is folded into the builder as text, so
    two rules differing only in that default do not share a builder."""
    one = urlrules.SharedBuilderRule("/page/<int:n>", endpoint="one", defaults={"n": 1})
    two = urlrules.SharedBuilderRule("/page/<int:n>", endpoint="two", defaults={"n": 2})
    m = Map([one, two])
    adapter = m.bind("turnpost.test")
    assert adapter.build("one", {}) == "/page/1"
    assert adapter.build("two", {}) == "/page/2"
    assert one._build.__func__ is not two._build.__func__
