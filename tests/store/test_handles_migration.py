"""Revision 0020_ratings gives every existing player a public handle made from their display
name and a number (unique, never the address), and every existing game counts as rated."""
from __future__ import annotations

from sqlalchemy import create_engine, text

from service.store.migrate import upgrade


def test_existing_players_get_unique_handles_from_their_names(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0010")
    engine = create_engine(url)
    with engine.begin() as conn:
        for email, name in [("anna@example.org", "Anna"), ("a2@example.org", "anna"),
                            ("jose@example.org", "José Núñez"), ("x@example.org", "@@")]:
            conn.execute(text("INSERT INTO players (email, name, created_at) "
                              "VALUES (:e, :n, '2026-11-01 09:00:00')"), {"e": email, "n": name})
    upgrade(url)
    with engine.begin() as conn:
        handles = dict(conn.execute(text("SELECT email, handle FROM players")).all())
        hidden = conn.execute(text("SELECT DISTINCT profile_hidden FROM players")).scalars().all()
    engine.dispose()
    assert handles == {"anna@example.org": "anna-1", "a2@example.org": "anna-2",
                       "jose@example.org": "jose-nunez-1", "x@example.org": "player-1"}
    assert hidden == [0]
