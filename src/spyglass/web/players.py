"""Players: what accounts do with tables. Sign up, log in and out; bind seats to an account by
proving their tokens; mint a device key to an account's seat; *Your games*; profiles.

The rules of accounts, sessions and CSRF are in :mod:`.accounts`; this module joins them to
the table manager, the one authority over tables: every change to a live table's seats goes
through :meth:`TableManager.reload_seats`, which also closes the connections whose key died.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import spyglass

from . import auth
from .accounts import (
    Account,
    AccountError,
    AccountRates,
    AccountSettings,
    AccountStore,
    Passwords,
    Session,
    check_password,
)
from .manager import TableManager
from .names import BadName, check_unique, clean_account_name, clean_name, name_keys, named
from .ratings import ranks
from .store import ARCHIVED, OVER, PLAYING, WAITING_PLAYERS
from .tables import HUMAN, TableError

HISTORY = 50  # finished games a profile lists by default


@dataclass(frozen=True, slots=True)
class SeatProof:
    """A seat token a browser holds, brought to an account."""

    table: str
    token: str


class Players:
    """The accounts of one server process, over the table manager's database."""

    def __init__(
        self,
        manager: TableManager,
        settings: AccountSettings | None = None,
        passwords: Passwords | None = None,
    ) -> None:
        self.manager = manager
        self.settings = settings or AccountSettings()
        self.passwords = passwords or Passwords()
        self.rates = AccountRates(self.settings)
        self.db = AccountStore(manager.store)

    # ------------------------------------------------------------------ accounts

    async def sign_up(self, name: str, password: str, client: str) -> Account:
        try:
            name = clean_account_name(name)
        except BadName as error:
            raise AccountError(422, str(error)) from None
        password = check_password(password, name)
        self.rates.take("signups", client, "new accounts from your address")
        hashed = await self.passwords.hash(password)
        return await self.manager.run_db(self.db.create_account, name, hashed)

    async def log_in(self, name: str, password: str, client: str) -> Account:
        """The account, or 401 for a wrong name or password (the same answer for both, in
        the same time); rate limited per address and per name's failures."""
        self.rates.take("logins", client, "log-in attempts from your address")
        key = name_keys(name)[0]
        self.rates.check("failures", key, "failed log-ins for this name")
        found = await self.manager.run_db(self.db.find, name)
        ok = await self.passwords.verify(None if found is None else found[1], password)
        if found is None or not ok:
            self.rates.hit("failures", key)
            raise AccountError(401, "wrong name or password")
        account, stored = found
        if self.passwords.needs_rehash(stored):
            hashed = await self.passwords.hash(password)
            await self.manager.run_db(self.db.set_password_hash, account.id, hashed)
        return account

    async def open_session(self, account: Account) -> str:
        """A new session: its id, for the cookie alone (the database keeps its hash)."""
        session_id = auth.new_token()
        await self.manager.run_db(
            self.db.create_session,
            account.id,
            auth.token_hash(session_id),
            self.settings.session_days,
        )
        return session_id

    async def session(self, session_id: str | None) -> Session | None:
        if not session_id or len(session_id) > 128:
            return None
        return await self.manager.run_db(
            self.db.session, auth.token_hash(session_id), self.settings.session_days
        )

    async def log_out(self, session: Session, everywhere: bool = False) -> int:
        """End this session (or every session of its account) and the device keys minted
        for it; the connections that used them are closed. Returns the tables touched."""
        tables = await self.manager.run_db(
            self.db.end_sessions, session.account.id, None if everywhere else session.id_hash
        )
        for table_id in tables:
            await self.manager.reload_seats(table_id)
        return len(tables)

    # ------------------------------------------------------------------ seats

    async def keep(
        self, account: Account, proofs: Sequence[SeatProof]
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Bind to the account each seat whose token the browser proves it holds: the tables
        a guest played follow them into their account. Returns what was kept and what was
        refused, and why (one bad token refuses only itself)."""
        kept: list[dict[str, Any]] = []
        refused: list[dict[str, Any]] = []
        for proof in proofs:
            try:
                seat = await self._keep_one(account, proof)
            except (TableError, AccountError) as error:
                refused.append({"table": proof.table, "error": error.message})
            else:
                kept.append({"table": proof.table, "seat": seat})
        return kept, refused

    async def _keep_one(self, account: Account, proof: SeatProof) -> int:
        manager = self.manager
        async with manager.hold(proof.table) as table:
            seat = await manager.identify(table, proof.token)
            if seat is None:
                raise TableError(422, "a seat's token is needed")
            row = table.seat_row(seat)
            if row.kind != HUMAN:
                raise TableError(403, "a bot's seat belongs to no account")
            for other in table.row.seats:
                if other.account_id == account.id and other.seat != seat:
                    raise TableError(
                        409, f"your account already holds seat {other.seat} at this table"
                    )
            if row.account_id == account.id:
                return seat
            # The seat takes the account's name, unless another seat reads the same.
            name: str | None = account.name
            try:
                check_unique(
                    (s.seat, account.name if s.seat == seat else s.name) for s in table.row.seats
                )
            except BadName:
                name = None
            if not await manager.run_db(self.db.bind, table.id, seat, account.id, name):
                raise TableError(409, "this seat belongs to another account")
        await manager.reload_seats(proof.table)
        return seat

    async def device_key(self, session: Session, table_id: str) -> tuple[int, str]:
        """A seat token for this device, to the seat the session's account holds at a
        table: how a logged-in player sits at their tables from any device. It replaces this
        session's earlier key to that seat; the seat's own token and the keys of the
        account's other devices keep working."""
        manager = self.manager
        async with manager.hold(table_id) as table:
            mine = [s.seat for s in table.row.seats if s.account_id == session.account.id]
            if not mine:
                raise TableError(403, "your account holds no seat at this table")
            seat = mine[0]
            token = auth.new_token()
            await manager.run_db(
                self.db.set_key, table.id, seat, session.id_hash, auth.token_hash(token)
            )
        await manager.reload_seats(table_id)
        return seat, token

    async def check_guest_names(self, names: Sequence[str], account: Account | None) -> None:
        """422 if a name given to a seat reads as a registered player's name (other than the
        logged-in creator's own): a guest cannot pass for someone with an account."""
        clean = []
        for seat, name in enumerate(names):
            try:
                clean.append(clean_name(name, seat))
            except BadName:
                continue  # refused as it is by the table's own check, with its reason
        taken = await self.manager.run_db(self.db.names_taken, clean)
        for name, owner in taken.items():
            if account is None or owner != account.id:
                raise TableError(
                    422,
                    f"{name!r} is a registered player's name; leave the seat unnamed and it"
                    " takes the name of the account that sits there",
                )

    # ------------------------------------------------------------------ lists

    async def games(self, account: Account) -> dict[str, Any]:
        """*Your games*: the live tables, those waiting for the account's move first (the
        one whose clock runs out soonest first, then those without a clock, the most recently
        changed first), and the finished ones with their results, newest first."""
        rows = await self.manager.run_db(self.db.seats_of, account.id)
        live: list[dict[str, Any]] = []
        finished: list[dict[str, Any]] = []
        for row in rows:
            entry = await self._entry(row)
            (finished if row["status"] == OVER else live).append(entry)
        live.sort(
            key=lambda e: (
                not e["your_move"],
                e["deadline"] is None,
                e["deadline"] or 0.0,
                -e["updated"],
            )
        )
        return {"name": account.name, "live": live, "finished": finished}

    async def _entry(self, row: dict[str, Any]) -> dict[str, Any]:
        held = self.manager.tables.get(row["id"])
        if held is not None:  # fresher than the database by at most the current move
            row["status"] = held.row.status if held.row.status == ARCHIVED else held.status()
            row["step"] = held.state.step
            row["to_move"] = held.state.current_player
            row["rematch"] = held.row.rematch
            row["waiting"] = held.row.waiting
            row["deadline"] = held.clock.deadline if held.clock is not None else None
        elif row["status"] == PLAYING and row["to_move"] is None:
            # stored by a version that did not keep who is to move: read the table once
            try:
                async with self.manager.hold(row["id"]) as table:
                    row["to_move"] = table.state.current_player
            except TableError:
                pass
        names = [s["name"] for s in row["seats"]]
        to_move = row["to_move"]
        entry = {
            "id": row["id"],
            "game": row["game"],
            "title": _title(row["game"]),
            "players": row["players"],
            "status": row["status"],
            "step": row["step"],
            "seat": row["seat"],
            "seats": row["seats"],
            "to_move": to_move,
            "to_move_name": names[to_move] if to_move is not None else None,
            # an open table waiting for players has a seat to move in its state, but no moves
            "started": row.get("waiting") != WAITING_PLAYERS,
            "your_move": row["status"] == PLAYING
            and to_move == row["seat"]
            and row.get("waiting") != WAITING_PLAYERS,
            "private": row["private"],
            "created": row["created"],
            "updated": row["updated"],
            "link": f"/table/{row['id']}",
            "rematch": row["rematch"],
            # when the seat to move runs out of time (server time, seconds), while it plays
            "deadline": row.get("deadline") if row["status"] == PLAYING else None,
        }
        if row["status"] == OVER:
            entry.update(_result(row, names))
        return entry

    async def profile(self, name: str, viewer: Account | None, limit: int) -> dict[str, Any]:
        """A player's public page: name, ratings per game, finished games with results and
        replays (private tables only to the player themselves)."""
        account = await self.manager.run_db(self.db.account_by_name, name)
        if account is None:
            raise TableError(404, f"there is no player {name!r}")
        ratings = await self.manager.run_db(self.manager.ratings.of, account.id)
        rows = await self.manager.run_db(self.db.seats_of, account.id)
        own = viewer is not None and viewer.id == account.id
        history: list[dict[str, Any]] = []
        played = won = 0
        for row in rows:
            if row["status"] != OVER or (row["private"] and not own):
                continue
            entry = await self._entry(row)
            played += 1
            won += bool(entry["result"]["winner"])
            if len(history) < limit:
                history.append(entry)
        return {
            "name": account.name,
            "created": account.created,
            "played": played,
            "won": won,
            "ratings": [
                {"game": game, "title": _title(game), **rating.to_json()}
                for game, rating in sorted(ratings.items(), key=lambda kv: -kv[1].ordinal)
            ],
            "history": history,
        }


def _title(game: str) -> str:
    try:
        return spyglass.games.REGISTRY.spec(game).info.title
    except Exception:
        return game


def _result(row: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A finished table's result for one of its players: their place, score, whether they
    won, the winners and the sentence by name, their rating change; replay and record."""
    table_id, seat = row["id"], row["seat"]
    result = row["result"]
    data: dict[str, Any] = {
        "replay": f"/table/{table_id}/replay",
        "record": f"/api/tables/{table_id}/record",
    }
    if result is None:  # finished before results were stored
        data["result"] = {"rank": None, "score": None, "winner": False, "winners": []}
        return data
    places = ranks(result["scores"], result["winners"], result.get("out", ()))
    rated = {c["seat"]: c for c in (row["rated"] or {}).get("seats", [])}
    data["result"] = {
        "rank": places[seat],
        "score": result["scores"][seat],
        "winner": seat in result["winners"],
        "winners": [names[w] for w in result["winners"]],
        "summary": named(result.get("summary", ""), names),
        "rating": rated.get(seat),
    }
    return data
