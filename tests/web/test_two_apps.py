"""Everything per app lives in `app.extensions`: two apps in one process with different
settings are independent (docs/architecture.md, "the Flask way"). Before the use-case layer, module-level
`db` and `mailer` objects made the second `create_app` repoint the first."""
from __future__ import annotations

from sqlalchemy import create_engine, func, select, text

from service.store.migrate import upgrade
from service.store.models import GameRow
from tests.web.helpers import mails, start_game


def games_in(url: str) -> list[tuple[int, str]]:
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT id, kind FROM games ORDER BY id")).all()
    engine.dispose()
    return [tuple(r) for r in rows]


def test_two_apps_keep_their_own_database_mail_and_secret(app_factory, tmp_path):
    url_a, url_b = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}"
    upgrade(url_a)
    upgrade(url_b)
    app_a = app_factory(TURNPOST_DATABASE_URL=url_a, TURNPOST_MAILDIR=str(tmp_path / "mail-a"),
                        TURNPOST_SECRET_KEY="secret-a")
    app_b = app_factory(TURNPOST_DATABASE_URL=url_b, TURNPOST_MAILDIR=str(tmp_path / "mail-b"),
                        TURNPOST_SECRET_KEY="secret-b")
    public = {}
    for app, kind in ((app_a, "trees"), (app_b, "suzerain")):
        public[kind] = start_game(app, kind, ["anna@example.org", "ben@example.org"]).public_id
    # each game in its own app's database, each app's mail in its own Maildir
    assert games_in(url_a) == [(1, "trees")]
    assert games_in(url_b) == [(1, "suzerain")]
    assert {m["X-Turnpost-Game"] for m in mails(app_a)} == {"1"}
    assert all("Trees" in m["Subject"] for m in mails(app_a))
    assert all("Suzerain" in m["Subject"] for m in mails(app_b))
    # game 1 of one app is not game 1 of the other: the state caches are per app too
    page_a = app_a.test_client().get(f"/games/{public['trees']}").text
    page_b = app_b.test_client().get(f"/games/{public['suzerain']}").text
    assert "Trees" in page_a and "Suzerain" in page_b
    assert app_a.test_client().get("/games/1").status_code == 404    # no row numbers
    # and a link signed by one app's secret is nobody's link in the other
    link = next(line for line in mails(app_a)[0].get_body(("plain",)).get_content().split()
                if "/g/" in line)
    path = link[link.index("/g/"):]
    assert app_a.test_client().get(path).status_code == 200
    assert app_b.test_client().get(path).status_code == 400
    with app_a.extensions["turnpost"].db.transaction() as s:
        assert s.scalar(select(func.count()).select_from(GameRow)) == 1
