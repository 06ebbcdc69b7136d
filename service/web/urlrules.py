"""URL rules whose builders are compiled once per process, not once per app.

Werkzeug turns each rule's URL builder into Python code (an AST, then `compile`) when a rule is
bound to an app's map: about 0.8 ms a rule, so 100 ms for each of our apps, nearly all of
`create_app`. One process makes many apps (the test suite one a test; the CLI one a command),
and the builder depends only on what is in the cache key below: the function it returns takes
the rule as its first argument (werkzeug binds it with `__get__`), so two equal rules can share
it. Should werkzeug rename the hook, this override is simply never called: slower, never wrong."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from werkzeug.routing import Rule

_BUILDERS: dict[tuple, Callable[..., Any]] = {}


class SharedBuilderRule(Rule):
    """Flask's rule (`app.url_rule_class`), with builders shared between equal rules."""

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., Any]:
        key = self._builder_key(append_unknown)
        if key is None:
            return super()._compile_builder(append_unknown)
        builder = _BUILDERS.get(key)
        if builder is None:
            builder = _BUILDERS[key] = super()._compile_builder(append_unknown)
        return builder

    def _builder_key(self, append_unknown: bool) -> tuple | None:
        """Everything the compiled builder reads: the parsed rule (its trace, which holds the
        host or subdomain part too), its defaults, and the URL text its converters make of a
        default given for one of its variables (werkzeug folds that text into the code). None
        when a default cannot be a key; such a rule is compiled as werkzeug does."""
        try:
            defaults = tuple(sorted((self.defaults or {}).items()))
            folded = tuple((name, self._converters[name].to_url(value))
                           for name, value in defaults if name in self._converters)
            key = (tuple(self._trace), defaults, folded, append_unknown)
            hash(key)
        except TypeError:
            return None
        return key
