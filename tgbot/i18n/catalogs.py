"""Keep the catalogs in step with the code: `python -m tgbot.i18n.catalogs`.

Extracts every text marked with `_`, `N_` or `ngettext` from `engine/` (the details of its
refusals), `tgbot/` and `workers/` (the play page's stand-in of Telegram is not the bot, and is
left out) into `i18n/locale/hintrigue.pot`,
then updates each language's `.po` from it, creating the ones missing: what `pybabel extract`,
`pybabel init` and `pybabel update` do, with the same options every time. New or changed texts
arrive untranslated (or fuzzy): the catalog test fails until they are translated. The bot
compiles the `.po` files itself when it starts (`tgbot.i18n`), so there is no compile step.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from tgbot.i18n import CATALOGS, DOMAIN, LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("engine", "tgbot", "workers")
SKIPPED = ("standin", "locale", "__pycache__")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
WIDTH = 100


def extract() -> Catalog:
    """Every marked text of the code, in a template catalog."""
    template = Catalog(project="Hintrigue", domain=DOMAIN, fuzzy=False)
    for source in SOURCES:
        found = extract_from_dir(
            ROOT / source,
            keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True,
            directory_filter=lambda path: Path(path).name not in SKIPPED,
        )
        for filename, lineno, message, comments, context in found:
            template.add(
                message,
                locations=[(f"{source}/{filename}", lineno)],
                auto_comments=comments,
                context=context,
            )
    return template


def po_path(language: str) -> Path:
    """Where a language's catalog lives."""
    return LOCALE_DIR / CATALOGS[language] / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(language: str) -> Catalog:
    """A language's catalog as written."""
    with po_path(language).open("rb") as po:
        return read_po(po, locale=CATALOGS[language], domain=DOMAIN)


def update() -> list[Path]:
    """Write the template and bring every language's catalog up to it."""
    template = extract()
    LOCALE_DIR.mkdir(parents=True, exist_ok=True)
    with TEMPLATE.open("wb") as pot:
        write_po(pot, template, width=WIDTH, omit_header=False)
    written = []
    for language, locale in CATALOGS.items():
        path = po_path(language)
        if path.exists():
            catalog = read(language)
        else:
            catalog = Catalog(locale=locale, domain=DOMAIN, project="Hintrigue", fuzzy=False)
            path.parent.mkdir(parents=True, exist_ok=True)
        catalog.update(template)
        with path.open("wb") as po:
            write_po(po, catalog, width=WIDTH, ignore_obsolete=True)
        written.append(path)
    return written


def main() -> None:
    """Update the template and the catalogs; name what was written."""
    for path in update():
        print(path.relative_to(ROOT))
    print(TEMPLATE.relative_to(ROOT), file=sys.stderr)


if __name__ == "__main__":
    main()
