"""The built front-end and how the server sends it (spyglass/web/assets.py): the committed build
matches its sources, every file is hashed, compressed and cached for a year, pages are
revalidated with ETags, responses honour Accept-Encoding and If-None-Match, the pages run under
the Content-Security-Policy, and each page lists every module it needs up front."""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from spyglass.web.assets import STATIC, Assets
from spyglass.web.security import CONTENT_SECURITY_POLICY
from tests.web.conftest import missing

FRONTEND = Path(__file__).resolve().parents[2] / "frontend"
YEAR = "public, max-age=31536000, immutable"


def source_hash() -> str:
    """What frontend/build.mjs records as ``source`` in the manifest, computed the same way."""
    paths = [FRONTEND / "build.mjs", FRONTEND / "package-lock.json", FRONTEND / "page.html"]
    paths += [p for p in (FRONTEND / "src").rglob("*") if p.is_file()]
    rels = sorted(p.relative_to(FRONTEND).as_posix() for p in paths)
    lines = "".join(
        f"{rel}\0{hashlib.sha256((FRONTEND / rel).read_bytes()).hexdigest()}\n" for rel in rels
    )
    return hashlib.sha256(lines.encode()).hexdigest()


def manifest() -> dict:
    return json.loads((STATIC / "manifest.json").read_text("utf-8"))


def page_files(html: str) -> list[str]:
    """The static files a page loads, in its order."""
    return re.findall(r'(?:href|src)="/static/([^"]+)"', html)


# ---------------------------------------------------------------------- the build


def test_the_committed_build_was_made_from_the_sources_as_they_are() -> None:
    if not FRONTEND.is_dir():
        pytest.skip("no frontend/ sources beside the package (an installed copy)")
    assert manifest()["source"] == source_hash(), (
        "frontend/ changed since src/spyglass/web/static was built: run make assets and commit"
    )


def test_the_build_makes_exactly_the_committed_files() -> None:
    """esbuild, run again on the sources, writes the same bytes (compressed files: the same
    bytes once decompressed); nothing is missing and nothing is left over."""
    node = shutil.which("node")
    if not FRONTEND.is_dir():
        pytest.skip("no frontend/ sources beside the package (an installed copy)")
    if node is None or not (FRONTEND / "node_modules" / "esbuild").is_dir():
        missing("the front-end's build tools are not installed: make test (or npm ci in frontend/)")
    run = subprocess.run(
        [node, "build.mjs", "--check"],
        check=False,
        cwd=FRONTEND,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_file_has_its_compressed_forms_and_they_hold_the_same_bytes() -> None:
    data = manifest()
    names = [*data["files"], *data["pages"].values()]
    for name in names:
        raw = (STATIC / name).read_bytes()
        packed = STATIC / f"{name}.gz"
        assert packed.is_file(), name
        assert gzip.decompress(packed.read_bytes()) == raw, name
        assert (STATIC / f"{name}.br").is_file(), name
        if len(raw) > 2000:  # Brotli beats gzip on anything of size
            assert (STATIC / f"{name}.br").stat().st_size < packed.stat().st_size, name
    for name in data["files"]:
        assert re.fullmatch(r"[a-z]+-[A-Z0-9]{8}\.(js|css|svg)", name), name


def test_a_table_page_costs_under_34_kb_of_brotli() -> None:
    """A size budget, so that a new dependency cannot slip in unnoticed: the table page, its
    style sheet and its scripts as sent compressed (about 20 kB when this was written, against
    124 kB uncompressed in 14 files before the build; 27.9 kB before issue 27's pages, 32.4 kB
    with them: the account corner and its dialogs, clocks, the your-move signals, rematch,
    the waiting panel)."""
    html = (STATIC / "table.html").read_text("utf-8")
    total = (STATIC / "table.html.br").stat().st_size
    total += sum((STATIC / f"{name}.br").stat().st_size for name in page_files(html))
    assert total < 34_000, total


# ---------------------------------------------------------------------- the pages


def test_each_page_lists_every_module_it_needs_and_no_other_page_s_code() -> None:
    """No waterfall: the modules a page's script imports (and theirs, and those it imports
    later, as the table page's entry does once its connection is open) are all preloaded from
    the page itself. The lobby loads no table or map code, the table no lobby code."""
    data = manifest()
    by_page = {}
    for page, file in data["pages"].items():
        html = (STATIC / file).read_text("utf-8")
        loaded = set(page_files(html))
        scripts = [n for n in loaded if n.endswith(".js")]
        for name in scripts:
            code = (STATIC / name).read_text("utf-8")
            imports = re.findall(r'(?:from\s*|import\s*\(?\s*)"\./([^"]+\.js)"', code)
            for imported in imports:
                assert imported in loaded, (page, name, imported)
            assert code.count("import(") == len(re.findall(r'import\("\./', code)), name
        by_page[page] = "".join((STATIC / n).read_text("utf-8") for n in scripts)
    assert "sea lane" in by_page["table"]  # the map's code
    assert "sea lane" not in by_page["lobby"]
    assert "person with an invite link" in by_page["lobby"]  # the New table form
    assert "person with an invite link" not in by_page["table"]


def test_pages_have_no_inline_script_or_style_and_describe_themselves() -> None:
    hashes = manifest()["scripts"]
    for page, file in manifest()["pages"].items():
        html = (STATIC / file).read_text("utf-8")
        assert '<html lang="en">' in html
        assert re.search(r'<meta name="description" content="[^"]{50,}">', html)
        assert "<style" not in html and "style=" not in html
        # the only script written into a page: the table's, listed by its hash (the policy
        # allows nothing else), and it is no module
        inline = [t for t in re.findall(r"<script[^>]*>(.*?)</script>", html, re.S) if t]
        written = [
            "sha256-" + base64.b64encode(hashlib.sha256(t.encode()).digest()).decode()
            for t in inline
        ]
        assert written == hashes.get(page, []), page
        assert len(written) == (page == "table")
        html = html.replace("<script>", "", 1) if inline else html
        assert all(
            re.search(r'<script type="module" src="/static/', s)
            for s in re.findall(r"<script[^>]*>", html)
        )
    for name in manifest()["files"]:
        if name.endswith(".js"):
            code = (STATIC / name).read_text("utf-8")
            assert "eval(" not in code and "new Function" not in code, name
            assert 'setAttribute("style"' not in code and ".innerHTML=" not in code, name


# ---------------------------------------------------------------------- serving


def test_static_files_are_cached_for_a_year_and_sent_compressed(client) -> None:
    assets: Assets = client.app.state.assets
    name = max(assets.static, key=lambda n: (STATIC / n).stat().st_size)  # the largest script
    assert name.endswith(".js")
    raw = (STATIC / name).read_bytes()
    url = f"/static/{name}"
    cases = {
        "br, gzip": "br",
        "gzip, deflate, br;q=0": "gzip",
        "gzip": "gzip",
        "*": "br",
        "identity": None,
        "": None,
        "gzip;q=0, *;q=0": None,
    }
    for accept, encoding in cases.items():
        response = client.get(url, headers={"Accept-Encoding": accept})
        assert response.status_code == 200, accept
        assert response.headers["cache-control"] == YEAR
        assert response.headers["vary"] == "Accept-Encoding"
        assert response.headers["content-type"] == "text/javascript; charset=utf-8"
        assert response.headers.get("content-encoding") == encoding, accept
        suffix = {"br": ".br", "gzip": ".gz", None: ""}[encoding]
        sent = (STATIC / f"{name}{suffix}").read_bytes()
        assert int(response.headers["content-length"]) == len(sent)
        if encoding != "br":  # httpx decodes gzip; Brotli needs a library we do not install
            assert response.content == raw
    assert len((STATIC / f"{name}.br").read_bytes()) < len(raw) / 3


def test_if_none_match_gives_304_and_head_gives_the_headers_alone(client) -> None:
    assets: Assets = client.app.state.assets
    for url in ("/", "/table/abc", f"/static/{assets.entries['table.css']}"):
        first = client.get(url, headers={"Accept-Encoding": "gzip"})
        etag = first.headers["etag"]
        assert re.fullmatch(r'"[0-9a-f]{24}(-gz|-br)?"', etag)
        again = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
        assert again.status_code == 304 and again.content == b""
        assert again.headers["etag"] == etag
        assert again.headers["cache-control"] == first.headers["cache-control"]
        weak = client.get(url, headers={"If-None-Match": f'"other", W/{etag}'})
        assert weak.status_code == 304
        stale = client.get(url, headers={"If-None-Match": '"0000"'})
        assert stale.status_code == 200 and stale.content
        head = client.head(url, headers={"Accept-Encoding": "gzip"})
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-length"] == first.headers["content-length"]


def test_pages_are_revalidated_and_run_under_the_content_security_policy(client) -> None:
    pages = {
        "/": "lobby",
        "/new/espionage": "lobby",
        "/table/x": "table",
        "/table/x/replay": "replay",
    }
    for url, page in pages.items():
        response = client.get(url)
        assert response.status_code == 200
        assert response.headers["cache-control"] == "no-cache"
        html = (STATIC / f"{page}.html").read_text("utf-8")
        assert response.text == html
        inline = re.findall(r"<script>(.*?)</script>", html, re.S)
        if page != "table":
            assert not inline
            assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
            continue
        # the table's page carries one classic script (it opens the connections while the
        # page is parsed), allowed by its hash alone, on the page and on its 304s
        digest = base64.b64encode(hashlib.sha256(inline[0].encode()).digest()).decode()
        policy = CONTENT_SECURITY_POLICY.replace(
            "script-src 'self'", f"script-src 'self' 'sha256-{digest}'"
        )
        assert len(inline) == 1 and policy != CONTENT_SECURITY_POLICY
        assert response.headers["content-security-policy"] == policy
        again = client.get(url, headers={"If-None-Match": response.headers["etag"]})
        assert again.status_code == 304
        assert again.headers["content-security-policy"] == policy
        # before the style sheet, which would hold it back until it arrived
        assert html.index("<script>") < html.index('rel="stylesheet"')
    assert "'unsafe-inline'" not in CONTENT_SECURITY_POLICY
    assert "'unsafe-eval'" not in CONTENT_SECURITY_POLICY
    # one policy for every response, set in one place (web/security.py): the API's reference
    # page (Swagger UI served from the package) runs under it too
    for url in ("/healthz", "/api/docs", "/api/games"):
        assert client.get(url).headers["content-security-policy"] == CONTENT_SECURITY_POLICY


def test_only_the_built_files_are_served(client) -> None:
    for url in (
        "/static/js/main.js",  # the old unbundled files
        "/static/css/app.css",
        "/static/manifest.json",
        "/static/table.html",
        "/static/nothing.js",
        "/static/..%2Fassets.py",
    ):
        assert client.get(url).status_code == 404, url


def test_json_responses_are_gzipped_when_large(client) -> None:
    raw = client.get("/api/games", headers={"Accept-Encoding": "identity"})
    packed = client.get("/api/games", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in raw.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.json() == raw.json()
    assert int(packed.headers["content-length"]) < len(raw.content) / 4
    small = client.get("/api/agents", headers={"Accept-Encoding": "gzip"})
    assert len(small.content) < 1024 and "content-encoding" not in small.headers
