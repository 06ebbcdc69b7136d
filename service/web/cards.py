"""Card faces as SVG pictures (service.display.cardfaces), for the game pages."""
from __future__ import annotations

from flask import Blueprint, Response, abort

from service.display import cardfaces

bp = Blueprint("cards", __name__)


@bp.get("/cards/<card_id>.svg")
def face(card_id: str):
    try:
        body = cardfaces.svg(card_id)
    except cardfaces.UnknownCard:
        abort(404)
    # a face never changes: let browsers and proxies keep it
    return Response(body, mimetype="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=31536000, immutable"})
