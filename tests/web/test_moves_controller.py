"""The board's click controller (frontend/src/moves.js), run in the real browser: a move on its way
to the server stays on its way while the page draws the same step again (in hot-seat, another
seat's news redraws the board before the answer comes)."""

from __future__ import annotations

from tests.web.browser import KIT

SCRIPT = """async (kit) => {
  const { MoveController } = await import(kit);
  const drawing = () => {
    const root = document.createElement('div');
    const el = document.createElement('span');
    root.append(el);
    document.body.append(root);
    return { root, cards: [{ label: '3D', el }], places: [], placesFor: () => [] };
  };
  const sent = [];
  const legal = [{ notation: '3D on 2', labels: ['3D'], target: 2 }];
  const c = new MoveController({ onPlay: (a) => sent.push(a.notation) });
  const seen = {};
  let reg = drawing();
  c.update(legal, reg, 22);
  seen.canBefore = reg.cards[0].el.classList.contains('can');
  reg.cards[0].el.click();
  seen.sent = [...sent];
  c.wait(22);
  // the same step drawn again before the answer
  reg = drawing();
  c.update(legal, reg, 22);
  seen.pendingAfterRedraw = c.pending;
  seen.rootPending = reg.root.classList.contains('pending');
  seen.canWhilePending = reg.cards[0].el.classList.contains('can');
  reg.cards[0].el.click();
  seen.sentAgain = sent.length;
  // the answer: a later step
  reg = drawing();
  c.update(legal, reg, 23);
  seen.pendingAfterAnswer = c.pending;
  seen.canAfterAnswer = reg.cards[0].el.classList.contains('can');
  // refused, or the link lost: the same moves open again
  c.wait(23);
  c.resume();
  seen.pendingAfterResume = c.pending;
  return seen;
}"""


def test_a_redraw_of_the_same_step_keeps_the_sent_move_pending(web_server, new_page) -> None:
    page = new_page()
    page.goto(f"{web_server.url}/")
    seen = page.evaluate(SCRIPT, KIT)
    assert seen["canBefore"] is True
    assert seen["sent"] == ["3D on 2"]
    assert seen["pendingAfterRedraw"] is True
    assert seen["rootPending"] is True
    assert seen["canWhilePending"] is False
    assert seen["sentAgain"] == 1  # nothing is clickable while the move is on its way
    assert seen["pendingAfterAnswer"] is False
    assert seen["canAfterAnswer"] is True
    assert seen["pendingAfterResume"] is False
    assert not page.errors
