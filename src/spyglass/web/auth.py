"""Secrets: seat tokens, invites and host keys, unguessable, of which the server keeps only a
hash.

A seat's token is handed out once: to the creator for the seats it plays on its own device, or
to the person who claims the seat's invite (the invite travels in a link's fragment, which
browsers never send to a server, and is claimed once). Requests carry a token in the
``X-Seat-Token`` header or in the first WebSocket message, the host key in ``X-Host-Key``,
never in a URL the server logs. The database holds SHA-256 hashes, so a copy of the database
does not let anyone sit at a table.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 24  # 192 bits: 32 URL-safe characters
TABLE_ID_BYTES = 9  # 72 bits: 12 URL-safe characters; a table id only lets people watch
HEADER = "X-Seat-Token"
HOST_HEADER = "X-Host-Key"


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
