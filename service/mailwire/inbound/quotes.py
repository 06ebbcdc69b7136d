"""Find what the player wrote in a reply: drop quotes, attributions, signatures.

Why our own module and not ``mail-parser-reply`` (``mailparser_reply`` 1.36): run on the
decoded bodies of the 25 human replies in ``tests/mail/fixtures``, its best output (the first
reply's ``body``) matched the hand-checked expected commands for 14; this module matches all 25. It splits a body
at reply headers and keeps the *first* fragment, so bottom-posted replies (mutt, Thunderbird,
Alpine: quote first, commands below) come back as the quote itself; it misses Gmail's wrapped
"… a / écrit :" attribution and flowed "Original Message" lines, has no idea of our marker,
keeps several device taglines, and its signature rule treats any line starting with "-" as a
signature. Here one line is one move, so losing or inventing a line is worse than useless.
This module is a small line-based pass with one rule for both posting styles (see
``extract_command_text``).

Text from HTML bodies arrives with ``<blockquote>`` already rendered as ``> `` lines
(``html.py``), so the same rules cover both.
"""

from __future__ import annotations

import re

from .. import REPLY_MARKER

# Found anywhere in a line, whatever the dashes and spacing around the words: clients turn
# "--" into en/em dashes, HTML rendering eats or doubles spaces, and some (Yahoo on Android)
# glue the attribution and the first quoted line together.
_MARKER = re.compile(r"\s+".join(REPLY_MARKER.strip("- ").split()), re.IGNORECASE)

# "On <date>, <name> wrote:" and its translations. The verb must end the (joined) line; a
# reply header can carry the name after the verb in German, Dutch and Scandinavian clients.
_WROTE = re.compile(
    r"(?:\bwrote|\ba\s+écrit|\bescribió|\bha\s+scritto|\bescreveu|\bnapisał(?:a)?"
    r"|\bschrieb(?:\s.{0,150})?|\bschreef(?:\s.{0,150})?|\bskrev(?:\s.{0,150})?)\s*:$",
    re.IGNORECASE,
)
# Words that open a (possibly wrapped) attribution: On / Am / Le / El / Op / Il / Em / Den / W.
_OPENER = re.compile(r"^(?:on|am|le|el|op|il|em|den|dnia|w)\s", re.IGNORECASE)

# Separator lines that introduce someone else's message. Text may follow the dashes on the same
# line: Outlook Express writes "----- Original Message ----- " in format=flowed, which joins it
# with the "From:" line below.
_SEPARATOR = re.compile(
    r"^(?:_{10,}|-{2,}\s*(?:original message|ursprüngliche nachricht|message d'origine"
    r"|mensaje original|oorspronkelijk bericht|messaggio originale|mensagem original"
    r"|forwarded message|weitergeleitete nachricht|message transféré)\s*-{2,}.*"
    r"|begin forwarded message:|anfang der weitergeleiteten nachricht:)$",
    re.IGNORECASE,
)

# Outlook's header block: a "From:" line followed by Sent/Date, To and Subject lines, in the
# client's language. Outlook's French puts a space before the colon; rich text turned plain may
# wrap the names in asterisks.
_HDR = r"^\*?\s*(?:{})\s?:\*?(?:\s|$)"
_HDR_FROM = re.compile(_HDR.format("from|von|de|van|da|fra|från|od"), re.IGNORECASE)
_HDR_OTHER = re.compile(
    _HDR.format(
        "sent|date|to|cc|subject|gesendet|datum|an|betreff|envoyé|à|objet|enviado|fecha|para"
        "|asunto|verzonden|aan|onderwerp|inviato|data|oggetto|a|assunto|skickat|till|ämne"
    ),
    re.IGNORECASE,
)

# Device and webmail taglines; never a move, so the line is dropped wherever it appears.
_TAGLINE = re.compile(
    r"^(?:sent from (?:my \S.{0,40}|mail for windows.{0,20}|yahoo mail.{0,40}|outlook.{0,40}"
    r"|samsung.{0,40}|proton.{0,30})"
    r"|(?:get|obtenir|holen sie sich) outlook (?:for|pour|für) (?:ios|android|mac|windows).{0,60}"
    r"|von meinem \S.{0,30} gesendet|gesendet von .{1,30}"
    r"|envoyé de mon \S.{0,30}|enviado desde mi \S.{0,30}|verzonden vanaf mijn \S.{0,30}"
    r"|inviato da .{1,30})$",
    re.IGNORECASE,
)

# Closing words that start the sign-off block at the end of a reply ("Thanks!" / "Hank").
_CLOSING = re.compile(
    r"^(?:thanks|thank you|thx|cheers|regards|best|kind regards|best wishes|bye|ciao|greetings"
    r"|love|yours|danke|gruß|grüße|viele grüße|lg|vg|liebe grüße|merci|cordialement|bises"
    r"|amitiés|à bientôt|saludos|gracias|groeten|groetjes|bedankt|grazie|saluti)\b.{0,30}$",
    re.IGNORECASE,
)
_MAX_SIGNOFF_LINES = 3  # closing line plus a name or two: longer blocks are not a sign-off

# Invisible characters that clients sprinkle into text (zero-width spaces from Outlook,
# byte order marks, narrow no-break spaces from French typography).
_INVISIBLE = str.maketrans({"\u200b": None, "\ufeff": None, "\u00a0": " ", "\u202f": " "})

_MAX_ATTRIBUTION_LINES = 3  # Gmail wraps a long "On … wrote:" over two, rarely three, lines


def _is_quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def _attribution_end(lines: list[str], i: int) -> int | None:
    """If an attribution or separator starts at line ``i``, return the index after it."""
    line = lines[i].strip()
    if not line or _is_quoted(line):
        return None
    if _SEPARATOR.match(line):
        return i + 1
    if _HDR_FROM.match(line) and _is_header_block(lines, i):
        return i + 1
    joined = line
    for span in range(1, _MAX_ATTRIBUTION_LINES + 1):
        if len(joined) > 400:
            break
        if _WROTE.search(joined) and (span == 1 or _OPENER.match(line)):
            return i + span
        if i + span >= len(lines):
            break
        nxt = lines[i + span].strip()
        if not nxt or _is_quoted(nxt):
            break
        joined = f"{joined} {nxt}"
    return None


def _is_header_block(lines: list[str], i: int) -> bool:
    """A From: line followed within a few lines by at least two other header lines."""
    others = 0
    for nxt in lines[i + 1 : i + 7]:
        if _HDR_OTHER.match(nxt.strip()):
            others += 1
    return others >= 2


def _next_content(lines: list[str], start: int) -> int | None:
    for j in range(start, len(lines)):
        if lines[j].strip():
            return j
    return None


def extract_command_text(body: str) -> str:
    """Return only the lines the player wrote in ``body`` (a decoded, plain-text reply),
    without a closing at its end (``extract_reply`` keeps that apart instead)."""
    return extract_reply(body)[0]


def extract_reply(body: str) -> tuple[str, str]:
    """The lines the player wrote in ``body`` (a decoded, plain-text reply), and apart from
    them the short closing that ends them ("Thanks!" + name), if any.

    The closing is kept apart, not thrown away: "Thanks for waiting!" on the line above a
    move looks like a closing to a reader without the game's grammar. The command runner,
    which has it, takes from the closing block the lines that are commands and drops the rest.

    The rules, in order, line by line:

    1. The first *unquoted* ``REPLY_MARKER`` line ends the reply: everything below is our own
       email pasted back unprefixed (Outlook and friends). A *quoted* marker is just part of a
       quote: it is dropped with the quote, and the player may still write below it.
    2. Quoted lines (``>``) are dropped wherever they are, so interleaved and bottom-posted
       replies keep the player's lines.
    3. An attribution ("On … wrote:", localized, wrapped over up to 3 lines), a separator
       (``-----Original Message-----``, underscores, forwarded-message lines) or an Outlook
       header block (From:/Sent:/To:/Subject:, localized) is dropped. If the next non-blank line
       after it is quoted, it only introduced a quote and reading goes on; otherwise the quoted
       message follows unprefixed, and everything from it down goes.
    4. A signature separator (``-- `` or ``--``) ends the reply; device taglines ("Sent from
       my iPhone", "Von meinem iPhone gesendet", ...) are dropped wherever they are; a short
       closing among the last three lines ("Thanks!" + name) is set apart with what follows it.
    """
    lines = body.replace("\r\n", "\n").replace("\r", "\n").translate(_INVISIBLE).split("\n")
    kept: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if _MARKER.search(stripped):
            if not _is_quoted(line):
                break
            i += 1
            continue
        if _is_quoted(line):
            i += 1
            continue
        if stripped in ("--", "-- "):
            break
        end = _attribution_end(lines, i)
        if end is not None:
            nxt = _next_content(lines, end)
            if nxt is None or not _is_quoted(lines[nxt]):
                break
            i = end
            continue
        if not _TAGLINE.match(stripped):
            kept.append(line.rstrip())
        i += 1
    body_lines, closing = _split_signoff(kept)
    return "\n".join(body_lines).strip("\n"), "\n".join(closing).strip("\n")


def _split_signoff(lines: list[str]) -> tuple[list[str], list[str]]:
    """Split off a short closing at the very end ("Cheers," + name).

    Only the last few non-blank lines are looked at, and only a line that starts with a closing
    word and is short, with short lines after it. What follows such a line may still be a
    move ("Thanks for waiting!" then "harvest moons"): the caller decides, with the game.
    """
    content = [i for i, line in enumerate(lines) if line.strip()]
    tail = content[-_MAX_SIGNOFF_LINES:]
    for n, i in enumerate(tail):
        after = tail[n + 1 :]
        if _CLOSING.match(lines[i].strip()) and all(len(lines[j].strip()) <= 40 for j in after):
            return lines[:i], lines[i:]
    return lines, []


def command_lines(command_text: str) -> list[str]:
    """Non-empty stripped lines, without ``#`` comment lines: one candidate move per line."""
    out = []
    for line in command_text.split("\n"):
        line = line.strip()
        if line and not line.startswith("#"):
            out.append(line)
    return out
