"""A worker compiles every email template before it forks (play.prepare_to_render), so that
its children never compile one while sending."""
from __future__ import annotations

import os

import pytest

from service.mailwire.outbound.templating import TEMPLATES, make_env, precompile


def test_precompile_compiles_every_email_template_and_game_partial(monkeypatch):
    env = make_env()
    wanted = sorted(str(p.relative_to(TEMPLATES)) for folder in ("email", "games")
                    for p in (TEMPLATES / folder).rglob("*") if p.is_file())
    assert precompile(env) == len(wanted)
    monkeypatch.setattr(env, "compile",
                        lambda *a, **k: pytest.fail("compiled again after precompile"))
    for name in wanted:
        assert env.get_template(name).name == name


@pytest.mark.parametrize("auto_reload", [False, True])
def test_a_template_is_read_once_unless_reloading_is_asked_for(tmp_path, auto_reload):
    """A worker reads each template once (the per-use file check was a few percent of an
    email); `flask --debug run` (auto_reload) shows an edited template at once."""
    (tmp_path / "email").mkdir()
    template = tmp_path / "email" / "hello.txt"
    template.write_text("first")
    env = make_env(tmp_path, auto_reload=auto_reload)
    assert env.get_template("email/hello.txt").render() == "first"
    template.write_text("edited")
    stat = template.stat()
    os.utime(template, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    assert env.get_template("email/hello.txt").render() == ("edited" if auto_reload else "first")
