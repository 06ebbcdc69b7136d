"""`make bench`'s table (bench/bench.py), with one more kind of target: a value that must stay
under (or over) a bound whatever its floor, such as the sweep's 60 s."""
from __future__ import annotations

from dataclasses import dataclass

from bench import Row, fmt


@dataclass
class Figure(Row):
    absolute: bool = False          # the target bounds the value, not the ratio

    @property
    def met(self) -> str:
        if self.target is None:
            return ""
        got = self.value if self.absolute or self.floor is None else self.ratio
        ok = got >= self.target if self.higher_is_better else got <= self.target
        return "yes" if ok else "NO"

    def target_text(self) -> str:
        if self.target is None:
            return "-"
        sign = ">= " if self.higher_is_better else "<= "
        if self.absolute or self.floor is None:
            return f"{sign}{fmt(self.target)} {self.unit}"
        return f"{sign}{fmt(self.target)}x"


def render(rows: list[Figure]) -> str:
    head = ("figure", "value", "unit", "floor", "ratio", "target", "met")
    body = [(r.figure, fmt(r.value), r.unit, fmt(r.floor),
             "-" if r.ratio is None else fmt(r.ratio) + "x", r.target_text(), r.met)
            for r in rows]
    widths = [max(len(str(c[i])) for c in [head, *body]) for i in range(len(head))]
    lines = ["  ".join(str(c).ljust(w) if i in (0, 2) else str(c).rjust(w)
                       for i, (c, w) in enumerate(zip(cells, widths)))
             for cells in [head, *body]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
