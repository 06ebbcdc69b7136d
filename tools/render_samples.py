"""Dev tool: render sample turn emails and game pages of every game, for looking at them.

    .venv/bin/python tools/render_samples.py [OUT_DIR] [--shots] [--only NAME,...]

Starts games through the app on a throwaway SQLite database, plays them with the random bots by
signed links, and writes the email seat 0 got at the start, mid-game and at the end
(`<name>.<when>.html|txt`), seat 0's view partial alone (`<name>.<when>.board.html`) and
seat 0's game page mid-game (`<name>.page.html`) to OUT_DIR
(default /tmp/render_samples). With --shots each HTML file is screenshot by headless Chromium
at a phone's width (390px) into a .png beside it. With --docs the screenshots the repository
keeps are made into docs/screenshots: each game's mid-game email at 390px and 1000px and its
game page at 390px, light, made small with ImageMagick's `convert` when it is there.

    .venv/bin/python tools/render_samples.py --docs
"""
from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
from email import policy
from email.parser import BytesParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# name, lobby entry, seats, options, step to sample "mid" at
SAMPLES = [
    ("magnate", "magnate", 2, {}, 14),
    ("magnate-roller", "magnate-roller", 2, {}, 30),
    ("magnate-mega", "magnate", 2, {"mega": "true"}, 30),
    ("magnate-three", "magnate-roller", 3, {"three": "true"}, 30),
    ("trees", "trees", 3, {}, 20),
    ("suzerain", "suzerain", 2, {}, 12),
    ("aristocracy", "aristocracy", 3, {"round_cap": "2"}, 40),
]
NAMES = ["Alice", "Bartholomew", "Chloe", "Dmitri"]


def _mails(app) -> list:
    t = app.extensions["turnpost"].transport
    return [BytesParser(policy=policy.default).parsebytes(raw) for _, raw in t.messages()]


def _write_latest(app, addr: str, out: Path, stem: str) -> None:
    found = [m for m in _mails(app) if m["To"] == addr]
    if not found:
        return
    msg = found[-1]
    html = msg.get_body(("html",)).get_content()
    for part in msg.walk():     # the inline picture beside the HTML, for looking at it
        cid = (part.get("Content-ID") or "").strip("<>")
        if cid and part.get_content_type() == "image/png":
            (out / f"{stem}.table.png").write_bytes(part.get_content())
            html = html.replace(f"cid:{cid}", f"{stem}.table.png")
    (out / f"{stem}.html").write_text(html)
    (out / f"{stem}.txt").write_text(msg.get_body(("plain",)).get_content())


def _write_board(pos, seats: int, out: Path, stem: str) -> None:
    """Seat 0's view partial alone, inlined as in an email: quicker to look at."""
    import css_inline

    from service.mailwire.outbound.templating import game_partial, make_env
    env = make_env()
    kind = pos.engine.id
    ctx = {"view": pos.engine.view(pos.state, 0), "names": NAMES[:seats], "me": 0}
    body = env.get_template(game_partial(env, kind, "html")).render(ctx)
    page = ('<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" '
            'content="width=device-width"></head><body style="margin:0;padding:12px;'
            'font-family:Helvetica,Arial,sans-serif;background:#f4f1ea"><div style="'
            'background:#fff;padding:14px 16px;border-radius:8px">' + body + '</div></body></html>')
    inliner = css_inline.CSSInliner(keep_style_tags=False, keep_at_rules=True)
    (out / f"{stem}.board.html").write_text(inliner.inline(page))


def render_game(name, entry, seats, options, mid, out: Path, seed: int = 7) -> None:
    from service import play
    from service.games import registry
    from service.linking import freshness
    from service.linking.signer import Claims
    from service.play import repository
    from service.store.migrate import upgrade
    from service.store.models import Player
    from service.web import create_app

    tmp = Path(tempfile.mkdtemp(prefix=f"render-{name}-"))
    url = f"sqlite:///{tmp / 'db.sqlite'}"
    upgrade(url)
    app = create_app({"TURNPOST_DATABASE_URL": url, "TURNPOST_MAILDIR": str(tmp / "outbox"),
                      "TURNPOST_SECRET_KEY": "render-secret", "TURNPOST_BROKER_URL": "",
                      "TURNPOST_BASE_URL": "http://turnpost.test",
                      "TURNPOST_MAIL_DOMAIN": "turnpost.test",
                      "TURNPOST_CHANCE": random.Random(seed), "TESTING": True})
    client = app.test_client()
    addrs = [f"p{n}@example.org" for n in range(seats)]
    svc = app.extensions["turnpost"]
    with svc.db.transaction() as s:      # every move mailed, so each stage has an email to show
        for n, a in enumerate(addrs):
            s.add(Player(email=a, name=NAMES[n], mail_mode="every", created_at=svc.clock.now()))
    _, _, game, preset = next(e for e in registry.lobby() if e[0] == entry)
    # the operator's start (the lobby now invites, and waits for every seat to accept)
    gid = play.start_game(svc, game.id, addrs, {**options, **preset}).game_id
    signer, store = app.extensions["turnpost"].urls.signer, app.extensions["turnpost"].db
    _write_latest(app, addrs[0], out, f"{name}.start")
    rng = random.Random(seed)
    for step in range(5000):
        with store.transaction() as s:
            pos = repository.load(s, app.extensions["turnpost"].states, gid)
        engine = pos.engine
        if engine.outcome(pos.state) is not None:
            break
        if step == 0:
            _write_board(pos, seats, out, f"{name}.start")
        if step == mid:
            _write_latest(app, addrs[0], out, f"{name}.mid")
            _write_board(pos, seats, out, f"{name}.mid")
            page = client.get(f"/g/{signer.dumps('view', Claims(gid, 0))}")
            (out / f"{name}.page.html").write_text(page.text)
        seat = rng.choice(sorted(engine.to_act(pos.state)))
        move = engine.bots["easy"](pos.state, seat, rng)
        token = signer.dumps("move", Claims(gid, seat, freshness.mark(pos.engine, pos.state, seat), move))
        resp = client.post(f"/m/{token}")
        assert resp.status_code == 200, f"{name} step {step}: {resp.text[:500]}"
    _write_latest(app, addrs[0], out, f"{name}.end")
    _write_board(pos, seats, out, f"{name}.end")
    app.extensions["turnpost"].dispose()


DOCS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
# one sample per game for the docs, and what is shot of it: (file, suffix, width, height)
DOC_SAMPLES = ["magnate", "magnate-roller", "trees", "suzerain", "aristocracy"]
DOC_SHOTS = [("mid.html", "email-390", 390, 1600), ("mid.html", "email-1000", 1000, 1100),
             ("page.html", "page-390", 390, 1600)]


def shoot(html: Path, height: int = 2400, width: int = 390, png: Path | None = None) -> Path:
    png = png or html.with_suffix(".png")
    with tempfile.TemporaryDirectory(prefix="render-chromium-") as ud:
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-quic", "--no-first-run", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync",
                        f"--user-data-dir={ud}", "--hide-scrollbars",
                        f"--window-size={width},{height}", f"--screenshot={png}",
                        f"file://{html}"],
                       check=True, capture_output=True, timeout=120)
    return png


def docs(out: Path) -> None:
    """The screenshots kept in the repository, made small (a 64-colour palette)."""
    DOCS.mkdir(parents=True, exist_ok=True)
    convert = shutil.which("convert")
    for name in DOC_SAMPLES:
        for source, suffix, width, height in DOC_SHOTS:
            png = shoot(out / f"{name}.{source}", height, width, DOCS / f"{name}.{suffix}.png")
            if convert:   # a stand-in convert may refuse: the PNG is kept as it is then
                subprocess.run([convert, str(png), "-strip", "-colors", "64", f"PNG8:{png}"],
                               check=False, capture_output=True, timeout=120)
            print("  ", png)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default="/tmp/render_samples")
    ap.add_argument("--shots", action="store_true", help="screenshot the HTML with Chromium")
    ap.add_argument("--height", type=int, default=2400, help="screenshot height in pixels")
    ap.add_argument("--only", default="", help="comma-separated sample names")
    ap.add_argument("--docs", action="store_true",
                    help="make the screenshots kept in docs/screenshots")
    ap.add_argument("--reuse", action="store_true",
                    help="with --docs: shoot the HTML already in OUT_DIR")
    args = ap.parse_args(argv)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    only = set(filter(None, args.only.split(",")))
    if args.docs:
        only = only or set(DOC_SAMPLES)
        shots = [f for n in only for f in (out / f"{n}.mid.html", out / f"{n}.page.html")]
        if all(f.exists() for f in shots) and args.reuse:
            docs(out)
            return
    for name, entry, seats, options, mid in SAMPLES:
        if only and name not in only:
            continue
        render_game(name, entry, seats, options, mid, out)
        print(f"rendered {name}")
        if args.shots:
            for html in sorted(out.glob(f"{name}.*.html")):
                print("  ", shoot(html, args.height))
    if args.docs:
        docs(out)


if __name__ == "__main__":
    main()
