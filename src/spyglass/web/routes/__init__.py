"""The HTTP and WebSocket routes, one router per concern: games, tables, seats (invites and
keys), the live table (WebSocket) and the pages. Each router reaches the server's one
:class:`~spyglass.web.manager.TableManager` through :func:`deps.manager`, so a router can be
mounted and tested alone."""
