"""What composing an email saves (plain header values kept as text, parsed headers kept for the
next email, boundaries chosen without a regular expression per boundary and kept from one
email to the next) must never change a byte of what is sent, boundaries aside."""
from __future__ import annotations

import random
from email import message_from_bytes, policy
from email.headerregistry import Address
from email.message import EmailMessage

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.mailwire.outbound import compose
from service.mailwire.outbound.compose import POLICY, bound
from service.mailwire.outbound.headers import CachedHeaderRegistry

STOCK = policy.SMTP.clone(max_line_length=998)


def _email(pol, k: int) -> EmailMessage:
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
    return msg


def _boundaries(msg: EmailMessage) -> list[str]:
    return [p.get_boundary() for p in msg.walk() if p.is_multipart()]


def _same_boundaries(msg: EmailMessage, like: EmailMessage) -> EmailMessage:
    for part, boundary in zip((p for p in msg.walk() if p.is_multipart()), _boundaries(like)):
        part.set_boundary(boundary)
    return msg


def test_emails_built_with_the_cache_are_the_bytes_the_stock_factory_gives():
    for k in range(40):
        random.seed(k)              # the MIME boundaries the package draws while flattening
        stock = _email(STOCK, k).as_bytes()
        random.seed(k)
        assert _email(POLICY, k).as_bytes() == stock, k
        ours = bound(_email(POLICY, k))
        assert ours.as_bytes() == _same_boundaries(_email(STOCK, k), ours).as_bytes(), k


_ASCII = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7e), max_size=120)
_ATOM = st.from_regex(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*",
                      fullmatch=True)


def _stock_and_ours(name: str, value) -> tuple[bytes | None, bytes]:
    try:
        stock = STOCK.fold_binary(name, STOCK.header_store_parse(name, value)[1])
    except Exception:   # a value the stock policy refuses: ours must refuse it too
        stock = None
    try:
        ours = POLICY.fold_binary(name, POLICY.header_store_parse(name, value)[1])
    except Exception:
        ours = None
    return stock, ours


@given(st.sampled_from(["Subject", "To", "Reply-To", "Message-ID", "Date", "List-Id",
                        "List-Unsubscribe", "In-Reply-To", "X-Turnpost-Game"]),
       st.one_of(_ASCII, st.text(max_size=40), st.builds("=?utf-8?q?{}?=".format, _ASCII),
                 st.builds("<{}@{}>".format, _ATOM, _ATOM)))
def test_a_header_value_is_written_as_the_stock_policy_writes_it(name, value):
    stock, ours = _stock_and_ours(name, value)
    assert ours == stock


@given(st.sampled_from(["From", "To", "Reply-To"]),
       _ASCII | st.text(st.characters(blacklist_characters="\r\n"), max_size=30), _ATOM)
def test_an_address_is_written_as_the_stock_policy_writes_it(name, display, local):
    stock, ours = _stock_and_ours(name, Address(display, local, "turnpost.test"))
    assert ours == stock


@given(st.datetimes(timezones=st.timezones()))
def test_a_date_is_written_as_the_stock_policy_writes_it(when):
    stock, ours = _stock_and_ours("Date", when)
    assert ours == stock


def test_a_header_kept_as_text_reads_back_parsed():
    msg = EmailMessage(policy=POLICY)
    msg["Reply-To"] = Address("Trees #7", addr_spec="play+7@turnpost.test")
    msg["Date"] = "Wed, 25 Nov 2026 10:00:00 +0000"
    assert msg["Reply-To"].addresses[0].addr_spec == "play+7@turnpost.test"
    assert msg["Date"].datetime.year == 2026
    with pytest.raises(ValueError):
        msg["Subject"] = "two\r\nBcc: lines"


def test_each_depth_keeps_its_boundary_from_one_email_to_the_next():
    first, second = bound(_email(POLICY, 1)), bound(_email(POLICY, 2))
    assert _boundaries(first) == _boundaries(second)
    outer, inner = _boundaries(first)
    assert outer != inner and outer.startswith("=" * 15)


def test_a_boundary_found_in_a_part_is_not_used():
    bound(_email(POLICY, 1))
    taken = compose._KEPT[0]        # the boundary the next text/html pair would get
    msg = EmailMessage(policy=POLICY)
    msg.set_content(f"a player wrote\n--{taken}\nin a chat message")
    msg.add_alternative("<p>hello</p>", subtype="html")
    bound(msg)
    assert msg.get_boundary() not in (None, taken)
    assert msg.get_boundary().startswith("=" * 15)
    parsed = message_from_bytes(msg.as_bytes(), policy=policy.default)
    assert [p.get_content_type() for p in parsed.walk()] == [
        "multipart/alternative", "text/plain", "text/html"]
    assert taken in parsed.get_body(("plain",)).get_content()
    # the next email, whose parts do not hold it, gets the kept one again
    assert bound(_email(POLICY, 3)).get_payload()[1].get_boundary() == taken


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


def test_a_kept_header_folds_as_the_stock_one_under_each_policy_it_meets():
    registry = CachedHeaderRegistry()
    value = "multipart/alternative; " + "; ".join(f'p{k}="{"v" * 30}"' for k in range(6))
    ours = registry("Content-Type", value)
    stock = policy.default.header_factory("Content-Type", value)
    policies = [POLICY, STOCK, policy.default, policy.SMTPUTF8.clone(max_line_length=60), POLICY]
    for pol in policies * 2:
        assert ours.fold(policy=pol) == stock.fold(policy=pol), pol
    # the text is remembered for the policy settings it was last folded under
    assert ours.fold(policy=POLICY) is ours.fold(policy=POLICY.clone())
    assert ours.fold(policy=policy.default) != ours.fold(policy=POLICY)


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
