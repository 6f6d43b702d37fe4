"""The Spies! table beside its map, drawn in Chromium from real views by the page's own renderer
and move controller: the banner of a question put to a seat in another power's turn (and what
the other seats see of it), the offer panel as an offer is built, the Action Point track, and
every legal move of a whole game reachable from the page (a place to click, or a button by the
board), never only from the list of moves."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from tests.games.spies.helpers import give, moving_position
from tests.web.mapview import SPIES, draw, layout_json, legal_json, spies_state

pytestmark = pytest.mark.slow

#: What the page drew: the banner, the offer panel, the track, the outlined places, and the
#: moves the page offers (by a place, or as a button by the board).
SEEN = """() => {
  const region = (key) => document.querySelector(`[data-key="${key}"]`);
  const banner = document.querySelector('[data-key="prompt"] .banner');
  const track = document.querySelector('[data-key="action_track"] .track');
  const columns = [...document.querySelectorAll('[data-key="offer_panel"] .column')];
  const reg = window.reg;
  const controller = window.controller;
  const buttons = new Set(controller.choices().map((m) => m.notation));
  const reachable = {};
  for (const move of controller.legal) {
    const places = reg.placesFor(move.target).map((p) => p.name);
    reachable[move.notation] = buttons.has(move.notation) ? ['button'] : places;
  }
  return {
    banner: banner && {
      cls: banner.className,
      role: banner.getAttribute('role'),
      title: banner.querySelector('.banner-title').textContent,
      lines: [...banner.querySelectorAll('.banner-line')].map((e) => e.textContent),
      choices: [...banner.querySelectorAll('.banner-choices li')].map((e) => e.textContent),
    },
    track: track && {used: Number(track.dataset.used), left: Number(track.dataset.left),
      spent: track.querySelectorAll('.track-space.spent').length,
      open: track.querySelectorAll('.track-space.open').length,
      caption: track.querySelector('.track-caption').textContent},
    columns: columns.map((c) => ({
      title: c.querySelector('.column-title').textContent,
      cards: [...c.querySelectorAll('.cardwrap')].map((e) => e.dataset.card)})),
    bank: region('bank') && [...region('bank').querySelectorAll('.chip')].map((c) => ({
      name: c.dataset.place, text: c.textContent, can: c.classList.contains('can')})),
    record: region('record') && region('record').innerText,
    reachable,
  };
}"""

CLICK_CHIP = """(name) => {
  const chip = document.querySelector(`[data-key="bank"] .chip[data-place="${name}"]`);
  chip.dispatchEvent(new MouseEvent('click', {bubbles: true}));
  return window.played;
}"""


@pytest.fixture
def page(web_server, new_page) -> Any:
    page = new_page(1300, 1000)
    page.goto(web_server.url + "/healthz")
    return page


def shown(page: Any, state: Any, seat: int | None) -> dict[str, Any]:
    """Draw ``state`` as ``seat`` sees it (with its moves when it is to move)."""
    legal = legal_json(state) if seat == state.current_player else []
    draw(page, state.view(seat), layout_json(SPIES), legal)
    return page.evaluate(SEEN)


def test_a_search_of_the_seats_spy_is_a_banner_with_its_choices(page) -> None:
    state = moving_position(
        {"Ge1": "Berlin", "Fr1": "Berlin"}, police={"GeP1": (3, "Berlin")}, phase="search"
    )
    give(state, "France", "Papers", "Cover")
    state.apply("search Fr1")
    assert state.current_player == 3  # France answers in Germany's turn
    seen = shown(page, state, 3)
    banner = seen["banner"]
    # it stands out, but is not a live region of its own: a table's status line is the one
    # that says "Your move" (tests/web/test_keyboard.py)
    assert "banner-yours" in banner["cls"] and banner["role"] is None
    assert banner["title"] == (
        "You are asked (France): Germany's police search for France's spy Fr1 in Berlin."
    )
    assert banner["lines"] == ["France may answer a search of Fr1 with Papers or Escape or "
                               "Cover, or pass."]  # fmt: skip
    legal = [str(a) for a in state.legal_actions()]
    assert sorted(legal) == ["Cover", "Papers", "pass"]
    assert [c.split(":")[0] for c in banner["choices"]] == legal
    # each answer is a button by the board
    assert all(seen["reachable"][n] == ["button"] for n in legal), seen["reachable"]
    # Germany, whose turn it is, waits: the same story, no choices, nothing of France's hand
    seen = shown(page, state, 0)
    banner = seen["banner"]
    assert "banner-waiting" in banner["cls"] and banner["role"] is None
    assert banner["title"] == "Germany's police search for France's spy Fr1 in Berlin."
    assert banner["lines"][-1] == "Waiting for seat 3 (France) to answer."
    assert banner["choices"] == []
    assert not page.errors


def test_an_offer_is_built_in_a_panel_and_answered_from_a_banner(page) -> None:
    state = moving_position({"Ge1": "Berlin"})
    give(state, "France", "Papers")
    seen = shown(page, state, 0)
    # the bank names every power's money; the powers Germany may approach are outlined there
    assert [b["name"] for b in seen["bank"]] == ["Germany", "Italy", "Russia", "France", "Britain"]
    assert [b["can"] for b in seen["bank"]] == [False, True, True, True, True]
    assert seen["reachable"]["approach France"] == ["France"]
    assert page.evaluate(CLICK_CHIP, "France") == ["approach France"]
    state.apply("approach France")
    seen = shown(page, state, 0)
    assert seen["columns"] == [
        {"title": "Germany gives (being built)", "cards": []},
        {"title": "Germany asks of France", "cards": []},
    ]
    assert seen["track"]["used"] == 1  # the approach's Action Point
    assert seen["reachable"]["offer £5"] == ["button"]
    state.apply("offer £5")
    state.apply("ask Papers")
    seen = shown(page, state, 0)
    assert [c["cards"] for c in seen["columns"]] == [["£5"], ["Papers"]]
    assert seen["reachable"]["send"] == seen["reachable"]["withdraw"] == ["button"]
    # France sees nothing of it until it is sent
    assert shown(page, state, 3)["columns"] == []
    state.apply("send")
    seen = shown(page, state, 3)
    assert seen["columns"][0] == {"title": "Germany gives (offered)", "cards": ["£5"]}
    assert seen["banner"]["title"] == "You are asked (France): Germany makes France an offer."
    assert "Germany gives: £5." in seen["banner"]["lines"]
    assert "Germany asks: Papers." in seen["banner"]["lines"]
    assert seen["reachable"]["accept"] == seen["reachable"]["refuse"] == ["button"]
    # a third seat: that an offer is made, not what it holds
    seen = shown(page, state, 1)
    assert seen["columns"] == [] and "£5" not in " ".join(seen["banner"]["lines"])
    assert not page.errors


def test_the_action_point_track_shows_the_points_spent_and_left(page) -> None:
    state = moving_position({"Ge1": "Berlin"})
    state.apply("Ge1 Dresden")
    state.apply("approach Italy")
    track = shown(page, state, 2)["track"]
    assert track == {"used": 2, "left": 10, "spent": 2, "open": 10,
                     "caption": "1933, Germany: 10 of 12 left"}  # fmt: skip
    assert not page.errors


def test_every_move_of_a_game_can_be_made_from_the_page(page) -> None:
    """Along a random five-power game (set-up, tiles, police, searches, movement, chits,
    offers, answers), every legal move is a place to click or a button by the board."""
    rng = random.Random(7)
    state = spies_state(players=5, seed=7, moves=0)
    kinds: Counter[str] = Counter()
    drawn = 0
    last_kinds: set[str] = set()
    while not state.is_over and state.step < 900:
        legal = state.legal_actions()
        moves = {a.kind for a in legal}
        # draw each new kind of decision, and every 25th position besides
        if not moves <= last_kinds or state.step % 25 == 0:
            seen = shown(page, state, state.current_player)
            drawn += 1
            for move in legal_json(state):
                assert seen["reachable"][move["notation"]], (state.step, move["notation"])
                kinds[move["kind"]] += 1
            last_kinds |= moves
        state.apply(rng.choice(legal))
    assert drawn >= 20
    must = {"secret", "police", "spy", "play", "discard", "relocate", "done", "search", "move",
            "end", "approach", "offer", "ask", "send", "withdraw", "accept", "refuse", "pass",
            "chit", "control"}  # fmt: skip
    assert must <= set(kinds), must - set(kinds)
    assert not page.errors
