"""Accounts: a name and a password, sessions in cookies, and the seats an account holds.

Guests play exactly as before, with seat tokens. An account adds three things:

- **Sessions.** Signing up or logging in sets a session cookie: a random id (192 bits) of
  which the database keeps only the SHA-256 hash, ``HttpOnly`` (no script reads it),
  ``SameSite=Strict`` and ``Secure`` (see :class:`AccountSettings`). Logging out deletes the
  session; logging out everywhere deletes every session of the account.
- **Seats that follow the account.** A seat is bound to an account by proving its token while
  logged in (at sign-up, at log-in, or later). A logged-in device then asks for a *device key*
  to that seat: a seat token minted for that device's session alone, of which the database
  keeps the hash. It works like the seat's own token and dies with the session (log out) or
  with the seat (the host re-invites it). So a seat's secrets still live only with its player:
  the host never holds a device key, and the database holds none.
- **CSRF.** A request that the session cookie authenticates and that changes something must
  carry the header ``X-Requested-With: spyglass``, and its ``Origin`` (when the browser sends
  one) must be this server. A page of another site cannot send that header without the
  server's consent in a CORS preflight, which this server never gives; the ``Strict`` cookie
  is not even sent from another site's page. Chosen over a double-submit token because it
  needs no token kept in step with the session across processes and tabs.

Passwords are hashed with argon2id (``argon2-cffi``, its RFC 9106 low-memory profile);
a log-in for an unknown name verifies against a dummy hash, so the time taken does not tell
which names exist. Log-in and sign-up are rate limited per address, failed log-ins per name.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import time
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from limits import RateLimitItem
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy import delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from spyglass.engine import RulesError

from .limits import Refused, _rate_text, rates
from .names import name_keys
from .store import (
    Store,
    accounts_t,
    clocks_t,
    rated_t,
    seat_keys_t,
    seats_t,
    sessions_t,
    tables_t,
)

COOKIE = "spyglass_session"
#: Over https the cookie takes the ``__Host-`` prefix: the browser then refuses it unless it is
#: Secure, for this host only and for every path, so no subdomain can plant or read one.
SECURE_COOKIE = "__Host-spyglass_session"
CSRF_HEADER = "X-Requested-With"
CSRF_VALUE = "spyglass"

MIN_PASSWORD = 8
MAX_PASSWORD = 256
MAX_SEATS = 200  # seat tokens one request may bring to an account
SEEN_EVERY = 3600.0  # seconds between two writes of a session's last use


class AccountError(Exception):
    """A request refused: ``status`` is the HTTP status, ``message`` one line saying why."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class AccountSettings:
    """How a server treats accounts.

    ``cookie_secure``: ``"auto"`` (default) marks the session cookie Secure unless the request
    came over plain http to a loopback address (a developer's or a test's server: browsers
    would not send a Secure cookie back over http); ``"always"``; ``"never"`` (plain http on a
    trusted network only). Rates are written as for :class:`~.limits.Limits`."""

    cookie_secure: str = "auto"
    session_days: float = 30.0
    signups: str = "5/hour;20/day"  # accounts one address may create
    logins: str = "20/minute;200/hour"  # log-in attempts from one address
    failures: str = "10/15 minutes;50/day"  # failed log-ins per account name

    def __post_init__(self) -> None:
        if self.cookie_secure not in ("auto", "always", "never"):
            raise RulesError(f"cookie_secure is auto, always or never, not {self.cookie_secure!r}")
        if not self.session_days > 0:
            raise RulesError("sessions last a positive number of days")
        for name in ("signups", "logins", "failures"):
            rates(getattr(self, name), name)

    @classmethod
    def from_env(cls, **given: str | None) -> AccountSettings:
        """The defaults, overridden by ``SPYGLASS_COOKIE_SECURE``, ``SPYGLASS_SIGNUP_RATE``,
        ``SPYGLASS_LOGIN_RATE`` and ``SPYGLASS_LOGIN_FAILURE_RATE`` when set, and by the
        values ``given`` (e.g. ``spyglass serve``'s options) that are not None."""
        env = os.environ
        values: dict[str, Any] = {}
        for name, var in (
            ("cookie_secure", "SPYGLASS_COOKIE_SECURE"),
            ("signups", "SPYGLASS_SIGNUP_RATE"),
            ("logins", "SPYGLASS_LOGIN_RATE"),
            ("failures", "SPYGLASS_LOGIN_FAILURE_RATE"),
        ):
            if env.get(var):
                values[name] = env[var]
        values.update({name: value for name, value in given.items() if value is not None})
        return cls(**values)


# ---------------------------------------------------------------------- passwords


def check_password(password: str, name: str) -> str:
    """The password as hashed (NFC: the same keys typed on another system give the same
    text), or :class:`AccountError` saying what is wrong. Length is what makes a password
    strong, so there are no rules of mixed kinds of characters (NIST SP 800-63B)."""
    text = unicodedata.normalize("NFC", password)
    if len(text) < MIN_PASSWORD:
        raise AccountError(422, f"a password is at least {MIN_PASSWORD} characters")
    if len(text) > MAX_PASSWORD:
        raise AccountError(422, f"a password is at most {MAX_PASSWORD} characters")
    if any(unicodedata.category(c) == "Cc" for c in text):
        raise AccountError(422, "a password cannot hold control characters")
    if len(set(text)) == 1:
        raise AccountError(422, "a password cannot be one character repeated")
    if text.casefold() == name.casefold() or name.casefold() in text.casefold():
        raise AccountError(422, "a password cannot contain the account's name")
    return text


@dataclass(slots=True)
class Passwords:
    """argon2id hashing, off the event loop (a hash takes tens of milliseconds on purpose)."""

    hasher: PasswordHasher = field(default_factory=PasswordHasher)
    _dummy: str | None = None

    async def hash(self, password: str) -> str:
        return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one ``stored`` hashes; with no stored hash (no such
        account), a dummy is verified all the same so that both take the same time."""
        if stored is None:
            if self._dummy is None:
                self._dummy = await asyncio.to_thread(self.hasher.hash, secrets.token_hex(16))
            stored = self._dummy
            password = password + "\0"  # never matches the dummy's random password
        try:
            return await asyncio.to_thread(self.hasher.verify, stored, password)
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored: str) -> bool:
        return self.hasher.check_needs_rehash(stored)


# ---------------------------------------------------------------------- rates


@dataclass(slots=True)
class AccountRates:
    """Sign-ups and log-ins per address, failed log-ins per account name, counted with the
    ``limits`` library like the server's other rates (in each process's memory)."""

    settings: AccountSettings
    _limiter: MovingWindowRateLimiter = field(
        default_factory=lambda: MovingWindowRateLimiter(MemoryStorage())
    )

    def _items(self, kind: str) -> list[RateLimitItem]:
        return rates(getattr(self.settings, kind), kind)

    def check(self, kind: str, key: str, what: str) -> None:
        """:class:`AccountError` 429 if ``kind`` is spent for ``key`` (counting nothing)."""
        for item in self._items(kind):
            if not self._limiter.test(item, kind, key):
                stats = self._limiter.get_window_stats(item, kind, key)
                wait = max(1.0, stats.reset_time - time.time())
                raise AccountError(
                    429,
                    f"too many {what}: at most {_rate_text(item)}; try again in {round(wait)} s",
                    retry_after=wait,
                )

    def hit(self, kind: str, key: str) -> None:
        for item in self._items(kind):
            self._limiter.hit(item, kind, key)

    def take(self, kind: str, key: str, what: str) -> None:
        self.check(kind, key, what)
        self.hit(kind, key)


def refused(error: Refused) -> AccountError:
    return AccountError(429, error.message, error.retry_after)


# ---------------------------------------------------------------------- cookies and CSRF


def is_loopback(host: str | None) -> bool:
    return host in ("127.0.0.1", "::1", "localhost") or bool(host and host.startswith("127."))


def cookie_secure(setting: str, scheme: str, client: str | None) -> bool:
    """Whether this response's session cookie is marked Secure (see AccountSettings)."""
    if setting == "always":
        return True
    if setting == "never":
        return False
    return not (scheme == "http" and is_loopback(client))


def check_csrf(method: str, headers: Any, host: str | None) -> None:
    """:class:`AccountError` 403 unless a cookie-authenticated change comes from this site's
    own pages: the custom header, and an ``Origin`` (when sent) naming this server."""
    if method in ("GET", "HEAD", "OPTIONS"):
        return
    if headers.get(CSRF_HEADER) != CSRF_VALUE:
        raise AccountError(
            403, f"this request needs the header {CSRF_HEADER}: {CSRF_VALUE} (CSRF protection)"
        )
    origin = headers.get("origin")
    if origin is not None:
        origin_host = origin.split("://", 1)[-1].rstrip("/")
        if origin == "null" or not host or origin_host.lower() != host.lower():
            raise AccountError(403, "this request comes from another site's page (CSRF)")
    if headers.get("sec-fetch-site") not in (None, "same-origin", "none"):
        raise AccountError(403, "this request comes from another site's page (CSRF)")


# ---------------------------------------------------------------------- the database


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    name: str
    created: float


@dataclass(frozen=True, slots=True)
class Session:
    """A live session: its id's hash and its account."""

    id_hash: str
    account: Account
    refreshed: bool  # its expiry moved on with this request (set the cookie again)


class AccountStore:
    """The queries of accounts, sessions, seats bound to accounts and device keys. Every
    method is synchronous and short, run on the server's database thread(s)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    # -- accounts

    def create_account(self, name: str, password_hash: str) -> Account:
        """A new account, or :class:`AccountError` 409 when a name that reads alike exists."""
        key, key2 = name_keys(name)
        account = Account(secrets.token_urlsafe(12), name, time.time())
        try:
            with self.engine.begin() as conn:
                taken = conn.execute(
                    select(accounts_t.c.name).where(
                        or_(
                            accounts_t.c.name_key.in_((key, key2)),
                            accounts_t.c.name_key2.in_((key, key2)),
                        )
                    )
                ).first()
                if taken is not None:
                    raise AccountError(409, f"the name {name!r} is taken (or one that reads alike)")
                conn.execute(
                    insert(accounts_t).values(
                        id=account.id,
                        name=name,
                        name_key=key,
                        name_key2=key2,
                        password_hash=password_hash,
                        created=account.created,
                    )
                )
        except IntegrityError:  # another request took it meanwhile
            raise AccountError(
                409, f"the name {name!r} is taken (or one that reads alike)"
            ) from None
        return account

    def find(self, name: str) -> tuple[Account, str] | None:
        """The account a name reads as (case and look-alikes ignored), with its hash."""
        key, _ = name_keys(name)
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts_t).where(accounts_t.c.name_key == key)).first()
        if row is None:
            return None
        return Account(row.id, row.name, row.created), row.password_hash

    def set_password_hash(self, account_id: str, password_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts_t)
                .where(accounts_t.c.id == account_id)
                .values(password_hash=password_hash)
            )

    def names_taken(self, names: Iterable[str]) -> dict[str, str]:
        """For each of ``names`` that reads as an account's name: that account's id."""
        wanted = {name: name_keys(name) for name in names}
        keys = {k for pair in wanted.values() for k in pair}
        if not keys:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(accounts_t.c.id, accounts_t.c.name_key, accounts_t.c.name_key2).where(
                    or_(accounts_t.c.name_key.in_(keys), accounts_t.c.name_key2.in_(keys))
                )
            ).all()
        found = {}
        for name, pair in wanted.items():
            for row in rows:
                if {row.name_key, row.name_key2} & set(pair):
                    found[name] = row.id
        return found

    # -- sessions

    def create_session(self, account_id: str, id_hash: str, days: float) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                insert(sessions_t).values(
                    id_hash=id_hash,
                    account_id=account_id,
                    created=now,
                    seen=now,
                    expires=now + days * 86400.0,
                )
            )

    def session(self, id_hash: str, days: float) -> Session | None:
        """The live session with this hash (its expiry moved on now and then), or None."""
        now = time.time()
        with self.engine.connect() as conn:
            row = conn.execute(
                select(sessions_t, accounts_t.c.name, accounts_t.c.created.label("since"))
                .join(accounts_t, accounts_t.c.id == sessions_t.c.account_id)
                .where(sessions_t.c.id_hash == id_hash)
            ).first()
        if row is None or row.expires < now:
            return None
        refreshed = now - row.seen > SEEN_EVERY
        if refreshed:
            with self.engine.begin() as conn:
                conn.execute(
                    update(sessions_t)
                    .where(sessions_t.c.id_hash == id_hash)
                    .values(seen=now, expires=now + days * 86400.0)
                )
        return Session(id_hash, Account(row.account_id, row.name, row.since), refreshed)

    def end_sessions(self, account_id: str, id_hash: str | None = None) -> list[str]:
        """Delete one session (or, with ``id_hash`` None, every session) of an account and
        the device keys minted for them; returns the tables whose seats lost a key, and tells
        the other processes about each."""
        with self.engine.begin() as conn:
            chosen = select(sessions_t.c.id_hash).where(sessions_t.c.account_id == account_id)
            if id_hash is not None:
                chosen = chosen.where(sessions_t.c.id_hash == id_hash)
            tables = sorted(
                set(
                    conn.execute(
                        select(seat_keys_t.c.table_id).where(seat_keys_t.c.session_hash.in_(chosen))
                    ).scalars()
                )
            )
            conn.execute(delete(seat_keys_t).where(seat_keys_t.c.session_hash.in_(chosen)))
            where = [sessions_t.c.account_id == account_id]
            if id_hash is not None:
                where.append(sessions_t.c.id_hash == id_hash)
            conn.execute(delete(sessions_t).where(*where))
            for table_id in tables:
                self.store.note(conn, table_id, "seats")
        return tables

    # -- seats

    def bind(self, table_id: str, seat: int, account_id: str, name: str | None) -> bool:
        """Give a seat to an account (renamed ``name``, if given) unless it belongs to one
        already; True if it now belongs to this one."""
        with self.engine.begin() as conn:
            values: dict[str, Any] = {"account_id": account_id}
            if name is not None:
                values["name"] = name
            done = conn.execute(
                update(seats_t)
                .where(
                    seats_t.c.table_id == table_id,
                    seats_t.c.seat == seat,
                    seats_t.c.account_id.is_(None),
                )
                .values(**values)
            )
            if done.rowcount == 1:
                self.store.note(conn, table_id, "seats")
                return True
            owner = conn.execute(
                select(seats_t.c.account_id).where(
                    seats_t.c.table_id == table_id, seats_t.c.seat == seat
                )
            ).scalar()
            return owner == account_id

    def set_key(self, table_id: str, seat: int, session_hash: str, key_hash: str) -> None:
        """The device key of one session for one seat (replacing that session's earlier
        one), if the seat still belongs to the session's account."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                delete(seat_keys_t).where(
                    seat_keys_t.c.table_id == table_id,
                    seat_keys_t.c.seat == seat,
                    seat_keys_t.c.session_hash == session_hash,
                )
            )
            conn.execute(
                insert(seat_keys_t).values(
                    table_id=table_id,
                    seat=seat,
                    session_hash=session_hash,
                    key_hash=key_hash,
                    created=now,
                )
            )
            self.store.note(conn, table_id, "seats")

    def seats_of(self, account_id: str) -> list[dict[str, Any]]:
        """Every table at which the account holds a seat: the table's stored summary, the
        seat, and the names of every seat (for *Your games* and the profile)."""
        with self.engine.connect() as conn:
            mine = conn.execute(
                select(
                    tables_t.c.id,
                    tables_t.c.game,
                    tables_t.c.players,
                    tables_t.c.status,
                    tables_t.c.step,
                    tables_t.c.to_move,
                    tables_t.c.waiting,
                    tables_t.c.result,
                    tables_t.c.rematch,
                    tables_t.c.private,
                    tables_t.c.created,
                    tables_t.c.updated,
                    seats_t.c.seat,
                    rated_t.c.changes,
                    clocks_t.c.deadline,
                )
                .join(seats_t, seats_t.c.table_id == tables_t.c.id)
                .outerjoin(rated_t, rated_t.c.table_id == tables_t.c.id)
                .outerjoin(clocks_t, clocks_t.c.table_id == tables_t.c.id)
                .where(seats_t.c.account_id == account_id)
                .order_by(tables_t.c.updated.desc())
            ).all()
            ids = [r.id for r in mine]
            names: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
            if ids:
                for s in conn.execute(
                    select(
                        seats_t.c.table_id,
                        seats_t.c.seat,
                        seats_t.c.kind,
                        seats_t.c.name,
                        accounts_t.c.name.label("account"),
                    )
                    .outerjoin(accounts_t, accounts_t.c.id == seats_t.c.account_id)
                    .where(seats_t.c.table_id.in_(ids))
                    .order_by(seats_t.c.table_id, seats_t.c.seat)
                ):
                    names[s.table_id].append(
                        {
                            "seat": s.seat,
                            "kind": s.kind,
                            "name": s.account or s.name,
                            "account": s.account,
                        }
                    )
        return [
            {
                "id": r.id,
                "game": r.game,
                "players": r.players,
                "status": r.status,
                "step": r.step,
                "to_move": r.to_move,
                "waiting": r.waiting,
                "result": None if r.result is None else json.loads(r.result),
                "rematch": r.rematch,
                "private": bool(r.private),
                "created": r.created,
                "updated": r.updated,
                "seat": r.seat,
                "rated": None if r.changes is None else json.loads(r.changes),
                "deadline": r.deadline,  # when the running clock runs out (None: no clock)
                "seats": names[r.id],
            }
            for r in mine
        ]

    def account_by_name(self, name: str) -> Account | None:
        found = self.find(name)
        return None if found is None else found[0]
