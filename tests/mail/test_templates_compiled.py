"""A worker compiles every email template before it forks (play.prepare_to_render), so that
its children never compile one while sending."""
from __future__ import annotations

import pytest

from service.mail.outbound.templating import TEMPLATES, make_env, precompile


def test_precompile_compiles_every_email_template_and_game_partial(monkeypatch):
    env = make_env()
    wanted = sorted(str(p.relative_to(TEMPLATES)) for folder in ("email", "games")
                    for p in (TEMPLATES / folder).rglob("*") if p.is_file())
    assert precompile(env) == len(wanted)
    monkeypatch.setattr(env, "compile",
                        lambda *a, **k: pytest.fail("compiled again after precompile"))
    for name in wanted:
        assert env.get_template(name).name == name
