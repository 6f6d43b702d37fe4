"""The map region in the browser (static/js/map.js), drawn from a real Spies! view in Chromium:
every place drawn, marks of a fixed size on screen whatever the map's box, dots apart, labels
that do not cover each other, pieces at their places, each kind of route in its own style, and
places that moves name (a piece and where it goes) clickable."""

from __future__ import annotations

import copy
import math
from itertools import combinations

import pytest

from tests.web.mapview import SPIES, draw, layout_json, legal_json, spies_state

#: What the drawing shows, measured on the screen (CSS pixels).
MEASURE = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const svg = document.querySelector('svg.map');
  const places = [...svg.querySelectorAll('g.place')].map((g) => {
    const dot = box(g.querySelector('circle.place-dot'));
    const label = g.querySelector('text.place-label');
    return {
      name: g.dataset.place,
      x: dot.x + dot.w / 2, y: dot.y + dot.h / 2, r: dot.w / 2,
      can: g.classList.contains('can'),
      label: getComputedStyle(label).display === 'none' ? null : box(label),
      pieces: [...g.querySelectorAll('g.piece')].map((p) => ({
        label: p.dataset.piece, box: box(p.querySelector('rect')),
        fill: p.querySelector('rect').getAttribute('fill') })),
    };
  });
  const routes = {};
  for (const line of svg.querySelectorAll('line.route')) {
    const style = getComputedStyle(line);
    const look = [style.stroke, style.strokeDasharray].join(' / ');
    const key = line.dataset.style || '';
    (routes[key] = routes[key] || new Set()).add(look);
  }
  const frame = box(svg);
  const map = svg.spyglassMap;
  return {
    places, frame, px: map.px,
    widths: [...svg.querySelectorAll('line.route')].slice(0, 40)
      .map((l) => parseFloat(getComputedStyle(l).strokeWidth) * map.px),
    routes: Object.fromEntries(Object.entries(routes).map(([k, v]) => [k, [...v]])),
    legend: [...document.querySelectorAll('.map-legend .legend-item')].map((e) => e.textContent),
  };
}"""


#: Two frames: the map's resize observer has laid it out again.
SETTLE = "() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))"


def overlap(a: dict, b: dict) -> float:
    """How far two boxes overlap (the smaller of the two extents; 0 if apart)."""
    dx = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    dy = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return max(0.0, min(dx, dy))


@pytest.fixture(scope="module")
def spies():
    def a_spy_on_the_move(state) -> bool:
        # places outlined for a spy's moves, one of them reached by a single move
        targets = targets_of(state.view(state.current_player), legal_json(state))
        return len(targets) >= 5 and any(len(moves) == 1 for moves in targets.values())

    state = spies_state(until=a_spy_on_the_move)
    seat = state.current_player
    return state, seat, state.view(seat), layout_json(SPIES), legal_json(state)


def measured(page, view, layout, legal=(), board_width=None) -> dict:
    draw(page, view, layout, legal, board_width)
    return page.evaluate(MEASURE)


def test_every_place_is_drawn_with_a_dot_of_fixed_size_apart_from_the_others(
    web_server, new_page, spies
) -> None:
    _, _, view, layout, legal = spies
    page = new_page()
    page.goto(web_server.url + "/healthz")
    seen = measured(page, view, layout, legal)
    places = view["table"]["map"]["places"]
    assert sorted(p["name"] for p in seen["places"]) == sorted(p["label"] for p in places)
    assert len(places) >= 120
    # at 1300 x 900 the map takes the board's width
    assert 800 <= seen["frame"]["w"] <= 950
    for p in seen["places"]:
        assert 3.5 <= p["r"] <= 6, p
    # no two dots overlap (a pixel of anti-aliasing allowed), though some cities are 5 px apart
    for a, b in combinations(seen["places"], 2):
        assert math.dist((a["x"], a["y"]), (b["x"], b["y"])) >= a["r"] + b["r"] - 1, (a, b)
    # and each dot is nudged at most a few pixels from where the map puts it
    by_label = {p["label"]: p for p in places}
    for p in seen["places"]:
        true = by_label[p["name"]]
        x = seen["frame"]["x"] + true["x"] * seen["px"]
        y = seen["frame"]["y"] + true["y"] * seen["px"]
        assert math.dist((x, y), (p["x"], p["y"])) <= 6, p
    # the labels on show are legible and cover no other label; the rest show on hover
    shown = [p for p in seen["places"] if p["label"]]
    assert len(shown) >= 0.7 * len(places)
    for p in shown:
        assert p["label"]["h"] >= 9
    for a, b in combinations(shown, 2):
        if not (a["can"] or b["can"]):  # a move's target shows its name whatever it covers
            assert overlap(a["label"], b["label"]) <= 1, (a["name"], b["name"])
    assert not page.errors


def test_marks_keep_their_size_whatever_the_map_box(web_server, new_page, spies) -> None:
    _, _, view, layout, _ = spies
    page = new_page()
    page.goto(web_server.url + "/healthz")
    big = copy.deepcopy(view)
    box = big["table"]["map"]
    for place in box["places"]:
        place["x"] *= 10
        place["y"] *= 10
    box["width"] *= 10
    box["height"] *= 10
    sizes = {}
    for name, shown, board in (("wide", view, 1400), ("narrow", view, 420), ("x10", big, None)):
        seen = measured(page, shown, layout, board_width=board)
        sizes[name] = (
            sorted({round(p["r"], 1) for p in seen["places"]}),
            {round(p["pieces"][0]["box"]["h"], 1) for p in seen["places"] if p["pieces"]},
            seen["frame"]["w"],
        )
        # a route's stroke is 1 to 3 pixels wide at every scale
        assert all(1 <= w <= 3 for w in seen["widths"]), seen["widths"]
    assert sizes["wide"][2] > 2.5 * sizes["narrow"][2]  # the maps differ in size ...
    # ... and their dots and tokens do not
    assert sizes["wide"][:2] == sizes["narrow"][:2] == sizes["x10"][:2]
    assert all(3.5 <= r <= 6 for r in sizes["wide"][0])
    assert not page.errors


def test_pieces_sit_at_their_places_without_covering_each_other(
    web_server, new_page, spies
) -> None:
    _, _, view, layout, _ = spies
    page = new_page()
    page.goto(web_server.url + "/healthz")
    seen = measured(page, view, layout)
    labels = {p["id"]: p["label"] for p in view["table"]["map"]["places"]}
    expected: dict[str, list[str]] = {}
    for piece in view["table"]["map"]["pieces"]:
        expected.setdefault(labels[piece["place"]], []).append(piece["label"])
    drawn = {p["name"]: [t["label"] for t in p["pieces"]] for p in seen["places"] if p["pieces"]}
    assert drawn == expected
    assert max(len(v) for v in expected.values()) >= 3  # some places hold several
    for place in seen["places"]:
        tokens = place["pieces"]
        for t in tokens:
            b = t["box"]
            # beside the dot: its near edge a few pixels from the dot, its middle level with it
            near = min(abs(b["x"] - place["x"]), abs(b["x"] + b["w"] - place["x"]))
            assert near <= place["r"] + 4, (place["name"], t)
            assert b["y"] - 40 <= place["y"] <= b["y"] + b["h"] + 40
            assert 9 <= b["h"] <= 14
        for a, b in combinations(tokens, 2):
            assert overlap(a["box"], b["box"]) <= 0.5, (place["name"], a, b)
    # tokens are in their powers' colours
    colours = {p["label"]: p["colour"] for p in view["table"]["map"]["pieces"]}
    assert all(t["fill"] == colours[t["label"]] for p in seen["places"] for t in p["pieces"])
    assert not page.errors


def test_each_kind_of_route_has_its_own_style(web_server, new_page, spies) -> None:
    _, _, view, layout, _ = spies
    page = new_page()
    page.goto(web_server.url + "/healthz")
    seen = measured(page, view, layout)
    routes = seen["routes"]
    kinds = {r["style"] for r in view["table"]["map"]["routes"]}
    assert set(routes) == kinds == {"rail", "air", "port", "lane"}
    assert all(len(looks) == 1 for looks in routes.values())  # one look per kind
    looks = {kind: looks[0] for kind, looks in routes.items()}
    assert len(set(looks.values())) == len(looks)  # and no two kinds alike
    assert looks["rail"].endswith("/ none")  # rail solid
    assert not looks["air"].endswith("/ none")  # air dashed
    assert looks["port"].split(" / ")[0] == looks["lane"].split(" / ")[0]  # the sea's colour
    assert looks["air"].split(" / ")[0] != looks["rail"].split(" / ")[0]
    for name in ("rail", "air", "port", "sea lane", "capital", "sea"):
        assert name in seen["legend"]
    assert not page.errors


CLICK = """async (name) => {
  const g = document.querySelector(`svg.map g.place[data-place="${name}"]`);
  // another place under the pointer comes to the front
  const other = [...g.parentNode.children].find((x) => x !== g && x.nextSibling);
  other.querySelector('.place-dot').dispatchEvent(new PointerEvent('pointerover', {bubbles: true}));
  const raised = g.parentNode.lastElementChild === other;
  // reached by the keyboard, then under the pointer: it keeps the focus
  g.focus();
  g.dispatchEvent(new PointerEvent('pointerover', {bubbles: true}));
  const focused = document.activeElement === g;
  g.dispatchEvent(new MouseEvent('click', {bubbles: true}));
  await new Promise((ok) => requestAnimationFrame(ok));
  return {played: window.played, selected: g.classList.contains('sel'), focused, raised,
          choices: window.controller.choices().map((m) => m.notation)};
}"""


def targets_of(view: dict, legal: list[dict]) -> dict[str, list[str]]:
    """The moves by the place that ends their target (a piece, or a value, and a place)."""
    labels = {p["id"]: p["label"] for p in view["table"]["map"]["places"]}
    targets: dict[str, list[str]] = {}
    for move in legal:
        if isinstance(move["target"], list) and str(move["target"][-1]) in labels:
            targets.setdefault(labels[str(move["target"][-1])], []).append(move["notation"])
    return targets


def test_places_a_move_names_are_outlined_and_clicked(web_server, new_page, spies) -> None:
    _, _, view, layout, legal = spies
    page = new_page()
    page.goto(web_server.url + "/healthz")
    # a spy on the move: the places it may go to are outlined, and only those
    seen = measured(page, view, layout, legal)
    targets = targets_of(view, legal)
    assert len(targets) >= 5
    assert {p["name"] for p in seen["places"] if p["can"]} == set(targets)
    one = next(name for name, moves in targets.items() if len(moves) == 1)
    result = page.evaluate(CLICK, one)
    assert result["played"] == targets[one]
    assert result["focused"] and result["raised"]
    # set-up: several Secrets may go to each home city; a city clicked offers them by the board
    start = spies_state(moves=0)
    view = start.view(start.current_player)
    legal = legal_json(start)
    seen = measured(page, view, layout, legal)
    targets = targets_of(view, legal)
    assert {p["name"] for p in seen["places"] if p["can"]} == set(targets)
    several = next(name for name, moves in targets.items() if len(moves) > 1)
    result = page.evaluate(CLICK, several)
    assert result["selected"] and result["played"] == []
    assert sorted(result["choices"]) == sorted(targets[several])
    assert not page.errors


def test_zooming_in_spreads_the_places_not_their_marks(web_server, new_page, spies) -> None:
    _, _, view, layout, _ = spies
    page = new_page()
    page.goto(web_server.url + "/healthz")
    before = measured(page, view, layout)
    page.click('button[aria-label="zoom in"]')
    page.click('button[aria-label="zoom in"]')
    page.evaluate(SETTLE)
    after = page.evaluate(MEASURE)
    assert after["frame"]["w"] == pytest.approx(2 * before["frame"]["w"], rel=0.01)
    radii = [{round(p["r"], 1) for p in seen["places"]} for seen in (before, after)]
    assert radii[0] == radii[1]
    hidden = [sum(1 for p in seen["places"] if p["label"] is None) for seen in (before, after)]
    assert hidden[1] < hidden[0] / 2
    assert page.locator(".map-zoom-level").inner_text() == "200%"
    # a redraw (the next move) keeps the zoom
    draw(page, view, layout)
    assert page.locator(".map-zoom-level").inner_text() == "200%"
    assert not page.errors
