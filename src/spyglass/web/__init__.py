"""The web server, its persistence and the browser front-end.

``create_app(db_url)`` builds the FastAPI application; ``spyglass serve`` runs it. Nothing in
spyglass imports this package.
"""

from .app import create_app
from .store import database_url

__all__ = ["create_app", "database_url"]
