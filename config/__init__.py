"""Every knob in one place: defaults for the embedded laptop setup, overridden by TURNPOST_*
environment variables (production sets DATABASE_URL, BROKER_URL, SMTP_*, SECRET_KEY...).

Each setting is one field of `Settings`: its type (the annotation), its default (as it would be
written in the environment) and a sentence for docs/operating.md, whose table `make settings-doc`
writes from here (tests/test_settings.py fails when they differ). A value that does not parse
stops the start with one line naming the variable, the value and what is allowed:

    TURNPOST_SMTP_PORT must be a port number, not 'abc'

Adding a setting: one line, `NAME: type = setting("default", "What it does.", check=...)`.
"""
from __future__ import annotations

import ipaddress
import os
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEV_SECRET = "dev-only-secret-change-me"
_UNSET: Any = object()
# the base URL the development server was started with, for every other process (make run)
BASE_URL_FILE = "{root}/var/base-url"


class SettingError(ValueError):
    """A setting's value cannot be used; the message is one line for the operator."""


def _env(name: str, default: str) -> str:
    return os.environ.get(f"TURNPOST_{name}", default)


def setting(default: str, doc: str, *, check: Check | None = None,
            env: str | None = None, recorded: str | None = None) -> Any:
    """A documented setting: `default` as written in the environment, `doc` one sentence,
    `check` what the parsed value must be, `env` a variable name other than TURNPOST_<NAME>
    (SENTRY_DSN), `recorded` a file whose content, when there is one, replaces the default
    (what `make run` wrote for the other processes of the same laptop)."""
    return field(default=_UNSET, metadata={"doc": doc, "default": default, "check": check,
                                           "env": env, "recorded": recorded})


# -- checks: what is allowed, in words for the error line, and the test -------------------

@dataclass(frozen=True)
class Check:
    allowed: str                        # "a port number": the error line says "must be ..."
    ok: Callable[[Any], bool]


port = Check("a port number", lambda v: 1 <= v <= 65535)
port_or_zero = Check("a port number (or 0 for the usual one)", lambda v: 0 <= v <= 65535)
positive = Check("a number above 0", lambda v: v > 0)
zero_or_more = Check("a number, 0 or more", lambda v: v >= 0)


def one_of(*allowed: str) -> Check:
    return Check("one of " + ", ".join(allowed), lambda v: v in allowed)


def _networks(value: str) -> bool:
    try:
        for net in value.split(","):
            if net.strip():
                ipaddress.ip_network(net.strip(), strict=False)
    except ValueError:
        return False
    return True


networks = Check("networks like 127.0.0.1/32,::1/128", _networks)


def url(*schemes: str) -> Check:
    return Check("a URL starting with " + " or ".join(f"{s}:" for s in schemes),
                 lambda v: not v or any(v.startswith(s + ":") for s in schemes))


url_checked = url("http", "https")


# -- parsing by type --------------------------------------------------------------------------

_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def _parse(kind: str, raw: str) -> tuple[Any, str | None]:
    """(value, None) or (None, what is allowed)."""
    text = raw.strip()
    try:
        if kind == "int":
            return int(text), None
        if kind == "float":
            return float(text), None
    except ValueError:
        return None, "a whole number" if kind == "int" else "a number"
    if kind == "bool":
        if text.lower() in _TRUE + _FALSE:
            return text.lower() in _TRUE, None
        return None, "true or false"
    if kind.startswith("tuple[str"):
        return key_list(raw), None
    if kind.startswith("tuple[int"):
        try:
            return tuple(int(s) for s in text.split(",") if s.strip()), None
        except ValueError:
            return None, "whole numbers separated by commas"
    return raw, None


def _recorded(f) -> str:
    path = f.metadata.get("recorded")
    if not path:
        return ""
    try:
        return Path(path.replace("{root}", str(ROOT))).read_text().strip()
    except OSError:
        return ""


def record_base_url(url: str) -> Path:
    """Keep the base URL a starting development server uses, for the processes started
    beside it (`flask sweep`, the receiver, workers) that are not told one."""
    if not url.strip() or not url_checked.ok(url.strip()):
        raise SettingError(f"TURNPOST_BASE_URL must be {url_checked.allowed}, not {url!r}")
    path = Path(BASE_URL_FILE.replace("{root}", str(ROOT)))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(url.strip() + "\n")
    return path


def variable(f) -> str:
    return f.metadata.get("env") or f"TURNPOST_{f.name}"


def key_list(value) -> tuple[str, ...]:
    """"old1,old2" (the environment) or a list (an override) -> a tuple of keys."""
    if isinstance(value, str):
        value = value.split(",")
    return tuple(k.strip() for k in value or () if k and k.strip())


@dataclass
class Settings:
    # -- storage and background work -----------------------------------------------------
    DATABASE_URL: str = setting(
        "sqlite:///{root}/var/turnpost.db", "Where games are stored: an SQLite file by "
        "default, `postgresql+psycopg://user@host/turnpost` in production.",
        check=url("sqlite", "postgresql", "postgresql+psycopg"))
    BROKER_URL: str = setting(
        "", "Celery broker for background work, e.g. `redis://127.0.0.1:6379/0`; empty: "
        "tasks run in the web process.", check=url("redis", "rediss", "amqp", "memory"))
    SECRET_KEY: str = setting(
        DEV_SECRET, "Signs every link and reply address: set a long random one in production "
        "(with a broker or SMTP configured, the service refuses to start without one).")
    SECRET_KEY_FALLBACKS: tuple[str, ...] = setting(
        "", "Older secrets, comma-separated, for key rotation: links and reply addresses they "
        "signed keep working; new ones are signed with TURNPOST_SECRET_KEY.")
    BASE_URL: str = setting(
        "http://127.0.0.1:5000", "The service's public address, used in every link. Unset, "
        "every process takes the one `make run` last served (`var/base-url`, written from "
        "`PORT`), so a sweep or the receiver links to the port in use. Production (a broker or "
        "SMTP) refuses to start unless it is set.",
        check=url_checked, recorded=BASE_URL_FILE)
    LINK_MAX_AGE_DAYS: int = setting(
        "90", "Days a signed link or reply address keeps working.", check=positive)
    BACKGROUND: str = setting(
        "thread", "Embedded default only: `thread` runs background work after the response in "
        "one thread of the web process, waiting while any request is in flight (at most 2 s) "
        "and, when idle, running the clocks and the outbox sweep as beat would; `inline` runs "
        "it inside the request (the tests, which read mail right after a request).",
        check=one_of("thread", "inline"))
    SWEEP_SECONDS: int = setting(
        "60", "Seconds between sweeps (beat): sends what is due, processes stored mail.",
        check=positive)
    SWEEP_SHARDS: int = setting(
        "8", "With a broker, beat's clocks pass (reminders, timeouts) is split into this many "
        "jobs by game id (`sweep_shard`), one for each shard with something due, which any "
        "worker process takes: set it to the worker processes or more; 1 is one job. The "
        "embedded default runs the pass whole.", check=positive)
    BOT_DELAY_SECONDS: float = setting(
        "3", "With a broker, a bot moves this many seconds after its turn comes (in process: "
        "at once).", check=Check("a number of seconds, 0 or more", lambda v: v >= 0))
    VACATION_DAYS: int = setting(
        "30", "Vacation days each player may take a year (their clocks stop in every game).",
        check=positive)
    AUTO_VACATION: bool = setting(
        "true", "A clock that runs out takes one of the player's vacation days instead of the "
        "timeout, while they have any left and their `auto_vacation` preference is on; "
        "`false` turns the rule off for everyone.")
    AUTO_VACATION_PER_GAME: int = setting(
        "3", "Vacation days the clock takes for one player in one game instead of timeouts "
        "(TURNPOST_AUTO_VACATION): past them, a clock of that game that runs out is a timeout, "
        "so a player who vanished holds a game this many days at most. Days asked for with "
        "`vacation N` do not count.", check=positive)
    NEW_PLAYER_GAME_CAP: int = setting(
        "20", "Games a player may be in at once, plus one for each game they have finished "
        "(so it holds back new players only); past it, making, joining or accepting another "
        "is refused with when it lifts. 0: no cap.", check=zero_or_more)
    # -- mail out ------------------------------------------------------------------------
    MAIL_TRANSPORT: str = setting(
        "maildir", "`maildir` writes mail to files (shown at /dev/outbox); `smtp` sends it "
        "through the relay below.", check=one_of("maildir", "smtp"))
    MAILDIR: str = setting(
        "{root}/var/outbox", "The Maildir the `maildir` transport writes to.")
    MAIL_DOMAIN: str = setting(
        "turnpost.localhost", "Mail domain of reply addresses (`play+<token>@domain`) and "
        "Message-IDs.")
    MAIL_FROM_NAME: str = setting("Turnpost", "Display name of the service's emails.")
    SMTP_HOST: str = setting("localhost", "The SMTP relay's host.")
    SMTP_PORT: int = setting("25", "The SMTP relay's port.", check=port)
    SMTP_SECURITY: str = setting(
        "none", "How to talk to the relay.", check=one_of("none", "starttls", "ssl"))
    SMTP_USER: str = setting("", "User name at the relay; empty: no login.")
    SMTP_PASSWORD: str = setting("", "Password at the relay.")
    SMTP_TIMEOUT: float = setting("30", "Seconds to wait for the relay.", check=positive)
    SMTP_KEEPALIVE: float = setting(
        "30", "Seconds a worker keeps its connection to the relay open after its last email, "
        "for the next batch (closed sooner on an error and when the worker stops).",
        check=positive)
    OUTBOX_RETENTION_DAYS: int = setting(
        "90", "Days a sent email's outbox row is kept (bounces, auto-replies and replies "
        "without their address find their game by it), then deleted by the daily `prune` "
        "(beat; `flask prune`); never fewer than TURNPOST_LINK_MAX_AGE_DAYS; 0: kept for ever.",
        check=zero_or_more)
    RECEIPT_RETENTION_DAYS: int = setting(
        "90", "Days a move's idempotency receipt is kept (a second press of its link, a "
        "redelivered reply or an API retry is answered \"already done\" by it), then deleted "
        "by the daily `prune`; never fewer than TURNPOST_LINK_MAX_AGE_DAYS; 0: kept for ever.",
        check=zero_or_more)
    RETRY_SCHEDULE: tuple[int, ...] = setting(
        "60,300,1800,7200,21600", "Seconds before each retry of a failed send; after the "
        "last the email is parked for an operator (`flask outbox`).")
    WEBHOOK_ALLOW_PRIVATE: bool = setting(
        "false", "Players' webhooks may post to loopback, private and link-local addresses "
        "(for development and tests): off, such an address is refused when a delivery is "
        "sent, so a webhook cannot make the service call its own network.")
    DEV_OUTBOX: str = setting(
        "auto", "/dev/outbox shows every player's mail: `1` serves it, `0` never, `auto` only "
        "on the embedded default (SQLite, no broker, Maildir).",
        check=one_of("auto", "1", "0", "true", "false"))
    # -- mail in -------------------------------------------------------------------------
    INBOUND_SMTP_HOST: str = setting(
        "127.0.0.1", "Address the built-in SMTP receiver for replies listens on.")
    INBOUND_SMTP_PORT: int = setting(
        "2525", "Port of the built-in SMTP receiver.", check=port)
    INBOUND_SMTP_IN_WEB: bool = setting(
        "false", "The web process runs the SMTP receiver too (from its first request), so one "
        "process is the whole service on a laptop; `make run` turns it on. Production runs "
        "the receiver as a process of its own (Procfile `inbound`).")
    INBOUND_MAX_BYTES: int = setting(
        "10485760", "Largest inbound email accepted, in bytes.", check=positive)
    INBOUND_UNKNOWN_MAX_BYTES: int = setting(
        "262144", "Mail for no reply address of ours is kept 7 days for diagnosis, cut to "
        "this many bytes.", check=positive)
    INBOUND_RETENTION_DAYS: int = setting(
        "90", "Days a processed reply is kept (its raw bytes; a redelivery is told by its "
        "Message-ID; a seat is shown mail others sent from its address), then deleted by the "
        "daily `prune`; failed ones stay for `flask inbound retry`; never fewer than "
        "TURNPOST_LINK_MAX_AGE_DAYS; 0: kept for ever.", check=zero_or_more)
    INBOUND_SECRET: str = setting(
        "", "Bearer secret of `POST /inbound/raw` and `?key=` of `/inbound/sendgrid`; empty: "
        "those webhooks are off.")
    MAILGUN_SIGNING_KEY: str = setting(
        "", "Mailgun's webhook signing key; empty: `/inbound/mailgun` is off.")
    IMAP_HOST: str = setting("", "IMAP server to poll for replies; empty: no polling.")
    IMAP_PORT: int = setting("0", "IMAP port; 0: 993 with SSL, else 143.", check=port_or_zero)
    IMAP_USER: str = setting("", "IMAP user.")
    IMAP_PASSWORD: str = setting("", "IMAP password.")
    IMAP_FOLDER: str = setting("INBOX", "The folder polled.")
    IMAP_SSL: bool = setting("true", "Talk to the IMAP server over TLS.")
    IMAP_POLL_SECONDS: int = setting("60", "Seconds between IMAP polls.", check=positive)
    # -- the API and operations ------------------------------------------------------------
    WEB_BIND: str = setting(
        "127.0.0.1:8000", "Where gunicorn (the Procfile's web) listens: put a TLS proxy in "
        "front.")
    WEB_WORKERS: int = setting("4", "gunicorn worker processes.", check=positive)
    API_MAX_BYTES: int = setting(
        "65536", "Largest JSON body the API accepts, in bytes (413 beyond).", check=positive)
    METRICS_ALLOW: str = setting(
        "127.0.0.1/32,::1/128", "Networks (comma-separated CIDR) that may read /metrics.",
        check=networks)
    LOG_FORMAT: str = setting(
        "text", "`json`: one JSON object per log line, with game id, seat and request id.",
        check=one_of("text", "json"))
    SENTRY_DSN: str = setting(
        "", "Report errors to Sentry (install the `sentry` extra); empty: off.",
        env="SENTRY_DSN")
    # -- abuse limits (Flask-Limiter notation), per client address and per account ----------
    LIMIT_SIGN_IN: str = setting("10/hour", "Sign-in emails per client address.")
    LIMIT_SIGN_IN_ADDRESS: str = setting("5/hour", "Sign-in emails per email address.")
    LIMIT_GAMES: str = setting("20/day", "Games made, per account and per client.")
    LIMIT_INVITES: str = setting("60/day", "Invitations sent, per account and per client.")
    LIMIT_API: str = setting("600/hour", "JSON API requests, per token (or per client).")
    LIMIT_WEBHOOKS: str = setting(
        "20/hour", "Webhooks made and tested (/me's Test button), per account and per client: "
        "each makes the service post to an address a player chose.")
    RATE_LIMITS: bool = setting(
        "true", "Apply the limits above (counted in Redis with a broker, in memory without).")

    def __post_init__(self) -> None:
        for f in fields(self):
            if getattr(self, f.name) is _UNSET:
                raw = os.environ.get(variable(f), _recorded(f) or f.metadata["default"])
                setattr(self, f.name, self.parse(f, raw.replace("{root}", str(ROOT))))

    @staticmethod
    def parse(f, raw: str) -> Any:
        value, allowed = _parse(str(f.type), raw)
        check = f.metadata.get("check")
        if check is not None and (allowed is not None or not check.ok(value)):
            allowed = check.allowed
        if allowed is not None:
            raise SettingError(f"{variable(f)} must be {allowed}, not {raw!r}")
        return value

    def as_flask(self) -> dict:
        return {f"TURNPOST_{f.name}": getattr(self, f.name) for f in fields(self)} | {
            "SECRET_KEY": self.SECRET_KEY}


def load() -> Settings:
    """The settings of a starting process: a bad value stops it with one line."""
    try:
        return Settings()
    except SettingError as exc:
        raise SystemExit(f"turnpost: {exc}") from None


def markdown_table() -> str:
    """The settings table of docs/operating.md (`make settings-doc` writes it there)."""
    lines = ["| variable | default | meaning |", "|---|---|---|"]
    for f in fields(Settings):
        meta = f.metadata
        default = meta.get("default", "")
        default = default.replace("{root}/", "") if default else ""
        shown = f"`{default}`" if default else "empty"
        lines.append(f"| `{variable(f)}` | {shown} | {meta.get('doc', '')} |")
    return "\n".join(lines) + "\n"
