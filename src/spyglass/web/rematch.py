"""Rematch: after a game, the same people and options at a new table, seats rotated, a new
deal.

Any seated player of a finished table may ask for its rematch. The first request makes it: a
new table with the same game, options, privacy and players; the person or bot of seat *s*
sits in seat *s + 1* (the last in seat 0), so who starts changes; a fresh seed. Bots keep their
agents and budgets; seats of accounts stay their accounts'. The old table's ``rematch`` names
the new one, set in the same transaction that creates it only if the old table has none (a
compare-and-set, also between processes): two players asking at once get one rematch.

**Each person's seat reaches only that person.** The new table's people's seats start with no
token and no invite. A player asks for theirs with their token of the old table (the same
request that may have made the rematch): the server mints the token of the matching new seat
and hands it to that request alone. Asked again with the old token (a second tab, an answer
lost), it mints a new one and the earlier stops working, as *New key for this browser* does.
An account's other devices use device keys to the new seat, as at any table.
"""

from __future__ import annotations

from dataclasses import dataclass

import spyglass
from spyglass.engine import fresh_seed

from . import auth
from .manager import TableManager
from .names import bot_name, default_name
from .store import Conflict, Job, SeatRow, TableRow, seats_t
from .tables import BOT, HUMAN, LiveTable, TableError


@dataclass(frozen=True, slots=True)
class Seated:
    """The caller's seat in a rematch: its token (for the caller alone) and, for the player
    whose request made the rematch, its host key and the invites of seats nobody held."""

    table: LiveTable
    seat: int
    token: str
    host_key: str | None = None
    invites: dict[int, str] | None = None


def next_seat(seat: int, players: int) -> int:
    """Where the occupant of ``seat`` sits in the rematch: one seat on."""
    return (seat + 1) % players


def _moved(old: SeatRow, seat: int) -> SeatRow:
    """The occupant of ``old`` in ``seat``: a default name follows the seat's number (``seat 1``
    in seat 2 would pass for another seat), a chosen one stays."""
    if old.kind == BOT:
        assert old.agent is not None
        name = bot_name(seat, old.agent) if old.name == bot_name(old.seat, old.agent) else old.name
        return SeatRow(seat, BOT, name, old.agent, old.budget)
    name = default_name(seat) if old.name == default_name(old.seat) else old.name
    return SeatRow(seat, HUMAN, name, account_id=old.account_id, account=old.account)


async def rematch(manager: TableManager, table: LiveTable, seat: int) -> Seated:
    """The caller (proved to sit in ``seat`` of the finished ``table``) gets their seat in its
    rematch, made now if nobody asked before."""
    manager.writable(table)
    if not table.over:
        raise TableError(409, "a rematch is for a finished game")
    if table.is_bot(seat):
        raise TableError(403, f"seat {seat} is played by a bot")
    host_key = invites = None
    if table.row.rematch is None:
        made = await manager.whole(_make(manager, table))
        if made is not None:
            host_key, invites = made
    assert table.row.rematch is not None
    new_seat = next_seat(seat, table.state.players)
    token = auth.new_token()
    async with manager.hold(table.row.rematch) as new:
        await manager.run_db(_set_token, manager, new.id, new_seat, auth.token_hash(token))
        await manager.reload_seats(new.id)
    return Seated(new, new_seat, token, host_key, invites)


async def _make(manager: TableManager, old: LiveTable) -> tuple[str, dict[int, str]] | None:
    """Make the rematch of ``old`` unless another request or process did: its host key and
    the invites of the seats nobody held, or None (the other's rematch is linked)."""
    async with old.lock:
        if old.row.rematch is not None:
            return None
        players = old.state.players
        game = spyglass.load(old.row.game, **old.row.options)
        state = game.new_state(players=players, seed=fresh_seed())
        record = state.record()
        seats: list[SeatRow] = [SeatRow(i, HUMAN, default_name(i)) for i in range(players)]
        invites: dict[int, str] = {}
        for before in old.row.seats:
            moved = _moved(before, next_seat(before.seat, players))
            if moved.kind == HUMAN and before.token_hash is None and not before.keys:
                # nobody held the seat (its invite was never used): a new invite, for the
                # player who made the rematch to pass on, as a table's creator does
                invite = auth.new_token()
                invites[moved.seat] = invite
                moved.invite_hash = auth.token_hash(invite)
            seats[moved.seat] = moved
        host_key = auth.new_token()
        row = TableRow(
            id=auth.new_table_id(),
            game=old.row.game,
            options=dict(record["options"]),
            players=players,
            seed=record["seed"],
            decks=record["decks"],
            seats=seats,
            private=old.row.private,
            host_hash=auth.token_hash(host_key),
        )
        new = LiveTable(row=row, state=state)
        row.waiting = new.waiting()
        row.to_move = state.current_player
        job = manager.bot_job(new)
        try:
            await manager.run_db(_create, manager, row, job, old.id)
        except Conflict:
            # another process made it first: its id is in the database
            rows = await manager.run_db(manager.store.load, old.id)
            old.row.rematch = rows[0].rematch
            made = None
        else:
            old.row.rematch = row.id
            manager.adopt(new)
            made = (host_key, invites)
        old.touched()
    manager.broadcast(old)  # every page at the old table learns where the rematch is
    return made


def _create(manager: TableManager, row: TableRow, job: Job | None, old_id: str) -> None:
    manager.store.create(row, job, rematch_of=old_id)


def _set_token(manager: TableManager, table_id: str, seat: int, token_hash: str) -> None:
    """The rematch seat's token: the one just minted replaces any earlier (and its invite)."""
    store = manager.store
    with store.engine.begin() as conn:
        conn.execute(
            seats_t.update()
            .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
            .values(token_hash=token_hash, invite_hash=None)
        )
        store.note(conn, table_id, "seats")
