"""The production shape on this machine: gunicorn (4 workers) serving the service, the same
gunicorn serving the bare route, a Celery worker (4 processes) sending to an SMTP sink, and
beat. Each is started in a process group of its own and the whole group is ended with it,
so no worker outlives the bench."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from pg_bench import free_port, service_env, wait_port

from bench import bare_app

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
WEB_WORKERS, POOL = 4, 4
SECRET = "bench-secret-long-enough-for-production"
INBOUND_SECRET = "bench-inbound-secret"
#: beat's passes: every 10 s (production: 60), so a due deadline waits at most that long
SWEEP_SECONDS = 10


@contextmanager
def group(args: list[str], env: dict, log: Path, ready_port: int | None = None):
    """A process in a new session (its own process group), ended with all its children."""
    with open(log, "ab") as out:
        proc = subprocess.Popen(args, cwd=ROOT, env={**os.environ, **env}, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        if ready_port:
            wait_port(ready_port, 60)
        yield proc
    finally:
        stop_group(proc)


def stop_group(proc: subprocess.Popen) -> None:
    for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            continue
        # the leader is gone; its children may still be stopping
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and members(proc.pid):
            time.sleep(0.2)
        if not members(proc.pid):
            return


def members(pgid: int) -> list[int]:
    """The live processes of a process group."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            out.append(int(entry.name))
    return out


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


#: /proc's CPU times are counted in clock ticks
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """A live process's CPU time so far, user and system (/proc/PID/stat's utime and stime:
    all of its threads, native code included, which a Python profiler's default view
    misses); 0 for one that is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def parent_of(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return 0


@dataclass
class Stack:
    pg: str
    redis: str
    tmp: Path
    web_port: int = field(default_factory=free_port)
    bare_port: int = field(default_factory=free_port)
    smtp_port: int = 0
    web_workers: int = WEB_WORKERS
    pool: int = POOL
    procs: dict[str, subprocess.Popen] = field(default_factory=dict)

    def env(self, **more) -> dict:
        return service_env(self.pg, self.redis, TURNPOST_SECRET_KEY=SECRET,
                           TURNPOST_INBOUND_SECRET=INBOUND_SECRET,
                           TURNPOST_SWEEP_SECONDS=str(SWEEP_SECONDS),
                           # the sweep's figure is 10,000 timeouts, not vacation days taken
                           TURNPOST_AUTO_VACATION="false",
                           TURNPOST_MAIL_TRANSPORT="smtp", TURNPOST_SMTP_HOST="127.0.0.1",
                           TURNPOST_SMTP_PORT=str(self.smtp_port), **more)

    def start(self, stack: ExitStack, sink_port: int) -> None:
        self.smtp_port = sink_port
        gunicorn = [str(BIN / "gunicorn"), "--workers", str(self.web_workers), "--log-level",
                    "warning"]
        logs = self.tmp
        # the floor's table made here: four workers making it at once race on the catalog
        bare_app(self.pg)[1].dispose()
        self.procs["bare"] = stack.enter_context(group(
            [*gunicorn, "--pythonpath", "bench", "--bind", f"127.0.0.1:{self.bare_port}",
             "bare_wsgi:app"], {"BENCH_DATABASE_URL": self.pg}, logs / "bare.log",
            self.bare_port))
        self.procs["web"] = stack.enter_context(group(
            [*gunicorn, "--bind", f"127.0.0.1:{self.web_port}", "service.web:create_app()"],
            self.env(), logs / "web.log", self.web_port))
        self.stack = stack
        self.start_worker(self.pool)
        self.procs["beat"] = stack.enter_context(group(
            [str(BIN / "celery"), "-A", "workers.worker", "beat", "--loglevel=WARNING",
             "--schedule", str(self.tmp / "celerybeat-schedule")], self.env(),
            logs / "beat.log"))

    def start_worker(self, pool: int) -> None:
        """The Celery worker with `pool` processes, in place of the one running (ended with
        its group first)."""
        if "worker" in self.procs:
            stop_group(self.procs["worker"])
        self.procs["worker"] = self.stack.enter_context(group(
            [str(BIN / "celery"), "-A", "workers.worker", "worker", f"--concurrency={pool}",
             "--loglevel=WARNING", "--without-gossip", "--without-mingle"],
            self.env(), self.tmp / "worker.log"))

    def cpu(self, name: str) -> float:
        """The CPU seconds used so far by every live process of one role's group ("web",
        "worker": the master and its children). A difference of two readings is a phase's
        cost only while no process of the group started or ended between them (the prefork
        pool keeps its children: no max-tasks-per-child here)."""
        return sum(cpu_seconds(pid) for pid in members(self.procs[name].pid))

    def rss(self) -> dict[str, list[float]]:
        """Resident memory (MB) of each process, by role: a master and its children."""
        out: dict[str, list[float]] = {}
        for name, proc in self.procs.items():
            pids = members(proc.pid)
            children = [p for p in pids if parent_of(p) == proc.pid]
            out[f"{name} master"] = [rss_mb(proc.pid)]
            if children:
                out[f"{name} children"] = [rss_mb(p) for p in children]
        return out
