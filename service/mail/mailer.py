"""The mail extension: transport, templates, signer and settings in one object that the web
app, the workers and the CLI share (`init_app`, as Flask's extensions do)."""
from __future__ import annotations

from sqlalchemy.orm import Session

from service.links import Signer
from service.play import positions
from service.presenting import seat_page
from service.store.models import GameRow, OutboxRow

from . import compose, relay, transports
from .templating import make_env


class Mailer:
    def __init__(self):
        self.env = make_env()
        self.transport = None
        self.signer: Signer | None = None
        self.cfg: dict = {}

    def init_app(self, app) -> None:
        self.cfg = app.config
        self.transport = transports.from_settings(app.config)
        self.signer = app.extensions["turnpost.signer"]
        app.extensions["turnpost.mailer"] = self

    @property
    def schedule(self) -> tuple[int, ...]:
        return tuple(self.cfg["TURNPOST_RETRY_SCHEDULE"])

    def links(self, game_id: int, seat: int | None, mark: str | None) -> compose.Links:
        return compose.Links(self.signer, self.cfg["TURNPOST_BASE_URL"],
                             self.cfg["TURNPOST_MAIL_DOMAIN"], game_id, seat, mark)

    def render(self, session: Session, row: OutboxRow):
        if row.game_id is None:
            p = row.payload or {}
            return compose.compose_notice(self.env, msg_id=row.message_id, to_addr=row.to_addr,
                                          from_name=self.cfg["TURNPOST_MAIL_FROM_NAME"],
                                          when=row.created_at,
                                          domain=self.cfg["TURNPOST_MAIL_DOMAIN"],
                                          why=p.get("why", ""), subject=p.get("subject", ""),
                                          in_reply_to=p.get("in_reply_to"))
        game = session.get(GameRow, row.game_id)
        pos = positions.load(session, row.game_id, upto=row.seq)
        names = [s.player.name for s in game.seats]
        news = [(seq, ev) for seq, ev, _ in
                positions.load_events(session, row.game_id, after=row.since_seq, upto=row.seq)]
        page = seat_page(pos.engine, game.id, game.kind, pos.state, pos.seq, row.seat, names, news)
        return compose.compose_turn(self.env, page, self.links(game.id, row.seat, page.mark),
                                    msg_id=row.message_id, to_addr=row.to_addr,
                                    from_name=self.cfg["TURNPOST_MAIL_FROM_NAME"],
                                    when=row.created_at, extra=dict(row.payload or {},
                                                                    kind=row.kind))

    def deliver(self, db, row_id: int) -> str:
        return relay.deliver(db, row_id, self.render, self.transport.send, self.schedule)
