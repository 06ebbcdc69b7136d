"""The games not ended have their own index (migration 0040), and /me's games in progress are
asked for with the index's own condition written into the statement: a partial index serves
only a query whose condition implies it, and PostgreSQL's plan for a prepared statement can
see that only of a literal, never of a parameter."""
from __future__ import annotations

from sqlalchemy import inspect, select
from sqlalchemy.dialects import postgresql, sqlite

from service.play.reads import mygames
from service.store.models import UNENDED, Seat


def test_the_migrated_database_indexes_the_games_not_ended(db):
    indexes = {ix["name"]: ix for ix in inspect(db.engine).get_indexes("games")}
    assert indexes["ix_games_unended"]["column_names"] == ["id"]


def test_my_games_in_progress_name_the_index_condition_as_a_literal():
    statement = select(Seat.game_id).where(mygames.NOT_ENDED)
    for dialect in (postgresql.dialect(), sqlite.dialect()):
        compiled = statement.compile(dialect=dialect)
        assert f"games.{UNENDED}" in str(compiled)
        assert not compiled.params                  # no parameter stands for 'ended'
