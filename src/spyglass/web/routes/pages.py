"""The pages: the single-page front end on every page route, its static files, the API
reference (Swagger UI served from the package: it works offline and under the page's
Content-Security-Policy), and a health check."""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles

STATIC = resources.files("spyglass.web") / "static"
API_DOCS = resources.files("spyglass.web") / "apidocs"
#: Swagger UI's own files, from the fastapi-offline package (they are its whole job).
SWAGGER_UI = resources.files("fastapi_offline") / "static"
PAGE_ROUTES = ("/", "/table/{table_id}", "/table/{table_id}/replay", "/new/{game_id}")

router = APIRouter(include_in_schema=False)


async def page() -> FileResponse:
    return FileResponse(str(STATIC / "index.html"), media_type="text/html")


for route in PAGE_ROUTES:
    router.add_api_route(route, page, methods=["GET", "HEAD"])


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
    app.mount("/api/docs/assets", StaticFiles(directory=str(SWAGGER_UI)), name="api-docs")
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
