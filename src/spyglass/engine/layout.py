"""How a table is laid out: the regions a renderer draws from a view.

A game declares its layout once; the terminal (and later the browser) draws every game from its
view and its layout, so a new game needs no renderer of its own. ``key`` is a dotted path into
``view["table"]``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Region:
    """One region of the table.

    kinds:
      ``cards``   a row of face-up cards (list of card notations; None for a face-down card)
      ``pile``    a pile shown by its size and, if ``show`` is "top", its top card, or all
                  its cards in order when ``show`` is "all" (the last is the top); the value
                  may also be {"size": n, "top": card or None} for a pile seen from above
      ``count``   a number
      ``text``    a value printed as it is
      ``columns`` side-by-side columns: a list of {"title": ..., part: [cards], ...}, with
                  ``parts`` naming the card lists of each column, drawn one under the other
      ``grid``    a grid of spaces: {"cells": [[cell, ...], ...], "col_labels": [...],
                  "row_labels": [...]} (labels optional), or just the list of rows. A cell is
                  None (an empty space), a list of cards (a stack, bottom first; None for a
                  face-down card), a string (a marker), or {"cards": [...], "note": "...",
                  "style": "target" | "guess" | "revealed" | "dim"} (note and style optional)
      ``rows``    labelled rows of cards, one per line (queues, a row of kingdoms): a list of
                  {"title": ..., "cards": [...], "note": ...}; "note" is optional
      ``story``   a sequence to step through, e.g. a scored round replayed row by row:
                  {"id": ..., "title": ..., "steps": [{"title": ..., "lines": [...]}, ...]}
                  or None. The table shows its title; a player is walked through each new
                  story (a new ``id``) once.
      ``map``     places, routes and pieces for board games: {"places": [{"id", "label", "x",
                  "y", "style", "group"}], "routes": [{"from", "to", "label", "style"}],
                  "pieces": [{"place", "owner", "label", "colour"}], "width", "height"}.
                  x and y lie in the box of width by height. "group" (optional) gathers
                  places in the terminal's listing (a country, say); without it they are
                  gathered by "style". A route joins its two places both ways; its style
                  names its kind (rail, road, air, sea, port and lane have their own looks,
                  other styles get distinct ones). A move's target names a place by its id
                  or label, or is a list whose last item does (a piece and where it goes).
                  See docs/web.md
      ``track``   a numbered track of spaces, some used (a turn's Action Points): {"spaces": n,
                  "used": k, "caption": "..."}, spaces 1..k drawn spent and the rest open; or
                  a list of those, each with a "title" (caption and title optional)
      ``banner``  a notice that stands out above the table (a decision asked of the seat, or
                  one it waits for): {"title": ..., "lines": [...], "choices": [...],
                  "style": "yours" | "waiting"} or None; lines, choices and style optional.
                  The choices are words for people: the moves themselves stay in the list

    ``command``: a long reference that the terminal does not draw with every table but shows
    when the player types this word (Spies!'s ``tiles``: the Event Tile manifest); the browser
    draws it as a panel like any other region.
    """

    kind: str
    key: str
    label: str = ""
    show: str = "all"
    parts: tuple[str, ...] = ()
    hide_empty: bool = False
    command: str = ""
