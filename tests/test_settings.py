"""Settings in one place, checked (config/): every setting has a type, a default and a
sentence; docs/operating.md's table is the one `make settings-doc` writes; a bad value stops the start
with one line naming the variable, the value and what is allowed."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
from dataclasses import fields

import pytest

import config
from config import ROOT, SettingError, Settings
from config.__main__ import SETTINGS_DOC, doc_with_table
from config.__main__ import main as config_main


def test_every_setting_has_a_type_a_default_and_a_sentence():
    undocumented = [f.name for f in fields(Settings) if not f.metadata.get("doc")]
    # a setting added as `field(default_factory=...)` has none: write it with config.setting
    assert undocumented == []
    for f in fields(Settings):
        assert str(f.type) in ("str", "int", "float", "bool", "tuple[int, ...]",
                               "tuple[str, ...]"), f.name
        assert isinstance(f.metadata["default"], str)
        assert f.metadata["doc"].rstrip().endswith("."), f.name


def test_the_documented_table_is_the_generated_one():
    doc = SETTINGS_DOC.read_text()
    assert doc == doc_with_table(doc), "run `make settings-doc` and commit docs/operating.md"
    for f in fields(Settings):
        assert f"`{config.variable(f)}`" in doc


def test_the_defaults_parse_into_their_types(monkeypatch):
    for f in fields(Settings):
        monkeypatch.delenv(config.variable(f), raising=False)
    s = Settings()
    assert s.SMTP_PORT == 25 and s.RETRY_SCHEDULE == (60, 300, 1800, 7200, 21600)
    assert s.IMAP_SSL is True and s.SMTP_TIMEOUT == 30.0
    assert s.DATABASE_URL == f"sqlite:///{ROOT}/var/turnpost.db"


@pytest.mark.parametrize("name, value, line", [
    ("SMTP_PORT", "abc", "TURNPOST_SMTP_PORT must be a port number, not 'abc'"),
    ("SMTP_PORT", "70000", "TURNPOST_SMTP_PORT must be a port number, not '70000'"),
    ("SMTP_SECURITY", "tls", "TURNPOST_SMTP_SECURITY must be one of none, starttls, ssl, "
                             "not 'tls'"),
    ("IMAP_SSL", "maybe", "TURNPOST_IMAP_SSL must be true or false, not 'maybe'"),
    ("RETRY_SCHEDULE", "60,soon", "TURNPOST_RETRY_SCHEDULE must be whole numbers separated "
                                  "by commas, not '60,soon'"),
    ("METRICS_ALLOW", "loopback", "TURNPOST_METRICS_ALLOW must be networks like "
                                  "127.0.0.1/32,::1/128, not 'loopback'"),
    ("LOG_FORMAT", "xml", "TURNPOST_LOG_FORMAT must be one of text, json, not 'xml'"),
    ("SMTP_TIMEOUT", "-1", "TURNPOST_SMTP_TIMEOUT must be a number above 0, not '-1'"),
    ("DATABASE_URL", "mysql://x", "TURNPOST_DATABASE_URL must be a URL starting with sqlite: "
                                  "or postgresql: or postgresql+psycopg:, not 'mysql://x'"),
])
def test_a_bad_value_is_named_in_one_line(monkeypatch, name, value, line):
    monkeypatch.setenv(f"TURNPOST_{name}", value)
    with pytest.raises(SettingError) as caught:
        Settings()
    assert str(caught.value) == line
    with pytest.raises(SystemExit) as stopped:
        config.load()
    assert str(stopped.value) == f"turnpost: {line}"


def test_a_bad_value_stops_the_flask_command_with_that_line_and_no_traceback():
    env = dict(os.environ, TURNPOST_SMTP_PORT="abc")
    run = subprocess.run([sys.executable, "-m", "flask", "--app", "service.web", "routes"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    assert run.stderr.strip().splitlines()[-1] == \
        "turnpost: TURNPOST_SMTP_PORT must be a port number, not 'abc'"
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("secret", [None, "x"])
def test_config_check_refuses_what_every_process_refuses(monkeypatch, capsys, secret):
    """With a broker, the development secret (or a short one) stops every process as it
    starts: `python -m config check` must say so too, and how to make a good one."""
    monkeypatch.setenv("TURNPOST_BROKER_URL", "redis://127.0.0.1:6379/0")
    if secret is None:
        monkeypatch.delenv("TURNPOST_SECRET_KEY", raising=False)
    else:
        monkeypatch.setenv("TURNPOST_SECRET_KEY", secret)
    assert config_main(["check"]) == 1
    out = capsys.readouterr()
    assert "settings are fine" not in out.out
    line = out.err.strip()
    assert line.startswith("turnpost: TURNPOST_SECRET_KEY") and len(line.splitlines()) == 1
    assert "secrets.token_urlsafe(48)" in line


def test_config_check_passes_a_long_random_secret_and_a_base_url(monkeypatch, capsys):
    monkeypatch.setenv("TURNPOST_BROKER_URL", "redis://127.0.0.1:6379/0")
    monkeypatch.setenv("TURNPOST_SECRET_KEY", "k" * 48)
    monkeypatch.setenv("TURNPOST_BASE_URL", "https://play.example.org")
    assert config_main(["check"]) == 0
    assert capsys.readouterr().out.strip() == "settings are fine"


@pytest.mark.parametrize("production", [{"TURNPOST_BROKER_URL": "redis://127.0.0.1:6379/0"},
                                        {"TURNPOST_MAIL_TRANSPORT": "smtp"}])
@pytest.mark.parametrize("base_url", [None, ""])
def test_config_check_refuses_production_without_a_base_url(monkeypatch, capsys, production,
                                                             base_url):
    """Issue 49, item 2: unset, every link of every email pointed at the development default
    (or at what `make run` recorded in var/base-url) and the check said "settings are
    fine"; it is refused as an unsafe secret is, in one line saying what to set."""
    for name, value in production.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("TURNPOST_SECRET_KEY", "k" * 48)
    if base_url is None:
        monkeypatch.delenv("TURNPOST_BASE_URL", raising=False)
    else:
        monkeypatch.setenv("TURNPOST_BASE_URL", base_url)
    assert config_main(["check"]) == 1
    out = capsys.readouterr()
    assert "settings are fine" not in out.out
    line = out.err.strip()
    assert line.startswith("turnpost: TURNPOST_BASE_URL is not set") and len(line.splitlines()) == 1
    assert "https://play.example.org" in line


def _unsafe_env(**more) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TURNPOST_")}
    return env | {"TURNPOST_BROKER_URL": "redis://127.0.0.1:9/0", "TURNPOST_SECRET_KEY": "x",
                  "TURNPOST_BASE_URL": "https://play.example.org"} | more


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


UNSAFE_LINE = ("turnpost: TURNPOST_SECRET_KEY is only 1 characters long (at least 32 are "
               "needed)")


@pytest.mark.parametrize("command", [
    ["flask", "--app", "service.web", "run"],
    ["celery", "-A", "workers.worker", "worker", "--pool=solo"],
    ["gunicorn", "-c", "config/gunicorn.py", "service.web:create_app()"],
], ids=["flask", "celery", "gunicorn"])
def test_an_unsafe_secret_stops_every_process_with_one_line_and_no_socket(command):
    """Issue 49, item 5: gunicorn printed 130 lines with four tracebacks (each worker refused
    the settings as it booted) and held its port for about ten seconds; flask and celery
    printed a traceback first. Each now says the one line and exits before listening."""
    port = _free_port()
    env = _unsafe_env(TURNPOST_WEB_BIND=f"127.0.0.1:{port}")
    if command[0] == "flask":
        command = [*command, "--port", str(port)]
    run = subprocess.Popen([sys.executable, "-m", *command], cwd=ROOT, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        out, _ = run.communicate(timeout=60)
    finally:
        run.kill()
    assert run.returncode == 1, out
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(UNSAFE_LINE), out
    with socket.socket() as s:       # nothing was left listening (nor is, after it)
        s.bind(("127.0.0.1", port))


def test_a_metrics_folder_named_before_it_exists_is_made(db_url, tmp_path):
    """Issue 49, item 6: PROMETHEUS_MULTIPROC_DIR set (an environment file read by every
    process) before its folder exists stopped `flask init-db` on a FileNotFoundError from
    prometheus_client, which opens the process's file there as the first metric is made."""
    folder = tmp_path / "var" / "metrics"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TURNPOST_")} | {
        "TURNPOST_DATABASE_URL": db_url, "PROMETHEUS_MULTIPROC_DIR": str(folder)}
    run = subprocess.run([sys.executable, "-m", "flask", "--app", "service.web", "init-db"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "database is up to date"
    assert "Traceback" not in run.stderr
    assert folder.is_dir()
