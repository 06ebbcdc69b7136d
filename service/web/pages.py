"""Building what a web page shows of a game for one seat (reads only; one short transaction)."""
from __future__ import annotations

from flask import current_app, render_template

from service.links import Claims
from service.mail.templating import game_partial
from service.play import positions
from service.presenting import history, result_line, seat_page


def load(game_id: int, seat: int | None, since: int | None = None):
    """(page, full history for that seat, game row)."""
    db = current_app.extensions["turnpost.db"]
    with db.transaction() as session:
        pos = positions.load(session, game_id)
        names = [s.player.name for s in pos.row.seats]
        events = [(seq, ev) for seq, ev, _ in positions.load_events(session, game_id)]
        news = [(q, e) for q, e in events if since is not None and q > since]
        page = seat_page(pos.engine, game_id, pos.row.kind, pos.state, pos.seq, seat, names, news,
                         every_move=True)
        past = history(pos.engine, events, seat, names)
        return page, past, pos.row


def move_url(page, move) -> str:
    signer = current_app.extensions["turnpost.signer"]
    return "/m/" + signer.dumps("move", Claims(page.game_id, page.me, page.mark, move))


MAX_BUTTONS = 400


def render_game(page, past, view_token: str, **extra):
    env = current_app.jinja_env
    return render_template("web/game.html", page=page, view=page.view, names=page.names,
                           me=page.me, history=list(reversed(past)), token=view_token,
                           result=result_line(page),
                           moves=[{"text": m["text"], "url": move_url(page, m["move"])}
                                  for m in page.menu],
                           groups=grouped_moves(page) if view_token else {},
                           partial_html=game_partial(env, page.kind, "html"), **extra)


def grouped_moves(page) -> dict[str, list[dict]]:
    """Every legal move as a button, grouped by kind ("trade", "add", "buy"...): clicking
    trades and deed additions one by one, then the card play, composes a whole turn."""
    groups: dict[str, list[dict]] = {}
    for m in page.all_moves[:MAX_BUTTONS]:
        kind = str(m["move"].get("type", "move")).replace("_", " ")
        groups.setdefault(kind, []).append({"text": m["text"], "url": move_url(page, m["move"])})
    return groups


def problem(title: str, detail: str, status: int, game_link: str | None = None, **extra):
    return render_template("web/problem.html", title=title, detail=detail,
                           game_link=game_link, **extra), status
