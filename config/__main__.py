"""`python -m config readme`: write the settings table into README.md (`make settings-doc`);
`python -m config check`: load and check the settings as a
starting process would, one line if bad."""
from __future__ import annotations

import sys

from . import ROOT, load, markdown_table
from .secret import UnsafeSettings, check_secret

BEGIN, END = "<!-- settings: begin (make settings-doc) -->", "<!-- settings: end -->"


def readme_with_table(text: str) -> str:
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{markdown_table()}{END}{tail}"


def main(argv: list[str]) -> int:
    if argv[:1] == ["readme"]:
        path = ROOT / "README.md"
        path.write_text(readme_with_table(path.read_text()))
        print("README.md: settings table written")
        return 0
    if argv[:1] == ["check"]:
        try:
            check_secret(load().as_flask())     # what every process checks as it starts
        except UnsafeSettings as exc:
            print(f"turnpost: {exc}", file=sys.stderr)
            return 1
        print("settings are fine")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
