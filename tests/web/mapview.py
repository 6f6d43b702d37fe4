"""Drawing a layout in the browser outside a table: the page's own stylesheet and renderer, the
table page's board and side column around it. For the map tests and the docs' Spies! picture
(Spies! is not in the catalogue yet, so no table of it can be opened)."""

from __future__ import annotations

import random
from dataclasses import asdict
from typing import Any

from spyglass.engine import Game, State
from spyglass.games.spies import SPEC as SPIES
from spyglass.web.tables import describe_action
from tests.web.browser import KIT, TABLE_CSS

#: Builds the table page's frame, draws ``layout`` from ``view`` on its board, and waits for the
#: map drawings to settle at their laid-out width (two frames: their resize observers have run).
DRAW = """async ([view, layout, legal, boardWidth, kit, style]) => {
  if (!document.querySelector(`link[href="${style}"]`)) {
    const css = document.createElement('link');
    css.rel = 'stylesheet';
    css.href = style;
    const loaded = new Promise((ok) => { css.onload = ok; });
    document.head.append(css);
    await loaded;
  }
  document.body.innerHTML = `<main><div class="table-body"><div class="board-col">
    <div class="choice-bar"></div><div class="board" id="board"></div></div>
    <aside class="side"><section class="moves">moves</section></aside></div></main>`;
  const board = document.getElementById('board');
  if (boardWidth) {
    document.querySelector('.table-body').style.gridTemplateColumns = `${boardWidth}px 340px`;
  }
  const { renderTable, MoveController } = await import(kit);
  const reg = renderTable(board, view, layout, {});
  window.played = [];
  window.controller = new MoveController({ onPlay: (m) => window.played.push(m.notation) });
  window.controller.update(legal, reg);
  window.reg = reg;
  await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
  return true;
}"""


def layout_json(spec: Any) -> list[dict[str, Any]]:
    """A layout as ``/api/games`` serves it."""
    return [asdict(region) for region in spec.layout]


def legal_json(state: State) -> list[dict[str, Any]]:
    """The legal moves as a state message lists them."""
    return [describe_action(state, action) for action in state.legal_actions()]


def spies_state(
    players: int = 3, seed: int = 5, moves: int = 200, until: Any = None, limit: int = 5000
) -> State:
    """A Spies! game under way: set-up done and some turns played, each move drawn at random
    from the legal ones with a fixed seed (the same state every time); with ``until``, play on
    from there to the first state it accepts (at most ``limit`` moves in all)."""
    state = Game(SPIES).new_state(players=players, seed=seed)
    rng = random.Random(seed)
    for played in range(limit):
        if state.is_over or (played >= moves and (until is None or until(state))):
            break
        state.apply(rng.choice(state.legal_actions()))
    assert until is None or until(state), "no such state in a random game"
    return state


def draw(page: Any, view: dict[str, Any], layout: list[dict], legal=(), board_width=None) -> None:
    """Draw ``view`` by ``layout`` on a board (``board_width`` pixels wide if given) of a page
    already open on the server."""
    page.evaluate(DRAW, [view, layout, list(legal), board_width, KIT, TABLE_CSS])
