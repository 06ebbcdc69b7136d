"""The API's community reads, added to /api/v1 by service.web.api (`register`): a player's
public profile and a game's leaderboard. Public, as their pages are: no token is needed, and a
hidden profile answers 404 as a missing one does."""
from __future__ import annotations

from service.mailwire.outbound.catalogs import N_
from service.play import community
from service.play.errors import PlayError

from .ext import services
from .openapi import _errors, _json, described
from .problems import Problem

PUBLIC = {"api.player", "api.leaderboard"}

PLAYER = {
    "summary": "A player's public profile: ratings per game with their history, games, "
               "reliability and quickness",
    "security": [],
    "parameters": [{"name": "handle", "in": "path", "required": True,
                    "schema": {"type": "string"}, "example": "anna-1"}],
    "responses": {"200": _json({
        "handle": "anna-1", "name": "Anna", "played": 12, "finished": 11, "turns": 340,
        "reliability": 0.97, "quicknessSeconds": 5400,
        "ratings": [{"game": "trees", "title": "Trees", "rating": 1580, "sigma": 210.5,
                     "games": 11, "provisional": False,
                     "history": [{"at": "2026-11-20T09:00:00+00:00", "rating": 1540}]}]},
        "the profile"),
        "404": {"description": "no player has that handle, or their profile is hidden",
                "content": _errors("404")["404"]["content"]}}}

LEADERBOARD = {
    "summary": "A game's leaderboard: established ratings first (numbered), then "
               "provisional ones",
    "security": [],
    "parameters": [{"name": "game", "in": "path", "required": True,
                    "schema": {"type": "string"}, "example": "trees"}],
    "responses": {"200": _json({
        "game": "trees", "title": "Trees",
        "players": [{"place": 1, "name": "Anna", "handle": "anna-1", "rater": "player:1",
                     "rating": 1580, "games": 11, "provisional": False}]},
        "the leaderboard"),
        "404": {"description": "no game of that name",
                "content": _errors("404")["404"]["content"]}}}


def register(bp) -> None:
    bp.add_url_rule("/players/<handle>", view_func=player, methods=["GET"])
    bp.add_url_rule("/ratings/<game>", view_func=leaderboard, methods=["GET"])


@described(PLAYER)
def player(handle: str):
    p = community.profile(services(), handle[:60])
    if p is None:
        raise Problem(404, N_("No such player"), N_(
            "No player has that handle, or their profile is hidden."))
    return {"handle": p.handle, "name": p.name, "played": p.played, "finished": p.finished,
            "turns": p.turns, "reliability": p.reliability,
            "quicknessSeconds": round(p.quickness.total_seconds()) if p.quickness else None,
            "ratings": [{"game": r.kind, "title": r.title, "rating": r.rating,
                         "sigma": round(r.sigma, 1), "games": r.games,
                         "provisional": r.provisional,
                         "history": [{"at": at.isoformat(), "rating": round(mu)}
                                     for at, mu in r.history]} for r in p.ratings]}


@described(LEADERBOARD)
def leaderboard(game: str):
    try:
        board = community.board(services(), game[:40])
    except PlayError as exc:
        raise Problem(404, exc.title, exc.detail) from None
    return {"game": board.kind, "title": board.title,
            "players": [{"place": x.place, "name": x.name, "handle": x.handle,
                         "rater": x.rater, "rating": x.rating, "games": x.games,
                         "provisional": x.provisional} for x in board.lines]}
