"""`python -m config docs`: write the settings table into docs/operating.md (`make settings-doc`);
`python -m config check`: load the settings as a starting process would, one line if bad."""
from __future__ import annotations

import sys

from . import ROOT, load, markdown_table

SETTINGS_DOC = ROOT / "docs" / "operating.md"
BEGIN, END = "<!-- settings: begin (make settings-doc) -->", "<!-- settings: end -->"


def doc_with_table(text: str) -> str:
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{markdown_table()}{END}{tail}"


def main(argv: list[str]) -> int:
    if argv[:1] == ["docs"]:
        SETTINGS_DOC.write_text(doc_with_table(SETTINGS_DOC.read_text()))
        print(f"{SETTINGS_DOC.relative_to(ROOT)}: settings table written")
        return 0
    if argv[:1] == ["check"]:
        load()
        print("settings are fine")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
