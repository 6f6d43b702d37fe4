"""The end screen's score breakdown in the browser (issue 25): a seat's detail that holds a sheet
per power (Spies!) is shown item by item, a row per seat and power, not squashed into one cell;
a flat detail (every other game) keeps a row per seat.

Skips without Chromium locally; fails without it under CI."""

from __future__ import annotations

import pytest

from tests.web.browser import KIT

pytestmark = pytest.mark.slow

#: Each cell's text as shown (words for screen readers only left out), and the spans of the
#: row headers that cover several rows.
SCRIPT = """async ([result, kit]) => {
  const { resultPanel } = await import(kit);
  const seats = [{ name: 'Ada' }, { name: 'Bo' }];
  const panel = resultPanel(result, seats);
  document.body.append(panel);
  const text = (el) => {
    const copy = el.cloneNode(true);
    for (const hidden of copy.querySelectorAll('.visually-hidden')) hidden.remove();
    return copy.textContent.trim();
  };
  return {
    head: [...panel.querySelectorAll('thead th')].map(text),
    rows: [...panel.querySelectorAll('tbody tr')].map((r) => [...r.children].map(text)),
    spans: [...panel.querySelectorAll('tbody [rowspan]')].map((c) => [text(c), c.rowSpan]),
    spoken: [...panel.querySelectorAll('tbody th')].map((c) => c.textContent.trim()),
  };
}"""

SHEET = {
    "points": 53,
    "secrets_at_home": 24,
    "home_multiple": "1939 ×2",
    "secrets_cashed": 5,
    "spies_captured": 0,
}


def test_a_sheet_per_power_is_shown_item_by_item(web_server, new_page) -> None:
    page = new_page()
    page.goto(web_server.url)
    result = {
        "summary": "Ada wins",
        "scores": [75, 40],
        "winners": [0],
        "detail": [
            {"Germany": SHEET, "Italy": {**SHEET, "points": 22, "secrets_at_home": 8}},
            {"Britain": {**SHEET, "points": 40, "alliance_penalty": -20}},
        ],
    }
    shown = page.evaluate(SCRIPT, [result, KIT])
    assert shown["head"] == [
        "seat",
        "power",
        "points",
        "secrets at home",
        "home multiple",
        "secrets cashed",
        "spies captured",
        "alliance penalty",
        "score",
    ]
    # Ada's name and score span her two powers' rows
    assert shown["rows"] == [
        ["Ada ★", "Germany", "53", "24", "1939 ×2", "5", "0", "", "75"],
        ["Italy", "22", "8", "1939 ×2", "5", "0", ""],
        ["Bo", "Britain", "40", "24", "1939 ×2", "5", "0", "-20", "40"],
    ]
    assert shown["spans"] == [["Ada ★", 2], ["75", 2]]
    assert shown["spoken"][0] == "Ada ★(winner)"  # the star is said as a word
    assert not page.errors


def test_a_flat_detail_keeps_a_row_per_seat(web_server, new_page) -> None:
    page = new_page()
    page.goto(web_server.url)
    result = {
        "summary": "Bo wins",
        "scores": [3, 7],
        "winners": [1],
        "detail": [{"cities": 1, "hand": ["A♠"]}, {"cities": 2, "hand": []}],
    }
    shown = page.evaluate(SCRIPT, [result, KIT])
    assert shown["head"] == ["seat", "cities", "hand", "score"]
    assert shown["rows"] == [["Ada", "1", "A♠", "3"], ["Bo ★", "2", "—", "7"]]
