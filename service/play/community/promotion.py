"""Who plays in which division of a league's next season: pure functions of the last season's
final standings, who left and who waits to join, no database.

At a season's end the top `promote` of each division move up one division and the bottom
`promote` move down one (the top division promotes nobody, the bottom one relegates nobody);
the others stay. Then the places of those who left are filled from below: everyone, top
division first, is put in one line (in each division: those who stayed by their standing, then
those relegated into it, then those promoted into it), the newcomers at its end, and the line
is cut into divisions of `size`: a place left in a division goes to the best of the division
below who was not promoted already, never back to one just relegated from it. With nobody gone and nobody new, the cut leaves the moves
exactly as made. Past the divisions' places, newcomers wait for a later season; a last
division of one player (who would have nobody to play) joins the division above it."""
from __future__ import annotations

from collections.abc import Hashable, Sequence

Division = list[Hashable]


def moves(finals: Sequence[Sequence[Hashable]], promote: int) -> dict[Hashable, int]:
    """Each player's step from the season's final standings (`finals`, top division first,
    each best first): -1 up, +1 down, 0 stays."""
    out: dict[Hashable, int] = {}
    last = len(finals) - 1
    for d, order in enumerate(finals):
        up = list(order[:promote]) if d > 0 and promote else []
        down = [p for p in order[len(order) - promote:] if p not in up] \
            if d < last and promote else []
        for p in order:
            out[p] = -1 if p in up else 1 if p in down else 0
    return out


def next_divisions(finals: Sequence[Sequence[Hashable]], promote: int, gone: set,
                   newcomers: Sequence[Hashable], size: int, count: int) -> list[Division]:
    """The next season's divisions, top first (at most `count` of at most `size` players,
    none of one player); whoever does not fit waits."""
    step = moves(finals, promote)
    arrived: list[list[Hashable]] = [[] for _ in range(max(len(finals), 1))]
    stayed: list[list[Hashable]] = [[] for _ in arrived]
    rose: list[list[Hashable]] = [[] for _ in arrived]
    for d, order in enumerate(finals):
        for p in order:
            if step[p] == 1:
                arrived[d + 1].append(p)
            elif step[p] == -1:
                rose[d - 1].append(p)
            else:
                stayed[d].append(p)
    line = [p for d in range(len(arrived)) for p in (*stayed[d], *arrived[d], *rose[d])
            if p not in gone]
    line += [p for p in newcomers if p not in gone and p not in line]
    return cut(line, size, count)


def cut(line: Sequence[Hashable], size: int, count: int) -> list[Division]:
    """`line`, best first, in divisions of `size` (at most `count`); a last division of one
    joins the one above; fewer than two players make no division at all."""
    divisions = [list(line[i:i + size]) for i in range(0, min(len(line), size * count), size)]
    if len(divisions) > 1 and len(divisions[-1]) == 1:
        last = divisions.pop()
        divisions[-1] += last
    return [d for d in divisions if len(d) >= 2]
