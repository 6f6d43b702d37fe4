"""Accounts: sign up, log in, log out (here or everywhere), the seats an account keeps, a
device key to an account's seat, and *Your games*. See docs/web.md, "Accounts"."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from spyglass.web.accounts import (
    COOKIE,
    CSRF_HEADER,
    CSRF_VALUE,
    MAX_PASSWORD,
    MAX_SEATS,
    SECURE_COOKIE,
    Account,
    AccountError,
    Session,
    check_csrf,
    cookie_secure,
)
from spyglass.web.names import MAX_ACCOUNT_NAME
from spyglass.web.players import Players, SeatProof

from .deps import client_address, errors

router = APIRouter(tags=["accounts"])


def players(request: Request) -> Players:
    return request.app.state.players


Accounts = Annotated[Players, Depends(players)]


def csrf(request: Request) -> None:
    """Refuse a cookie-authenticated change that does not come from this site's pages."""
    check_csrf(request.method, request.headers, request.headers.get("host"))


Csrf = Depends(csrf)


def session_id(request: Request) -> str | None:
    return request.cookies.get(SECURE_COOKIE) or request.cookies.get(COOKIE)


async def current_session(request: Request) -> Session | None:
    """The request's live session, if its cookie holds one."""
    if not hasattr(request.state, "session"):  # looked up once per request
        request.state.session = await players(request).session(session_id(request))
    return request.state.session


async def require_session(request: Request) -> Session:
    session = await current_session(request)
    if session is None:
        raise AccountError(401, "log in first (no session, or it has ended)")
    return session


def current_account(session: Session | None) -> Account | None:
    return None if session is None else session.account


LoggedIn = Annotated[Session, Depends(require_session)]


def set_cookie(request: Request, response: Response, value: str, days: float) -> None:
    players_ = players(request)
    client = request.client.host if request.client else None
    secure = cookie_secure(players_.settings.cookie_secure, request.url.scheme, client)
    response.set_cookie(
        SECURE_COOKIE if secure else COOKIE,
        value,
        max_age=int(days * 86400),
        path="/",
        secure=secure,
        httponly=True,
        samesite="strict",
    )


def clear_cookie(response: Response) -> None:
    for name in (COOKIE, SECURE_COOKIE):
        response.delete_cookie(
            name, path="/", secure=name == SECURE_COOKIE, httponly=True, samesite="strict"
        )


class SeatProofIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    table: str = Field(min_length=1, max_length=64, description="the table's id")
    token: str = Field(min_length=1, max_length=64, description="the seat's token at it")


class CredentialsIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    name: str = Field(min_length=1, max_length=4 * MAX_ACCOUNT_NAME)
    password: str = Field(min_length=1, max_length=4 * MAX_PASSWORD)
    seats: list[SeatProofIn] = Field(
        default_factory=list,
        max_length=MAX_SEATS,
        description="seat tokens this browser holds: those seats join the account (a guest"
        " who signs up keeps their tables)",
    )


class SeatsIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    seats: list[SeatProofIn] = Field(max_length=MAX_SEATS)


class AccountOut(BaseModel):
    name: str
    created: float


class KeptOut(BaseModel):
    account: AccountOut
    kept: list[dict[str, Any]] = Field(description="{table, seat}: seats now the account's")
    refused: list[dict[str, Any]] = Field(description="{table, error}: seats not kept, and why")


class DeviceKey(BaseModel):
    seat: int
    token: str = Field(description="a seat token for this device alone; ends with its session")


def _proofs(seats: list[SeatProofIn]) -> list[SeatProof]:
    return [SeatProof(s.table, s.token) for s in seats]


async def _logged_in(
    request: Request, response: Response, account: Account, seats: list[SeatProofIn]
) -> KeptOut:
    accounts = players(request)
    old = await current_session(request)
    if old is not None:  # a new session replaces the one this browser had
        await accounts.log_out(old)
    value = await accounts.open_session(account)
    set_cookie(request, response, value, accounts.settings.session_days)
    kept, refused = await accounts.keep(account, _proofs(seats))
    return KeptOut(
        account=AccountOut(name=account.name, created=account.created), kept=kept, refused=refused
    )


@router.post(
    "/api/account/signup",
    status_code=201,
    summary="Create an account and log in (cookie); the seat tokens given join the account",
    responses=errors(403, 409, 422, 429),
    dependencies=[Csrf],
)
async def sign_up(
    body: CredentialsIn, request: Request, response: Response, accounts: Accounts
) -> KeptOut:
    account = await accounts.sign_up(body.name, body.password, client_address(request))
    return await _logged_in(request, response, account, body.seats)


@router.post(
    "/api/account/login",
    summary="Log in (cookie); the seat tokens given join the account",
    responses=errors(401, 403, 422, 429),
    dependencies=[Csrf],
)
async def log_in(
    body: CredentialsIn, request: Request, response: Response, accounts: Accounts
) -> KeptOut:
    account = await accounts.log_in(body.name, body.password, client_address(request))
    return await _logged_in(request, response, account, body.seats)


@router.post(
    "/api/account/logout",
    summary="Log out this browser (its device keys stop working)",
    dependencies=[Csrf],
    responses=errors(403),
)
async def log_out(request: Request, response: Response, accounts: Accounts) -> dict[str, Any]:
    session = await current_session(request)
    if session is not None:
        await accounts.log_out(session)
    clear_cookie(response)
    return {"logged_out": session is not None}


@router.post(
    "/api/account/logout-everywhere",
    summary="End every session of the account, on every device (and their device keys)",
    dependencies=[Csrf],
    responses=errors(401, 403),
)
async def log_out_everywhere(
    session: LoggedIn, response: Response, accounts: Accounts
) -> dict[str, Any]:
    await accounts.log_out(session, everywhere=True)
    clear_cookie(response)
    return {"logged_out": True}


def _account_out(session: Session, request: Request, response: Response) -> AccountOut:
    if session.refreshed:  # the session's expiry moved on: so does the cookie's
        value = session_id(request)
        if value:
            set_cookie(request, response, value, players(request).settings.session_days)
    return AccountOut(name=session.account.name, created=session.account.created)


@router.get(
    "/api/account", summary="The logged-in account (401 when logged out)", responses=errors(401)
)
async def me(session: LoggedIn, request: Request, response: Response) -> AccountOut:
    return _account_out(session, request, response)


class SessionOut(BaseModel):
    account: AccountOut | None


@router.get("/api/session", summary="Who is logged in here: the account, or null for a guest")
async def who(request: Request, response: Response) -> SessionOut:
    """What every page asks to draw its account corner. A guest is an answer, not an error:
    the pages' consoles stay free of failed requests (``/api/account`` answers 401)."""
    session = await current_session(request)
    return SessionOut(account=None if session is None else _account_out(session, request, response))


@router.post(
    "/api/account/seats",
    summary="Bring seats to the account by their tokens (e.g. after claiming an invite)",
    dependencies=[Csrf],
    responses=errors(401, 403),
)
async def keep_seats(session: LoggedIn, body: SeatsIn, accounts: Accounts) -> KeptOut:
    kept, refused = await accounts.keep(session.account, _proofs(body.seats))
    account = session.account
    return KeptOut(
        account=AccountOut(name=account.name, created=account.created), kept=kept, refused=refused
    )


@router.get(
    "/api/account/games",
    summary="Your games: live tables (waiting for your move first), then finished ones",
    responses=errors(401),
)
async def your_games(session: LoggedIn, accounts: Accounts) -> dict[str, Any]:
    return await accounts.games(session.account)


@router.post(
    "/api/tables/{table_id}/device-key",
    summary="A seat token for this device to the seat your account holds at this table",
    dependencies=[Csrf],
    responses=errors(401, 403, 404),
)
async def device_key(table_id: str, session: LoggedIn, accounts: Accounts) -> DeviceKey:
    seat, token = await accounts.device_key(session, table_id)
    return DeviceKey(seat=seat, token=token)


__all__ = ["CSRF_HEADER", "CSRF_VALUE", "current_account", "current_session", "router"]
