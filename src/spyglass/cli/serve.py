"""``spyglass serve``: the web app (lobby, tables, bots) on a local address."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from spyglass.engine import SpyglassError

console = Console(highlight=False)


def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database: a SQLite file path (default ~/.local/share/spyglass/web.sqlite3)"
            " or postgresql://user:password@host/dbname."
        ),
    ] = None,
    bot_workers: Annotated[
        int | None, typer.Option(min=1, help="Bot worker processes (default: cores, at most 4).")
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(min=0, help="Seconds before each bot move at tables with people.")
    ] = 0.4,
) -> None:
    """Start the web app: open the address it prints in a browser."""
    # Imported here so that the other commands do not load the web stack.
    from spyglass.web.server import serve  # noqa: PLC0415

    try:
        serve(
            host,
            port,
            db,
            bot_workers=bot_workers,
            bot_delay=bot_delay,
            announce=lambda line: console.print(f"[bold green]{escape(line)}[/]", soft_wrap=True),
        )
    except SpyglassError as error:
        console.print(f"[red]error:[/] {escape(str(error))}")
        raise typer.Exit(2) from None
