"""Turning what a seat is shown into an email: the seat's page rendered through a template trio
(subject, plain text, HTML with inlined CSS) plus the headers that make a game's emails one
conversation that mail clients, filters and unsubscribe buttons understand."""
from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from datetime import datetime
from email.headerregistry import Address
from email.message import EmailMessage

import css_inline
from jinja2 import Environment

from service.display.boardpicture import picture
from service.display.seatview import SeatPage, result_line
from service.linking.urls import SeatLinks, Urls

from .. import REPLY_MARKER  # one marker for what we write and the reader cuts
from . import catalogs, htmllines
from .headers import CachedHeaderRegistry, PlainHeadersPolicy
from .templating import game_partial

# keep_at_rules: the dark-mode @media block stays in a <style> for clients that honour it
_inliner = css_inline.CSSInliner(keep_style_tags=False, keep_at_rules=True)
# Long unbreakable header values (the List-Unsubscribe URL) must stay plain ASCII, not be
# folded into encoded words that unsubscribe buttons cannot read; 998 is SMTP's own limit.
# A value that needs no encoding is kept as its text; each parsed header is kept for the next
# email that sets the same value (.headers).
POLICY = PlainHeadersPolicy(linesep="\r\n", max_line_length=998,
                            header_factory=CachedHeaderRegistry())
# The email package wraps base64 at the policy's line length: 998 would make the picture's
# lines that long, where RFC 2045 (6.8) says 76 at most, and spam filters score longer ones.
PICTURE_POLICY = POLICY.clone(max_line_length=76)


@dataclass(frozen=True)
class Envelope:
    """Who an email is from and to, its stored Message-ID and its date."""

    msg_id: str          # the local part, stored with the outbox row
    to_addr: str
    from_name: str
    when: datetime
    language: str = catalogs.DEFAULT     # the recipient's: the words and Content-Language


def compose_turn(env: Environment, page: SeatPage, links: SeatLinks, envelope: Envelope,
                 extra: dict | None = None) -> EmailMessage:
    table = picture(page.view, page.names, page.me)
    cid = f"table.{envelope.msg_id}@{links.domain}"
    ctx = {"page": page, "view": page.view, "names": page.names, "me": page.me,
           "picture": table, "picture_cid": cid,
           "links": links, "marker": REPLY_MARKER, "result": result_line(page),
           "moves": [{"text": m["text"], "url": links.move(m["move"])} for m in page.menu],
           "partial_html": game_partial(env, page.kind, "html"),
           "partial_txt": game_partial(env, page.kind, "txt"),
           # for the subject: whose move it is, by display name
           "others": [n for i, n in enumerate(page.names) if i != page.me],
           "movers": [page.names[i] for i in page.to_act if i != page.me],
           **(extra or {})}
    with catalogs.speaking(envelope.language):
        msg = build(env, "turn", ctx, page.game_id, links, envelope, title=page.title)
    if table is not None:
        # the HTML part becomes multipart/related with the picture its <img> names by cid
        html = msg.get_body(("html",))
        html.make_related()
        image = type(html)(policy=PICTURE_POLICY)
        image.set_content(table.png, "image", "png", cid=f"<{cid}>", disposition="inline",
                          filename="table.png")
        html.attach(image)
    return bound(msg)


#: outbox kinds told in a short email of their own (a chat line, a notice about a seat's clock
#: or a take-back): the turn email told the position, a second copy of it would only bury them
NOTE_KINDS = frozenset({"message", "timeout", "undo"})


def compose_note(env: Environment, page: SeatPage, links: SeatLinks, envelope: Envelope,
                 extra: dict | None = None) -> EmailMessage:
    """A chat line or a notice in the game's thread: what was said or happened, whose move it
    is, and the game page; no position, no move links."""
    ctx = {"page": page, "names": page.names, "me": page.me, "links": links,
           "marker": REPLY_MARKER, **(extra or {})}
    with catalogs.speaking(envelope.language):
        return bound(build(env, "note", ctx, page.game_id, links, envelope, title=page.title))


def compose_notice(env: Environment, urls: Urls, envelope: Envelope, *, why: str, subject: str,
                   in_reply_to: str | None, kind: str = "notice") -> EmailMessage:
    """A reply that belongs to no game we can name (unknown game, a stranger's address), or
    (kind "invite") an invitation to someone not at the table yet."""
    return compose_letter(env, urls, envelope, kind, {"why": why, "their_subject": subject},
                          in_reply_to=in_reply_to,
                          auto="auto-replied" if kind == "notice" else "auto-generated")


def compose_letter(env: Environment, urls: Urls, envelope: Envelope, kind: str, ctx: dict, *,
                   in_reply_to: str | None = None, auto: str = "auto-generated") -> EmailMessage:
    """An email about the service itself, not a move: a sign-in link, an invitation, a notice.
    Built from email/<kind>.{subject.txt,txt,html}; nobody replies to it."""
    with catalogs.speaking(envelope.language):
        return bound(_letter(env, urls, envelope, kind, ctx, in_reply_to, auto))


def _letter(env: Environment, urls: Urls, envelope: Envelope, kind: str, ctx: dict,
            in_reply_to: str | None, auto: str) -> EmailMessage:
    msg = EmailMessage(policy=POLICY)
    msg["Subject"] = " ".join(env.get_template(f"email/{kind}.subject.txt").render(ctx).split())
    msg["From"] = Address(envelope.from_name, addr_spec=urls.sender_address())
    msg["To"] = envelope.to_addr
    msg["Date"] = envelope.when
    msg["Message-ID"] = urls.message_id(envelope.msg_id)
    if in_reply_to:
        msg["In-Reply-To"] = msg["References"] = f"<{in_reply_to}>"
    msg["Auto-Submitted"] = auto
    msg["X-Auto-Response-Suppress"] = "All"
    msg.set_content(env.get_template(f"email/{kind}.txt").render(ctx))
    msg.add_alternative(htmllines.fold(_inliner.inline(
        env.get_template(f"email/{kind}.html").render(ctx))), subtype="html")
    # RFC 3282: the words' language (set after the content, which clears Content-* headers)
    msg["Content-Language"] = envelope.language
    return msg


def build(env: Environment, kind: str, ctx: dict, game_id: int, links: SeatLinks,
          envelope: Envelope, *, title: str) -> EmailMessage:
    urls = links.urls
    ctx = {"game_title": title, "game_id": game_id, **ctx}
    subject = " ".join(env.get_template(f"email/{kind}.subject.txt").render(ctx).split())
    text = env.get_template(f"email/{kind}.txt").render(ctx)
    # its lines under SMTP's limit: the part then goes as it is, not quoted-printable
    html = htmllines.fold(_inliner.inline(env.get_template(f"email/{kind}.html").render(ctx)))

    msg = EmailMessage(policy=POLICY)
    msg["Subject"] = subject
    msg["From"] = Address(envelope.from_name, addr_spec=urls.sender_address())
    msg["To"] = envelope.to_addr
    msg["Reply-To"] = Address(f"{title} #{game_id}", addr_spec=links.reply_address())
    msg["Date"] = envelope.when
    msg["Message-ID"] = urls.message_id(envelope.msg_id)
    root = urls.thread_root(game_id)
    # answers to a player's email thread under it; everything else under the game's root
    replying = ctx.get("in_reply_to")
    msg["In-Reply-To"] = f"<{replying}>" if replying else root
    msg["References"] = f"{root} <{replying}>" if replying else root
    msg["List-Id"] = urls.list_id(title, game_id)
    msg["List-Unsubscribe"] = f"<{links.unsubscribe()}>"
    msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg["Auto-Submitted"] = "auto-replied" if replying else "auto-generated"
    msg["X-Auto-Response-Suppress"] = "All"
    msg["X-Turnpost-Game"] = str(game_id)
    msg.set_content(text)
    msg.add_alternative(html, subtype="html")
    # RFC 3282: the words' language (set after the content, which clears Content-* headers)
    msg["Content-Language"] = envelope.language
    return msg


def bound(msg: EmailMessage) -> EmailMessage:
    """Give each multipart its boundary now, in the email package's form, innermost first.

    The package would draw a new one while sending, then run a freshly compiled regular
    expression over the whole flattened message to check it (half a millisecond an email).
    Here each place (first, second... innermost first) keeps this process's boundary from
    one email to the next, so the Content-Type that carries it is the same text each time
    and parsed once (.headers). It is checked against the email's payloads with a substring
    test; one found there is replaced by a new random one for that email, so a player's
    chat line cannot break it."""
    leaves: list[str] | None = None
    for place, part in enumerate(_unbound_multiparts(msg)):
        if leaves is None:
            leaves = [str(p.get_payload()) for p in msg.walk() if not p.is_multipart()]
        boundary = _kept_boundary(place)
        while any(boundary in leaf for leaf in leaves):
            boundary = _BOUNDARY % random.randrange(sys.maxsize)
        part.set_boundary(boundary)
    return msg


def _unbound_multiparts(msg: EmailMessage):
    for part in msg.iter_parts():
        yield from _unbound_multiparts(part)
    if msg.is_multipart() and msg.get_boundary() is None:
        yield msg


def _kept_boundary(place: int) -> str:
    while len(_KEPT) <= place:
        boundary = _BOUNDARY % random.randrange(sys.maxsize)
        if boundary not in _KEPT:      # a multipart's boundary must differ from its parent's
            _KEPT.append(boundary)
    return _KEPT[place]


_BOUNDARY = "=" * 15 + f"%0{len(repr(sys.maxsize - 1))}d" + "=="
_KEPT: list[str] = []       # this process's boundary for each place, innermost first
