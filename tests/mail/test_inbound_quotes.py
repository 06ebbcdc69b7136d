"""What the player wrote: quotes, attributions, signatures, markers, both posting styles."""

import pytest

from service.mailwire import REPLY_MARKER
from service.mailwire.inbound.quotes import command_lines, extract_command_text

QUOTE = "> Your turn in game 42\n> Your hand: the Sailor\n>\n>   sell sailor"


def lines(text):
    return command_lines(extract_command_text(text))


def test_top_post_with_attribution():
    assert lines(f"sell sailor\n\nOn Sun, Nov 22, 2026 at 3:14 PM Turnpost wrote:\n{QUOTE}") == [
        "sell sailor"
    ]


def test_gmail_attribution_wrapped_over_two_lines():
    body = (
        "sell sailor\n\nOn Sun, Nov 22, 2026 at 3:14 PM Turnpost <\n"
        "play+abcd2345efgh6789@turnpost.example> wrote:\n\n" + QUOTE
    )
    assert lines(body) == ["sell sailor"]


def test_bottom_post_keeps_text_below_the_quote():
    body = f"On Sun, Nov 22, 2026 at 15:14:07 +0100, Turnpost wrote:\n{QUOTE}\n\nsell wyrm\n"
    assert lines(body) == ["sell wyrm"]


def test_interleaved_replies_keep_every_answer():
    body = "On Sun, Turnpost wrote:\n> first\n\nsell sailor\n\n> second\nsell wyrm\n> third"
    assert lines(body) == ["sell sailor", "sell wyrm"]


def test_attribution_followed_by_unprefixed_original_cuts_everything():
    body = "sell sailor\n\nOn Sunday, Turnpost <x@y> wrote:\n\nYour hand: the Sailor\n  sell sailor"
    assert lines(body) == ["sell sailor"]


@pytest.mark.parametrize(
    "attribution",
    [
        "Am 22.11.2026 um 15:14 schrieb Turnpost:",
        "Am 22.11.2026 um 15:14 schrieb Turnpost <play+abc@turnpost.example>:",
        "Le dim. 22 nov. 2026 à 15:14, Turnpost <play+abc@turnpost.example> a écrit :",
        "Le 22/11/2026 à 15:14, Turnpost a\u00a0écrit\u202f:",
        "El dom, 22 nov 2026 a las 15:14, Turnpost (<play+abc@turnpost.example>) escribió:",
        "Op zo 22 nov. 2026 om 15:14 schreef Turnpost <play+abc@turnpost.example>:",
        "On Nov 22, 2026, at 15:14, Turnpost <play+abc@turnpost.example> wrote:",
        "Il giorno dom 22 nov 2026 alle ore 15:14 Turnpost ha scritto:",
        "Turnpost <play+abc@turnpost.example> wrote:",
    ],
)
def test_localized_attributions(attribution):
    assert lines(f"sell sailor\n\n{attribution}\n\n{QUOTE}\n") == ["sell sailor"]
    # ... and the same attribution above a bottom-posted answer
    assert lines(f"{attribution}\n{QUOTE}\n\nsell wyrm") == ["sell wyrm"]


@pytest.mark.parametrize(
    "header",
    [
        "From: Turnpost <x@y>\nSent: Sunday, November 22, 2026 3:14 PM\nTo: Alice\nSubject: Turn",
        "*From:* Turnpost <x@y>\n*Sent:* Sunday\n*To:* Alice\n*Subject:* Turn",
        "Von: Turnpost <x@y>\nGesendet: Sonntag, 22. November 2026 15:14\nAn: Alice\nBetreff: Zug",
        "De : Turnpost <x@y>\nEnvoyé : dimanche 22 novembre 2026 15:14\nÀ : Alice\nObjet : Tour",
        "De: Turnpost <x@y>\nEnviado: domingo\nPara: Alice\nAsunto: Turno",
        "Van: Turnpost <x@y>\nVerzonden: zondag\nAan: Alice\nOnderwerp: Beurt",
        "-----Original Message-----\nFrom: Turnpost\nSent: Sunday",
        "-----Ursprüngliche Nachricht-----\nVon: Turnpost",
        "________________________________\nFrom: Turnpost <x@y>\nSent: Sunday",
        "---------- Forwarded message ---------\nFrom: Turnpost",
    ],
)
def test_outlook_header_blocks_cut_the_unprefixed_original(header):
    body = f"sell sailor\n\n{header}\n\nYour turn.\nReply with:\n  sell sailor\n  pass\n"
    assert lines(body) == ["sell sailor"]


def test_a_from_line_alone_is_not_a_header_block():
    assert lines("From: the Mill, take 2\nsell sailor") == ["From: the Mill, take 2", "sell sailor"]


def test_unquoted_marker_cuts_everything_below():
    body = f"sell sailor\n\n{REPLY_MARKER}\nYour turn\n  play the Sea under the Mill\n"
    assert lines(body) == ["sell sailor"]


@pytest.mark.parametrize(
    "marker",
    [
        REPLY_MARKER,
        "\u2013 reply above this line \u2013",  # smart dashes
        "-- Reply  Above This Line --",
        "On Sun, Turnpost<x@y> wrote:   -- reply above this line --",  # glued by the client
    ],
)
def test_marker_variants_in_a_top_post(marker):
    assert lines(f"sell sailor\n{marker}\nYour turn\nsell wyrm") == ["sell sailor"]


def test_quoted_marker_still_allows_a_bottom_post():
    body = f"On Sun, Turnpost wrote:\n> {REPLY_MARKER}\n> Your turn\n\nsell wyrm\n"
    assert lines(body) == ["sell wyrm"]


def test_marker_after_attribution_removes_the_attribution_too():
    body = f"sell sailor\n\nOn Sun, Nov 22, 2026 Turnpost wrote:\n{REPLY_MARKER}\nYour turn"
    assert extract_command_text(body) == "sell sailor"


@pytest.mark.parametrize("sep", ["-- ", "--"])
def test_signature_separator_ends_the_reply(sep):
    assert lines(f"sell sailor\n{sep}\nAlice\nplay nothing") == ["sell sailor"]


@pytest.mark.parametrize(
    "tagline",
    [
        "Sent from my iPhone",
        "Sent from my iPad",
        "Sent from my Galaxy",
        "Sent from Mail for Windows",
        "Sent from Yahoo Mail on Android",
        "Get Outlook for iOS",
        "Get Outlook for Android<https://aka.ms/ghei36>",
        "Von meinem iPhone gesendet",
        "Envoyé de mon iPhone",
        "Enviado desde mi iPhone",
    ],
)
def test_device_taglines_are_dropped(tagline):
    assert lines(f"sell sailor\n\n{tagline}\n") == ["sell sailor"]
    assert lines(f"sell sailor\n{tagline}\nsell wyrm") == ["sell sailor", "sell wyrm"]


def test_short_closing_at_the_end_is_dropped_but_not_moves():
    assert lines("sell sailor\nsell wyrm\n\nThanks!\nHank") == ["sell sailor", "sell wyrm"]
    assert lines("sell sailor\nCheers, Hank") == ["sell sailor"]
    assert lines("Viele Grüße\nsell sailor\nsell wyrm\nplay the Sea") == [
        "Viele Grüße",
        "sell sailor",
        "sell wyrm",
        "play the Sea",
    ]


def test_comments_and_blank_lines():
    text = extract_command_text("# plan\n\n  sell sailor  \n   # aside\n#x\n\nplay the Sea\n")
    assert command_lines(text) == ["sell sailor", "play the Sea"]
    assert "# plan" in text  # command_text keeps comments; command_lines skips them


def test_quoted_lines_with_leading_space_and_nesting():
    assert lines(" > quoted\n>> deeper\n> > also\nsell sailor") == ["sell sailor"]


def test_crlf_zero_width_and_nbsp_are_normalized():
    body = "\ufeffsell\u00a0sailor\r\n\u200b\r\nOn Sun, Turnpost wrote:\r\n> x\r\n"
    assert lines(body) == ["sell sailor"]


def test_empty_and_only_quote():
    assert lines("") == []
    assert lines("On Sun, Turnpost wrote:\n> sell sailor\n") == []
    assert lines("> sell sailor") == []
