"""A game's RULES.md as HTML for the rules panel (rendered here: no script from elsewhere)."""

from __future__ import annotations

from functools import lru_cache

from markdown_it import MarkdownIt

import spyglass

# Raw HTML in the Markdown is shown as text, never passed through: the page stays ours.
_MD = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable(
    "table"
)


@lru_cache(maxsize=64)
def rules_html(game_id: str) -> tuple[str, str]:
    """(markdown, html) of the game's rules; RulesError for an unknown game."""
    text = spyglass.load(game_id).rules_text()
    return text, _MD.render(text)
