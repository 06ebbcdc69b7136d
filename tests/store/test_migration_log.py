"""`make run` and `flask init-db` name each migration they apply in one line, never its whole
docstring (issue 49, item 20)."""
from __future__ import annotations

import logging

from service.store.migrate import upgrade


def test_each_migration_applied_is_one_line_naming_it(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    upgrade(f"sqlite:///{tmp_path / 'fresh.db'}")
    steps = [r.getMessage() for r in caplog.records if r.name == "service.store.migrate"]
    assert steps[0] == "migrated to 0001_initial_schema"
    assert len(steps) > 20 and all("\n" not in s and len(s) < 60 for s in steps), steps[:3]
    assert not [r for r in caplog.records if r.name.startswith("alembic")
                and r.levelno <= logging.INFO], "Alembic's lines carry each docstring"
    caplog.clear()
    upgrade(f"sqlite:///{tmp_path / 'fresh.db'}")           # up to date: nothing to name
    assert [r for r in caplog.records if r.name == "service.store.migrate"] == []
