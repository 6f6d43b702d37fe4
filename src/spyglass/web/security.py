"""What every HTTP response and request body goes through: size and shape limits on bodies,
and the security headers of every response.

- **Bodies** over ``MAX_BODY`` bytes are refused with 413 before the app sees them, whether the
  client announced the length or streamed the body in chunks; JSON nested deeper than
  ``MAX_DEPTH`` is refused with 422 (no legitimate request comes close, and a parser walking a
  million brackets is a cheap way to burn a server's CPU).
- **Headers**: a Content-Security-Policy that lets a page load scripts, styles, images and
  connections from this server only and be framed by nobody (the page never needs more: every
  asset is served from the package; the one exception is the table page's own inline head
  script, allowed by its SHA-256 hash in that page's policy, which ``web/assets.py`` sets and
  this middleware keeps), ``X-Frame-Options`` for browsers that predate
  ``frame-ancestors``, ``nosniff``, and a referrer policy that never sends a table's address to
  another site.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 64 * 1024  # bytes of one request body
MAX_DEPTH = 32  # nesting of arrays and objects in a JSON body

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


def json_depth(body: bytes) -> int:
    """How deeply arrays and objects nest in a JSON text (brackets in strings not counted)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


class Guard:
    """The ASGI middleware: body limits on requests, security headers on responses."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY, depth: int = MAX_DEPTH) -> None:
        self.app = app
        self.limit = limit
        self.depth = depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in HEADERS if k not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        if scope["method"] in ("GET", "HEAD", "OPTIONS", "DELETE"):
            await self.app(scope, receive, send_with_headers)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await _refuse(send_with_headers, 413, f"request body over {self.limit} bytes")
                    return
        # Read the whole body first (at most the limit), so that a streamed body over the limit
        # is refused as such and the app never reads a partial one.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await _refuse(send_with_headers, 413, f"request body over {self.limit} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if json_depth(body) > self.depth:
            await _refuse(send_with_headers, 422, f"JSON nested more than {self.depth} levels deep")
            return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send_with_headers)


async def _refuse(send: Send, status: int, error: str) -> None:
    body = json.dumps({"error": error}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
