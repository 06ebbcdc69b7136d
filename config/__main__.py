"""`python -m config docs`: write the settings table into docs/operating.md (`make settings-doc`);
`python -m config check`: load and check the settings as a starting process would, one line if
bad; `python -m config base-url URL`: keep URL in var/base-url, the base URL of every process
started without TURNPOST_BASE_URL (`make run` writes the one it serves)."""
from __future__ import annotations

import os
import sys

from . import ROOT, SettingError, load, markdown_table, record_base_url
from .production import UnsafeSettings, check_production

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
        try:
            # what every process checks as it starts
            check_production(load().as_flask(), os.environ)
        except UnsafeSettings as exc:
            print(exc, file=sys.stderr)
            return 1
        print("settings are fine")
        return 0
    if argv[:1] == ["base-url"] and len(argv) == 2:
        try:
            print(f"{record_base_url(argv[1])}: {argv[1]}")
        except SettingError as exc:
            print(f"turnpost: {exc}", file=sys.stderr)
            return 2
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
