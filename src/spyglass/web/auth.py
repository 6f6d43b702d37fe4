"""Seat tokens: unguessable secrets of which the server keeps only a hash.

A token is handed out once, when a table is created, inside the invite link's fragment (which
browsers never send to a server). Requests carry it in the ``X-Seat-Token`` header or in the
first WebSocket message, never in a URL the server logs. The database holds its SHA-256 hash,
so a copy of the database does not let anyone sit at a table.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 24  # 192 bits: 32 URL-safe characters
TABLE_ID_BYTES = 9  # 72 bits: 12 URL-safe characters; a table id only lets people watch
HEADER = "X-Seat-Token"


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_table_id() -> str:
    return secrets.token_urlsafe(TABLE_ID_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def matches(token: str | None, stored_hash: str | None) -> bool:
    """Whether ``token`` is the one whose hash is stored (compared in constant time)."""
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)
