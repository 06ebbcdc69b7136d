"""Words a player met that were not English, or said nothing (issue 49, item 20): sealed
choices named in the plural as English has them, a win on points that does not end in a bare
"Score.", and Suzerain's final score without "(score)"."""
from __future__ import annotations

import copy

import pytest

from service.display.seatview import result_text
from tests.display.render import ENV, page_of, readable
from tests.display.samples import CASES, play


def _partials(sample, view: dict, seat: int) -> dict[str, str]:
    page = page_of(sample, seat)
    ctx = {"view": view, "names": page.names, "me": seat, "page": page}
    return {ext: readable(ENV.get_template(f"games/{sample.engine.id}/view.{ext}").render(ctx),
                          html=ext == "html") for ext in ("html", "txt")}


@pytest.mark.parametrize("kind, plural, own", [
    ("stall", "Sealed stalls.", "Your stall:"),
    ("ball", "Sealed gifts to the ball.", "Your gift to the ball:"),
    ("bid", "Sealed auction bids.", "Your bid:"),
    ("tax", "Sealed tax discards.", "Your tax discard:"),
])
def test_aristocracy_names_each_sealed_choice_in_english(kind, plural, own):
    """RULINGS A3's sealed choices: stalls, ball contributions, auction bids, tax discards
    (never "Sealed taxs." or "Sealed balls.")."""
    sample = play(*next(c for c in CASES if c[0] == "aristocracy"))[0]
    page = page_of(sample, 0)
    assert "sealed" in page.view, "the start of an Aristocracy game is a sealed stall choice"
    view = copy.deepcopy(page.view)
    view["sealed"]["kind"] = kind
    view["sealed"].setdefault("mine", None)
    for text in _partials(sample, view, 0).values():
        flat = " ".join(text.split())
        assert plural in flat and own in flat
        assert f"Sealed {kind}s." not in flat or kind == "stall"


def test_a_win_on_points_ends_with_the_scores_not_a_bare_score():
    outcome = {"winners": [0], "scores": [17, 14], "how": "score"}
    assert result_text(outcome, ["Anna", "Ben"], 0) == "You won (you: 17, Ben: 14)."
    tie = {"winners": [1], "scores": [15, 15], "how": "tie broken by more 5s"}
    assert result_text(tie, ["Anna", "Ben"], 0) == \
        "Ben won (you: 15, Ben: 15). Tie broken by more 5s."


def test_suzerain_final_score_says_no_bare_score():
    sample = play(*next(c for c in CASES if c[0] == "suzerain"))[-1]
    page = page_of(sample, 0)
    assert page.view["outcome"]["how"] == "score", "this sample ends on points"
    text = _partials(sample, page.view, 0)["txt"]
    assert "Final score:" in text and "(score)" not in text
