"""Every knob in one place: defaults for the embedded laptop setup, overridden by TURNPOST_*
environment variables (production sets DATABASE_URL, BROKER_URL, SMTP_*, SECRET_KEY...)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEV_SECRET = "dev-only-secret-change-me"


def _env(name: str, default: str) -> str:
    return os.environ.get(f"TURNPOST_{name}", default)


@dataclass
class Settings:
    # storage: an SQLite file by default; postgresql+psycopg://... in production
    DATABASE_URL: str = field(default_factory=lambda: _env(
        "DATABASE_URL", f"sqlite:///{ROOT / 'var' / 'turnpost.db'}"))
    # background work: empty = run tasks in process (Celery eager); redis://... = real workers
    BROKER_URL: str = field(default_factory=lambda: _env("BROKER_URL", ""))
    SECRET_KEY: str = field(default_factory=lambda: _env("SECRET_KEY", DEV_SECRET))
    BASE_URL: str = field(default_factory=lambda: _env("BASE_URL", "http://127.0.0.1:5000"))
    # mail out: "maildir" writes files the dev outbox page shows; "smtp" talks to a relay
    MAIL_TRANSPORT: str = field(default_factory=lambda: _env("MAIL_TRANSPORT", "maildir"))
    MAILDIR: str = field(default_factory=lambda: _env("MAILDIR", str(ROOT / "var" / "outbox")))
    MAIL_DOMAIN: str = field(default_factory=lambda: _env("MAIL_DOMAIN", "turnpost.localhost"))
    MAIL_FROM_NAME: str = field(default_factory=lambda: _env("MAIL_FROM_NAME", "Turnpost"))
    SMTP_HOST: str = field(default_factory=lambda: _env("SMTP_HOST", "localhost"))
    SMTP_PORT: int = field(default_factory=lambda: int(_env("SMTP_PORT", "25")))
    SMTP_SECURITY: str = field(default_factory=lambda: _env("SMTP_SECURITY", "none"))  # none|starttls|ssl
    SMTP_USER: str = field(default_factory=lambda: _env("SMTP_USER", ""))
    SMTP_PASSWORD: str = field(default_factory=lambda: _env("SMTP_PASSWORD", ""))
    SMTP_TIMEOUT: float = field(default_factory=lambda: float(_env("SMTP_TIMEOUT", "30")))
    # a failed send is retried after each of these delays (seconds), then parked for an operator
    RETRY_SCHEDULE: tuple[int, ...] = field(default_factory=lambda: tuple(
        int(s) for s in _env("RETRY_SCHEDULE", "60,300,1800,7200,21600").split(",") if s))
    # embedded default only: "thread" runs background work after the response in one thread
    # of the web process (sweeping every SWEEP_SECONDS when idle); "inline" runs it where it
    # is asked for, inside the request (the tests, which read mail right after a request)
    BACKGROUND: str = field(default_factory=lambda: _env("BACKGROUND", "thread"))
    SWEEP_SECONDS: int = field(default_factory=lambda: int(_env("SWEEP_SECONDS", "60")))
    LINK_MAX_AGE_DAYS: int = field(default_factory=lambda: int(_env("LINK_MAX_AGE_DAYS", "90")))
    DEV_OUTBOX: bool = field(default_factory=lambda: _env("DEV_OUTBOX", "auto") in ("1", "true", "auto"))
    # mail in: the built-in SMTP receiver (Procfile "inbound"), provider webhooks, or IMAP polling
    INBOUND_SMTP_HOST: str = field(default_factory=lambda: _env("INBOUND_SMTP_HOST", "127.0.0.1"))
    INBOUND_SMTP_PORT: int = field(default_factory=lambda: int(_env("INBOUND_SMTP_PORT", "2525")))
    INBOUND_MAX_BYTES: int = field(default_factory=lambda: int(_env("INBOUND_MAX_BYTES",
                                                                    str(10 * 1024 * 1024))))
    # bearer secret of POST /inbound/raw and ?key= of /inbound/sendgrid; empty = webhooks off
    INBOUND_SECRET: str = field(default_factory=lambda: _env("INBOUND_SECRET", ""))
    MAILGUN_SIGNING_KEY: str = field(default_factory=lambda: _env("MAILGUN_SIGNING_KEY", ""))
    # IMAP polling runs (beat schedule) only when IMAP_HOST is set
    IMAP_HOST: str = field(default_factory=lambda: _env("IMAP_HOST", ""))
    IMAP_PORT: int = field(default_factory=lambda: int(_env("IMAP_PORT", "0")))  # 0: 993 or 143
    IMAP_USER: str = field(default_factory=lambda: _env("IMAP_USER", ""))
    IMAP_PASSWORD: str = field(default_factory=lambda: _env("IMAP_PASSWORD", ""))
    IMAP_FOLDER: str = field(default_factory=lambda: _env("IMAP_FOLDER", "INBOX"))
    IMAP_SSL: bool = field(default_factory=lambda: _env("IMAP_SSL", "true").lower() in ("1", "true", "yes"))
    IMAP_POLL_SECONDS: int = field(default_factory=lambda: int(_env("IMAP_POLL_SECONDS", "60")))

    def as_flask(self) -> dict:
        return {f"TURNPOST_{f.name}": getattr(self, f.name) for f in fields(self)} | {
            "SECRET_KEY": self.SECRET_KEY}
