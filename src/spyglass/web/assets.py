"""The browser front-end as the server sends it: the pages, their assets, compression and
caching. (The Content-Security-Policy and the other security headers of every response, these
included, are set in one place: :mod:`.security`.)

``frontend/build.mjs`` bundles the front-end's scripts and styles into ``static/`` under
content-hashed names, compresses each file with Brotli and gzip, writes the four HTML pages
that load them and ``static/manifest.json`` (see docs/web.md, "The front end"). This module
serves that output and nothing else:

- ``/static/NAME``, only the files the manifest lists: ``Cache-Control: public,
  max-age=31536000, immutable`` (a new build has new names, so a browser may keep a file for a
  year), the Brotli or gzip form when the request accepts it, a strong ETag per form and 304
  for a matching ``If-None-Match``.
- The pages: the lobby (``/``, ``/new/GAME``), a table (``/table/ID``), a replay
  (``/table/ID/replay``) and the player's pages (``/me``, *Your games*; ``/players/NAME``, a
  profile), with ``Cache-Control: no-cache`` (revalidated at every visit, so a
  new build reaches every browser at once), ETag and 304, compressed. A page with a script
  written into it (the table's, which opens its connections while the page is parsed) is sent
  with the common Content-Security-Policy plus that script's hash in ``script-src`` (the
  build lists the hashes in the manifest): no ``'unsafe-inline'``, and on its 304s too (a
  browser updates the page it keeps with a 304's headers).
- Every other response of at least 1 KiB (the JSON of the API) is gzipped on the fly when the
  client accepts it (Starlette's GZipMiddleware; already encoded responses pass untouched).

``install(app)`` adds all of it to an app.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from .security import CONTENT_SECURITY_POLICY

STATIC: Traversable = resources.files("spyglass.web") / "static"

#: A hashed file never changes: a browser may keep it for a year without asking again.
IMMUTABLE = "public, max-age=31536000, immutable"
#: A page may change with any build: the browser asks every time (a 304 when it has it).
REVALIDATE = "no-cache"
#: Dynamic responses smaller than this are not worth compressing.
GZIP_MINIMUM = 1024

MEDIA_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
}
#: The compressed forms the build writes, by the Content-Encoding they are sent with, in order
#: of preference (Brotli is the smaller).
FORMS = (("br", ".br"), ("gzip", ".gz"))


@dataclass(frozen=True, slots=True)
class Form:
    """One way of sending a file: its bytes as sent, their encoding and their ETag."""

    body: bytes
    encoding: str | None
    etag: str


@dataclass(frozen=True, slots=True)
class Asset:
    """A file with its forms (by encoding, None for the file as it is)."""

    name: str
    media_type: str
    cache_control: str
    forms: dict[str | None, Form]
    #: the page's own Content-Security-Policy (None: the common one, set by .security)
    policy: str | None = None

    def choose(self, accept_encoding: str) -> Form:
        """The smallest form the request accepts (RFC 9110 Accept-Encoding, q-values honoured;
        the file as it is when nothing else is acceptable)."""
        weights = _weights(accept_encoding)
        for encoding, _suffix in FORMS:
            if encoding in self.forms and weights.get(encoding, weights.get("*", 0.0)) > 0:
                return self.forms[encoding]
        return self.forms[None]

    def matches(self, if_none_match: str) -> Form | None:
        """The form an ``If-None-Match`` header names, if any (weak comparison, as the header
        asks: the client holds that content whatever it was encoded as)."""
        tags = {t.strip().removeprefix("W/") for t in if_none_match.split(",") if t.strip()}
        if "*" in tags:
            return self.forms[None]
        for form in self.forms.values():
            if form.etag in tags:
                return form
        return None


def _weights(header: str) -> dict[str, float]:
    weights: dict[str, float] = {}
    for part in header.split(","):
        token, _, params = part.partition(";")
        token = token.strip().lower()
        if not token:
            continue
        weight = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        weights[token] = weight
    return weights


def page_policy(script_hashes: list[str]) -> str:
    """The common Content-Security-Policy with the scripts of these hashes (``sha256-...``)
    allowed in ``script-src`` as well."""
    directives = [d.strip() for d in CONTENT_SECURITY_POLICY.split(";")]
    allowed = " ".join(f"'{h}'" for h in script_hashes)
    return "; ".join(f"{d} {allowed}" if d.split()[0] == "script-src" else d for d in directives)


def _load(
    directory: Traversable, name: str, cache_control: str, policy: str | None = None
) -> Asset:
    raw = (directory / name).read_bytes()
    digest = hashlib.sha256(raw).hexdigest()[:24]
    forms: dict[str | None, Form] = {None: Form(raw, None, f'"{digest}"')}
    for encoding, suffix in FORMS:
        packed = directory / (name + suffix)
        if packed.is_file():
            forms[encoding] = Form(packed.read_bytes(), encoding, f'"{digest}-{suffix[1:]}"')
    media_type = MEDIA_TYPES.get(Path(name).suffix, "application/octet-stream")
    return Asset(name, media_type, cache_control, forms, policy)


class Assets:
    """The built front-end, read once into memory (about 300 KB with its compressed forms)."""

    def __init__(self, directory: Traversable | Path = STATIC) -> None:
        manifest_path = directory / "manifest.json"
        if not manifest_path.is_file():
            raise RuntimeError(
                f"the front-end is not built: no {manifest_path} (run make assets, which needs"
                " Node.js and npm)"
            )
        manifest = json.loads(manifest_path.read_text("utf-8"))
        self.source: str = manifest["source"]
        self.entries: dict[str, str] = dict(manifest["entries"])
        self.static = {name: _load(directory, name, IMMUTABLE) for name in manifest["files"]}
        scripts: dict[str, list[str]] = manifest.get("scripts", {})
        self.pages = {
            page: _load(
                directory,
                file,
                REVALIDATE,
                page_policy(scripts[page]) if scripts.get(page) else None,
            )
            for page, file in manifest["pages"].items()
        }

    def url(self, entry: str) -> str:
        """The address of an entry by its source name: ``url("board.js")``."""
        return f"/static/{self.entries[entry]}"

    def response(self, asset: Asset, request: Request) -> Response:
        """``asset`` as the request accepts it: 304 if the client holds it already."""
        form = asset.choose(request.headers.get("accept-encoding", ""))
        headers = {"Cache-Control": asset.cache_control, "Vary": "Accept-Encoding"}
        if asset.policy is not None:
            headers["Content-Security-Policy"] = asset.policy
        held = asset.matches(request.headers.get("if-none-match", ""))
        if held is not None:
            return Response(status_code=304, headers={**headers, "ETag": held.etag})
        headers["ETag"] = form.etag
        if form.encoding:
            headers["Content-Encoding"] = form.encoding
        if request.method == "HEAD":
            headers["Content-Length"] = str(len(form.body))
            return Response(b"", headers=headers, media_type=asset.media_type)
        return Response(form.body, headers=headers, media_type=asset.media_type)


class CompressDynamic:
    """gzip for what the app makes as it goes (the API's JSON), through Starlette's
    GZipMiddleware; the front-end's own files (``/static/``, the pages) pass untouched: they
    come compressed already, with Brotli where the browser takes it."""

    def __init__(self, app: ASGIApp, front_end: re.Pattern[str]) -> None:
        self.app = app
        self.front_end = front_end
        self.gzip = GZipMiddleware(app, minimum_size=GZIP_MINIMUM, compresslevel=6)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.front_end.fullmatch(scope.get("path", "")):
            await self.app(scope, receive, send)
        else:
            await self.gzip(scope, receive, send)


def install(app: FastAPI, assets: Assets | None = None) -> Assets:
    """The pages, ``/static`` and on-the-fly gzip of other responses, on ``app``."""
    assets = assets or Assets()
    app.state.assets = assets

    def page(name: str) -> Any:
        asset = assets.pages[name]

        async def endpoint(request: Request) -> Response:
            return assets.response(asset, request)

        return endpoint

    routes = {
        "/": "lobby",
        "/new/{game_id}": "lobby",
        "/table/{table_id}": "table",
        "/table/{table_id}/replay": "replay",
        "/me": "site",
        "/players/{name}": "site",
    }
    for path, name in routes.items():
        app.add_api_route(path, page(name), methods=["GET", "HEAD"], include_in_schema=False)

    async def static(name: str, request: Request) -> Response:
        asset = assets.static.get(name)
        if asset is None:
            raise StarletteHTTPException(404, f"no such file: {name}")
        return assets.response(asset, request)

    app.add_api_route("/static/{name}", static, methods=["GET", "HEAD"], include_in_schema=False)
    ours = [re.sub(r"\{[a-z_]+\}", "[^/]+", path) for path in [*routes, "/static/{name}"]]
    app.add_middleware(CompressDynamic, front_end=re.compile("|".join(ours)))
    return assets
