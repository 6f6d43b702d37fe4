"""Seats in the browser (issue 24): a host re-invites a seat whose player lost access, a player
replaces their own key, and the API reference works offline under the page's
Content-Security-Policy."""

from __future__ import annotations

from tests.web.browser import PATIENCE_MS, TableDriver, open_lobby_form, set_seats, start_table


def make_online_table(base: str, new_page) -> tuple[object, str]:
    host = new_page()
    open_lobby_form(host, base, "espionage")
    set_seats(host, 3, {0: "here", 1: "invite", 2: "bot"})
    host.fill("#seed", "21")
    start_table(host)
    link = host.locator('.invite-link[data-seat="1"]').input_value()
    host.locator(".dialog a.button.primary").click()
    host.wait_for_selector(".table-page")
    return host, link


def test_the_host_reinvites_a_seat_and_its_old_holder_loses_it(web_server, new_page) -> None:
    base = web_server.url
    host, link = make_online_table(base, new_page)
    lost = new_page()
    lost.goto(link)
    lost.wait_for_selector('.table-page[data-seat="1"]')
    old = TableDriver(lost, base).tokens()[1]

    host.locator("button#seats").click()
    host.wait_for_selector(".seats-dialog")
    host.locator('.seats-dialog button.reinvite[data-seat="1"]').click()
    new_link = host.locator(".seats-dialog .invite-out .invite-link").input_value()
    assert "#invite=" in new_link and new_link != link

    # the old holder is told at once, and its browser forgets the key
    lost.wait_for_selector("text=You no longer hold this seat", timeout=PATIENCE_MS)
    assert "invited someone else" in lost.locator(".error-page").inner_text()
    assert 1 not in TableDriver(lost, base).tokens()
    # the new link seats its opener; the old key and the old link are dead
    found = new_page()
    found.goto(new_link)
    found.wait_for_selector('.table-page[data-seat="1"]')
    assert TableDriver(found, base).tokens()[1] != old
    again = new_page()
    again.goto(link)
    again.wait_for_selector('.table-page[data-seat="watch"]')
    for page in (host, lost, found, again):
        assert not page.errors


def test_a_player_replaces_their_own_key_and_plays_on(web_server, new_page) -> None:
    base = web_server.url
    _host, link = make_online_table(base, new_page)
    guest = new_page()
    guest.goto(link)
    guest.wait_for_selector('.table-page[data-seat="1"]')
    before = TableDriver(guest, base).tokens()[1]
    guest.locator("button#seats").click()
    guest.locator('.seats-dialog button.rotate[data-seat="1"]').click()
    guest.wait_for_function(
        "([id, old]) => JSON.parse(localStorage.getItem('spyglass.seats.' + id))[1] !== old",
        arg=[TableDriver(guest, base).table_id, before],
        timeout=PATIENCE_MS,
    )
    guest.keyboard.press("Escape")
    guest.reload()
    guest.wait_for_selector('.table-page[data-seat="1"]')
    assert TableDriver(guest, base).tokens()[1] != before
    assert not guest.errors


def test_the_api_reference_renders_offline_under_the_csp(web_server, new_page) -> None:
    page = new_page()
    elsewhere = []
    violations = []
    page.on(
        "request",
        lambda r: (
            elsewhere.append(r.url)
            if "127.0.0.1" not in r.url and r.url.startswith("http")
            else None
        ),
    )
    page.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.goto(f"{web_server.url}/api/docs")
    page.wait_for_selector(".swagger-ui .info .title", timeout=PATIENCE_MS)
    assert "spyglass" in page.locator(".swagger-ui .info .title").inner_text()
    page.get_by_text("/api/tables/{table_id}/claim", exact=True).first.wait_for()
    assert not elsewhere, elsewhere
    assert not violations, violations
