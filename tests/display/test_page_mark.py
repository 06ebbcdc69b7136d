"""A seat page's mark (the position its links carry) is made from the view the page already
holds, where the engine's freshness is the whole view: it must be exactly the mark a link is
later checked against (service.linking.freshness.mark, which makes the view itself)."""
from __future__ import annotations

from service.linking.freshness import mark
from tests.display.render import page_of
from tests.display.samples import CASES, play


def test_a_pages_mark_is_the_mark_its_links_are_checked_against():
    seen = 0
    for case in CASES:
        for sample in play(*case):
            for seat in [None, *range(len(sample.names))]:
                page = page_of(sample, seat)
                assert page.mark == mark(sample.engine, sample.state, seat), (case, seat)
                seen += 1
    assert seen > len(CASES)
