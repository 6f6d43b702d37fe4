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
        int | None,
        typer.Option(min=1, help="Bot worker processes (default: cores less one, 1 to 4)."),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(min=0, help="Seconds before each bot move at tables with people.")
    ] = 0.4,
    bot_time: Annotated[
        float, typer.Option(min=0.1, help="Most seconds a bot may think over one move.")
    ] = 5.0,
    hint_time: Annotated[
        float, typer.Option(min=0.1, help="Most seconds one hint may be thought over.")
    ] = 1.0,
    max_budget: Annotated[
        int, typer.Option(min=1, help="Most iterations per move a bot seat may ask for.")
    ] = 5000,
    table_rate: Annotated[
        str, typer.Option(help="Tables one address may create, e.g. '10/minute;100/day'.")
    ] = "10/minute;100/day",
    chat_rate: Annotated[
        str, typer.Option(help="Messages one seat may send, e.g. '5/5 seconds;30/minute'.")
    ] = "5/5 seconds;30/minute",
    hint_rate: Annotated[
        str, typer.Option(help="Hints one seat may ask for, e.g. '4/10 seconds;60/hour'.")
    ] = "4/10 seconds;60/hour",
    connections: Annotated[
        int, typer.Option(min=1, help="Live connections one address may hold.")
    ] = 64,
    archive_days: Annotated[
        float,
        typer.Option(min=0.01, help="Days without a move after which a table is archived."),
    ] = 14.0,
    cookie_secure: Annotated[
        str | None,
        typer.Option(
            help="Mark the session cookie Secure: auto (unless plain http on loopback), always"
            " or never [env SPYGLASS_COOKIE_SECURE; default auto]."
        ),
    ] = None,
    signup_rate: Annotated[
        str | None,
        typer.Option(
            help="Accounts one address may create [env SPYGLASS_SIGNUP_RATE; default"
            " '5/hour;20/day']."
        ),
    ] = None,
    login_rate: Annotated[
        str | None,
        typer.Option(
            help="Log-in attempts from one address [env SPYGLASS_LOGIN_RATE; default"
            " '20/minute;200/hour']."
        ),
    ] = None,
    login_failure_rate: Annotated[
        str | None,
        typer.Option(
            help="Failed log-ins per account name [env SPYGLASS_LOGIN_FAILURE_RATE; default"
            " '10/15 minutes;50/day']."
        ),
    ] = None,
) -> None:
    """Start the web app: open the address it prints in a browser."""
    # Imported here so that the other commands do not load the web stack.
    from spyglass.web.accounts import AccountSettings  # noqa: PLC0415
    from spyglass.web.bots import Caps  # noqa: PLC0415
    from spyglass.web.limits import Limits  # noqa: PLC0415
    from spyglass.web.server import serve  # noqa: PLC0415

    try:
        caps = Caps(bot_seconds=bot_time, hint_seconds=hint_time, max_budget=max_budget)
        limits = Limits(
            tables=table_rate,
            messages=chat_rate,
            hints=hint_rate,
            connections_per_client=connections,
            archive_days=archive_days,
        )
        account_settings = AccountSettings.from_env(
            cookie_secure=cookie_secure,
            signups=signup_rate,
            logins=login_rate,
            failures=login_failure_rate,
        )
        serve(
            host,
            port,
            db,
            bot_workers=bot_workers,
            bot_delay=bot_delay,
            caps=caps,
            limits=limits,
            account_settings=account_settings,
            announce=lambda line: console.print(f"[bold green]{escape(line)}[/]", soft_wrap=True),
        )
    except SpyglassError as error:
        console.print(f"[red]error:[/] {escape(str(error))}")
        raise typer.Exit(2) from None


def balancer_command(
    backend: Annotated[
        list[str],
        typer.Option(
            help="A server process's address, host:port (repeat: one per `spyglass serve`)."
        ),
    ],
    listen: Annotated[str, typer.Option(help="Address the balancer listens on.")] = "0.0.0.0:80",
) -> None:
    """Print an HAProxy configuration for several `spyglass serve` processes sharing one
    PostgreSQL database (docs/web.md, "Several processes")."""
    from spyglass.web.balancer import haproxy_config  # noqa: PLC0415

    for address in [*backend, listen]:
        host, _, port = address.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            console.print(f"[red]error:[/] not a host:port address: {escape(address)!r}")
            raise typer.Exit(2)
    print(haproxy_config(backend, listen), end="")
