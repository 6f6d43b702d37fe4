"""The pages: the front end's pages and hashed files (served by :mod:`..assets`, which
handles their caching and compression), the API reference (Swagger UI served from the package:
it works offline and under the page's Content-Security-Policy), and a health check."""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles

from .. import assets

API_DOCS = resources.files("spyglass.web") / "apidocs"
#: Swagger UI's own files, from the fastapi-offline package (they are its whole job).
SWAGGER_UI = resources.files("fastapi_offline") / "static"

router = APIRouter(include_in_schema=False)


@router.api_route("/healthz", methods=["GET", "HEAD"])
async def health() -> PlainTextResponse:
    return PlainTextResponse("ok")


@router.api_route("/api/docs", methods=["GET", "HEAD"])
async def api_docs() -> FileResponse:
    return FileResponse(str(API_DOCS / "index.html"), media_type="text/html")


@router.get("/api/docs/start.js")
async def api_docs_start() -> FileResponse:
    return FileResponse(str(API_DOCS / "start.js"), media_type="text/javascript")


def mount_static(app: FastAPI) -> None:
    """The front end's pages and ``/static`` (with gzip for the API's JSON), and the API
    reference's files."""
    assets.install(app)
    app.mount("/api/docs/assets", StaticFiles(directory=str(SWAGGER_UI)), name="api-docs")
