"""The IMAP poller against a real Dovecot, private to this module: it stores each unseen message
once, marks it \\Seen only after storing it, leaves it unseen when storing fails, and keeps to
its batch size and size limit."""
from __future__ import annotations

import grp
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from imapclient import IMAPClient

from service import play
from service.mailwire.inbound import imap_poll
from tests.mail.inbound.conftest import message, stored

DOVECOT = "/usr/sbin/dovecot"
USER, PASSWORD = "turnpost", "imap-test-password"

CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:{root}/mail/%u
{extra}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN {root}/users
}}
userdb {{
  driver = passwd-file
  args = {root}/users
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
  {login_chroot}
}}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_greeting(proc, port: int, log: Path, deadline: float = 8.0) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if proc.poll() is not None:
            break
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                if s.recv(64).startswith(b"* OK"):
                    return
        except OSError:
            time.sleep(0.05)
    text = log.read_text() if log.exists() else "(no log)"
    pytest.fail(f"dovecot did not come up on port {port}:\n{text}")


@pytest.fixture(scope="module")
def dovecot():
    """A throw-away Dovecot on a free port: own config, passwd-file user and mail in a temp
    dir; plain-text login, no SSL, nothing of the system's dovecot service is used."""
    if not os.path.exists(DOVECOT):
        # a laptop may lack it (then skipped); CI sets TURNPOST_TEST_IMAP=1, where it must run
        say = pytest.fail if os.environ.get("TURNPOST_TEST_IMAP") else pytest.skip
        say("Dovecot is needed for the IMAP poller tests: "
            "apt-get update && apt-get install -y dovecot-imapd")
    root = Path(tempfile.mkdtemp(prefix="turnpost-dovecot-"))
    (root / "mail").mkdir()
    if os.geteuid() == 0:
        # Dovecot will not deliver as root: the mailbox belongs to nobody
        nobody = pwd.getpwnam("nobody")
        uid, gid, extra, login_chroot = nobody.pw_uid, nobody.pw_gid, "", ""
        root.chmod(0o755)
        os.chown(root / "mail", uid, gid)
    else:
        # Dovecot as an ordinary user: every process runs as that user, without chroot
        me, group = pwd.getpwuid(os.getuid()).pw_name, grp.getgrgid(os.getgid()).gr_name
        uid, gid = os.getuid(), os.getgid()
        extra = f"default_login_user = {me}\ndefault_internal_user = {me}\n" \
                f"default_internal_group = {group}\nservice anvil {{\n  chroot =\n}}"
        login_chroot = "chroot ="
    port = free_port()
    (root / "users").write_text(f"{USER}:{{PLAIN}}{PASSWORD}:{uid}:{gid}::{root}/mail/{USER}\n")
    (root / "dovecot.conf").write_text(CONFIG.format(root=root, port=port, extra=extra,
                                                     login_chroot=login_chroot))
    proc = subprocess.Popen([DOVECOT, "-F", "-c", str(root / "dovecot.conf")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        wait_for_greeting(proc, port, root / "dovecot.log")
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def mailbox(dovecot):
    """A logged-in client on an empty INBOX."""
    client = IMAPClient("127.0.0.1", port=dovecot, ssl=False, timeout=5)
    client.login(USER, PASSWORD)
    client.select_folder("INBOX")
    old = client.search(["ALL"])
    if old:
        client.delete_messages(old)
        client.expunge()
    yield client
    client.logout()


@pytest.fixture
def account(dovecot):
    return imap_poll.Account(host="127.0.0.1", port=dovecot, user=USER, password=PASSWORD,
                             ssl=False, timeout=5)


def accept(app):
    def accept(raw):
        return play.accept_mail(app.extensions["turnpost"], raw, "imap")
    return accept


def flags(mailbox) -> list[set]:
    mailbox.noop()
    found = mailbox.fetch(mailbox.search(["ALL"]), ["FLAGS"])
    return [set(found[uid][b"FLAGS"]) for uid in sorted(found)]


def test_unseen_mail_is_stored_once_and_marked_seen(app, kicked, mailbox, account):
    mailbox.append("INBOX", message("<one@example.org>"))
    mailbox.append("INBOX", message("<two@example.org>"))
    mailbox.append("INBOX", message("<one@example.org>"))         # the same reply, twice
    mailbox.append("INBOX", message("<read@example.org>"), flags=[imap_poll.SEEN])

    result = imap_poll.poll(account, accept(app))
    assert result == imap_poll.PollResult(seen=3, stored=2, duplicates=1)
    rows = stored(app)
    assert [(r.message_id, r.via) for r in rows] == [("one@example.org", "imap"),
                                                     ("two@example.org", "imap")]
    assert rows[0].raw == message("<one@example.org>")
    assert kicked == [r.id for r in rows]
    assert all(imap_poll.SEEN in f for f in flags(mailbox))
    assert imap_poll.poll(account, accept(app)) == imap_poll.PollResult()   # nothing new


def test_a_message_is_marked_seen_only_after_it_was_stored(app, kicked, mailbox, account):
    mailbox.append("INBOX", message("<first@example.org>"))
    mailbox.append("INBOX", message("<second@example.org>"))
    calls = []

    def database_down(raw):
        calls.append(raw)
        raise ConnectionError("database is down")

    result = imap_poll.poll(account, database_down)
    assert result == imap_poll.PollResult(seen=2, failed=1)
    assert len(calls) == 1                       # it stops at the first failure
    assert not any(imap_poll.SEEN in f for f in flags(mailbox))
    assert stored(app) == []

    result = imap_poll.poll(account, accept(app))   # the database is back
    assert result.stored == 2
    assert [r.message_id for r in stored(app)] == ["first@example.org", "second@example.org"]


def test_a_poll_takes_at_most_one_batch(app, kicked, mailbox, account):
    for n in range(3):
        mailbox.append("INBOX", message(f"<batch-{n}@example.org>"))
    assert imap_poll.poll(account, accept(app), batch=2).stored == 2
    assert imap_poll.poll(account, accept(app), batch=2).stored == 1
    assert [r.message_id for r in stored(app)] == [f"batch-{n}@example.org" for n in range(3)]


def test_oversize_mail_is_flagged_not_stored(app, kicked, mailbox, account):
    mailbox.append("INBOX", message("<huge@example.org>", size=20_000))
    mailbox.append("INBOX", message("<small@example.org>"))
    small = imap_poll.Account(**{**account.__dict__, "max_bytes": 10_000})
    assert imap_poll.poll(small, accept(app)) == imap_poll.PollResult(seen=2, stored=1,
                                                                      oversize=1)
    assert [r.message_id for r in stored(app)] == ["small@example.org"]
    huge, ok = flags(mailbox)
    assert {imap_poll.SEEN, imap_poll.FLAGGED} <= huge and imap_poll.FLAGGED not in ok


def test_the_celery_task_polls_the_configured_mailbox(app_factory, kicked, mailbox, dovecot):
    from workers.imap_tasks import poll_imap
    app = app_factory(TURNPOST_IMAP_HOST="127.0.0.1", TURNPOST_IMAP_PORT=dovecot,
                      TURNPOST_IMAP_USER=USER, TURNPOST_IMAP_PASSWORD=PASSWORD,
                      TURNPOST_IMAP_SSL=False)
    assert "poll-imap" in app.extensions["celery"].conf.beat_schedule
    mailbox.append("INBOX", message("<task@example.org>"))
    # eager (no broker in the tests), on this app's Celery
    assert app.extensions["celery"].tasks[poll_imap.name].delay().get()["stored"] == 1
    assert [(r.message_id, r.via) for r in stored(app)] == [("task@example.org", "imap")]
    assert len(kicked) == 1
