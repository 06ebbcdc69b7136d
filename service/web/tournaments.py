"""/tournaments/<id>: a tournament's standings, rounds and games (service.play.community)."""
from __future__ import annotations

from flask import Blueprint, render_template

from service.play import community

from . import pages
from .ext import services

bp = Blueprint("tournaments", __name__)


@bp.get("/tournaments/<int:tournament_id>")
def tournament_page(tournament_id: int):
    try:
        view = community.show(services(), tournament_id)
    except community.NoSuchTournament as exc:
        return pages.problem(exc.title, exc.detail, 404)
    return render_template("web/tournament.html", t=view, line_text=community.line_text,
                           points_text=community.points_text)
