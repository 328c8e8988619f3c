"""What a full database dump shows: every row of every table as text, for the leak checks of the privacy tests and
the adversarial PII suite (a value found here was stored in clear)."""

from __future__ import annotations


def database_dump() -> str:
    """Every row of every table (django-q's excepted: its task payloads are pickled) as text."""
    from django.db import connection

    chunks = []
    with connection.cursor() as cursor:
        cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'django_q%'")
        for (table,) in cursor.fetchall():
            cursor.execute(f'SELECT t::text FROM "{table}" t')
            chunks.extend(row[0] for row in cursor.fetchall())
    return "\n".join(chunks)
