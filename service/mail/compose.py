"""Turning an outbox row into an email: the seat's page rendered through a template trio
(subject, plain text, HTML with inlined CSS) plus the headers that make a game's emails one
conversation that mail clients, filters and unsubscribe buttons understand."""
from __future__ import annotations

from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime

import css_inline
from jinja2 import Environment

from service.links import Claims, Signer
from service.presenting import SeatPage, result_line

from .inbound import REPLY_MARKER  # one marker for what we write and what we cut
from .templating import game_partial

_inliner = css_inline.CSSInliner(keep_style_tags=False)
# Long unbreakable header values (the List-Unsubscribe URL) must stay plain ASCII, not be
# folded into encoded words that unsubscribe buttons cannot read; 998 is SMTP's own limit.
POLICY = policy.SMTP.clone(max_line_length=998)


class Links:
    """Absolute URLs and addresses for one seat of one game at one position."""

    def __init__(self, signer: Signer, base_url: str, domain: str, game_id: int,
                 seat: int | None, mark: str | None):
        self.signer, self.base, self.domain = signer, base_url.rstrip("/"), domain
        self.game_id, self.seat, self.mark = game_id, seat, mark

    def move(self, move: dict) -> str:
        token = self.signer.dumps("move", Claims(self.game_id, self.seat, self.mark, move))
        return f"{self.base}/m/{token}"

    def game(self) -> str:
        return f"{self.base}/g/{self.signer.dumps('view', Claims(self.game_id, self.seat))}"

    def unsubscribe(self) -> str:
        return f"{self.base}/u/{self.signer.dumps('unsubscribe', Claims(self.game_id, self.seat))}"

    def reply_address(self) -> str:
        return f"play+{self.signer.reply_token(self.game_id, self.seat)}@{self.domain}"


def thread_root(game_id: int, domain: str) -> str:
    return f"<game-{game_id}@{domain}>"


def message_id(local: str, domain: str) -> str:
    # stored per outbox row: a resend after a crash carries the same id, and clients dedupe it
    return f"<{local}@{domain}>"


def compose_turn(env: Environment, page: SeatPage, links: Links, *, msg_id: str, to_addr: str,
                 from_name: str, when, extra: dict | None = None) -> EmailMessage:
    ctx = {"page": page, "view": page.view, "names": page.names, "me": page.me,
           "links": links, "marker": REPLY_MARKER, "result": result_line(page),
           "moves": [{"text": m["text"], "url": links.move(m["move"])} for m in page.menu],
           "partial_html": game_partial(env, page.kind, "html"),
           "partial_txt": game_partial(env, page.kind, "txt"), **(extra or {})}
    return build(env, "turn", ctx, page.game_id, links, msg_id=msg_id, to_addr=to_addr,
                 from_name=from_name, when=when, title=page.title, names=page.names)


def compose_notice(env: Environment, *, msg_id: str, to_addr: str, from_name: str, when,
                   domain: str, why: str, subject: str, in_reply_to: str | None) -> EmailMessage:
    """A reply that belongs to no game we can name (unknown game, a stranger's address)."""
    ctx = {"why": why, "their_subject": subject}
    msg = EmailMessage(policy=POLICY)
    msg["Subject"] = " ".join(env.get_template("email/notice.subject.txt").render(ctx).split())
    msg["From"] = Address(from_name, addr_spec=f"turnpost@{domain}")
    msg["To"] = to_addr
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = message_id(msg_id, domain)
    if in_reply_to:
        msg["In-Reply-To"] = msg["References"] = f"<{in_reply_to}>"
    msg["Auto-Submitted"] = "auto-replied"
    msg["X-Auto-Response-Suppress"] = "All"
    msg.set_content(env.get_template("email/notice.txt").render(ctx))
    msg.add_alternative(_inliner.inline(env.get_template("email/notice.html").render(ctx)),
                        subtype="html")
    return msg


def build(env: Environment, kind: str, ctx: dict, game_id: int, links: Links, *, msg_id: str,
          to_addr: str, from_name: str, when, title: str, names: list[str]) -> EmailMessage:
    domain = links.domain
    ctx = {"game_title": title, "game_id": game_id, **ctx}
    subject = " ".join(env.get_template(f"email/{kind}.subject.txt").render(ctx).split())
    text = env.get_template(f"email/{kind}.txt").render(ctx)
    html = _inliner.inline(env.get_template(f"email/{kind}.html").render(ctx))

    msg = EmailMessage(policy=POLICY)
    msg["Subject"] = subject
    msg["From"] = Address(from_name, addr_spec=f"turnpost@{domain}")
    msg["To"] = to_addr
    msg["Reply-To"] = Address(f"{title} #{game_id}", addr_spec=links.reply_address())
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = message_id(msg_id, domain)
    root = thread_root(game_id, domain)
    # answers to a player's email thread under it; everything else under the game's root
    replying = ctx.get("in_reply_to")
    msg["In-Reply-To"] = f"<{replying}>" if replying else root
    msg["References"] = f"{root} <{replying}>" if replying else root
    msg["List-Id"] = f"{title} game {game_id} <game-{game_id}.{domain}>"
    msg["List-Unsubscribe"] = f"<{links.unsubscribe()}>"
    msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg["Auto-Submitted"] = "auto-replied" if replying else "auto-generated"
    msg["X-Auto-Response-Suppress"] = "All"
    msg["X-Turnpost-Game"] = str(game_id)
    msg.set_content(text)
    msg.add_alternative(html, subtype="html")
    return msg
