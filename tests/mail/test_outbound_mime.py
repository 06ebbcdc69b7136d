"""What composing an email saves (parsed headers kept for the next email, boundaries chosen
without a regular expression per boundary) must never change a byte of what is sent."""
from __future__ import annotations

import random
import sys
from email import message_from_bytes, policy
from email.headerregistry import Address
from email.message import EmailMessage

from service.mail.outbound.compose import _BOUNDARY, POLICY, bound
from service.mail.outbound.headers import CachedHeaderRegistry

STOCK = policy.SMTP.clone(max_line_length=998)


def _email(pol, k: int, bind: bool = False) -> bytes:
    msg = EmailMessage(policy=pol)
    msg["Subject"] = f"Trees #{k}: your move, Zoë — {'long words ' * (k % 15)}"
    msg["From"] = Address("Turnpost Ünï", addr_spec="play@turnpost.test")
    msg["To"] = "Zoë <zoe@example.org>" if k % 2 else "ben@example.org"
    msg["Reply-To"] = Address(f"Trees #{k}", addr_spec=f"play+{k:08d}@turnpost.test")
    msg["Message-ID"] = f"<tp.{k}@turnpost.test>"
    msg["List-Unsubscribe"] = f"<https://turnpost.test/u/{'x' * 300}{k}>"
    msg.set_content(f"Your move, {k}.\n" + "ünï " * 40 * (k % 3))
    msg.add_alternative(f"<p>Your move, {k}.</p>" + "<b>a long line</b>" * 90, subtype="html")
    msg.get_body(("html",)).add_related(bytes(range(256)) * 3, "image", "png",
                                        cid=f"<table.{k}@turnpost.test>", disposition="inline",
                                        filename="table.png")
    return (bound(msg) if bind else msg).as_bytes()


def test_emails_built_with_the_cache_are_the_bytes_the_stock_factory_gives():
    for k in range(40):
        random.seed(k)              # the MIME boundaries
        stock = _email(STOCK, k)
        random.seed(k)
        assert _email(POLICY, k) == stock, k
        random.seed(k)
        assert _email(POLICY, k, bind=True) == stock, k


def test_a_boundary_found_in_a_part_is_not_used():
    random.seed(7)
    taken = _BOUNDARY % random.randrange(sys.maxsize)
    msg = EmailMessage(policy=POLICY)
    msg.set_content(f"a player wrote\n--{taken}\nin a chat message")
    msg.add_alternative("<p>hello</p>", subtype="html")
    random.seed(7)
    bound(msg)
    assert msg.get_boundary() not in (None, taken)
    assert msg.get_boundary().startswith("=" * 15)
    parsed = message_from_bytes(msg.as_bytes(), policy=policy.default)
    assert [p.get_content_type() for p in parsed.walk()] == [
        "multipart/alternative", "text/plain", "text/html"]
    assert taken in parsed.get_body(("plain",)).get_content()


def test_a_value_seen_again_is_parsed_once_and_each_header_class_made_once():
    registry = CachedHeaderRegistry()
    first = registry("Content-Type", 'text/plain; charset="utf-8"')
    assert registry("Content-Type", 'text/plain; charset="utf-8"') is first
    assert first.params["charset"] == "utf-8"
    assert registry["to"] is registry["To"]
    other = registry("Content-Type", "text/html")
    assert other is not first and other.content_type == "text/html"
    # a header's name keeps the case it was set with
    assert registry("content-type", 'text/plain; charset="utf-8"').name == "content-type"


def test_the_cache_is_bounded():
    registry = CachedHeaderRegistry(size=10)
    for k in range(35):
        registry("Subject", f"subject {k}")
    assert len(registry._parsed) <= 10
    assert str(registry("Subject", "subject 34")) == "subject 34"


def test_an_address_object_is_parsed_as_given():
    registry = CachedHeaderRegistry()
    header = registry("From", Address("Anna", addr_spec="anna@example.org"))
    assert header.addresses[0].display_name == "Anna"
