"""Schema migrations, run in code: `flask --app service.web init-db`, tests and benchmarks."""
from __future__ import annotations

import logging
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine

HERE = Path(__file__).resolve().parent


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


log = logging.getLogger(__name__)
#: Alembic's own log line for each step carries the revision's whole docstring (`make run`
#: and `flask init-db` printed paragraphs of them); its steps are logged here by name instead
_ALEMBIC_STEPS = logging.getLogger("alembic.runtime.migration")


def upgrade(url: str, revision: str = "head") -> None:
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url)
    level = _ALEMBIC_STEPS.level
    _ALEMBIC_STEPS.setLevel(logging.WARNING)
    try:
        with engine.begin() as connection:
            cfg = alembic_config(url)
            cfg.attributes["connection"] = connection
            cfg.attributes["on_version_apply"] = _applied
            command.upgrade(cfg, revision)
    finally:
        _ALEMBIC_STEPS.setLevel(level)
        engine.dispose()


def _applied(*, step, **_) -> None:
    """One line a step, by its revision's name: its file's ("0001_initial_schema"; the first
    revisions' ids are bare numbers)."""
    if not (step.is_upgrade and step.up_revisions):
        return
    revision = step.up_revisions[0]
    path = getattr(revision, "path", None)
    log.info("migrated to %s", Path(path).stem if path else revision.revision)
