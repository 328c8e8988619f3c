"""PostgreSQL backend that starts the embedded server on first connection.

Lazy on purpose: commands that never touch the database (``--help``, ``check --deploy`` lint, ruff) do not start
PostgreSQL, and every process (web, qcluster, tests, management commands) finds the socket the same way.
"""

from django.db.backends.postgresql import base

from recmem_site import embedded_db


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self):
        params = super().get_connection_params()
        info = embedded_db.ensure_running(self.settings_dict["RECMEM_HOME"], database=self._database_to_create())
        params["host"] = info.socket_dir
        params["port"] = info.port
        return params

    def _database_to_create(self) -> str | None:
        name = self.settings_dict.get("NAME")
        # pytest-django / Django create the test database themselves (connected to "postgres").
        if not name or name == "postgres" or name.startswith("test_"):
            return None
        return name
