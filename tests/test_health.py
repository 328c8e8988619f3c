import pytest
from django.db import connection


@pytest.mark.django_db
def test_healthz_ok_names_every_part(client):
    response = client.get("/healthz")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok" and body["failing"] == []
    checks = body["checks"]
    assert checks["database"]["ok"] and "PostgreSQL 18" in checks["database"]["version"]
    assert checks["vector"]["ok"] and checks["vector"]["version"].startswith("0.8")
    assert checks["queue"]["ok"] and checks["queue"]["broker"].startswith("ORM")
    assert checks["consolidator"]["kind"] in {"llm", "extractive"}


@pytest.mark.django_db
def test_healthz_503_names_missing_vector_extension(client):
    # DDL is transactional in PostgreSQL: the test's transaction rolls this back.
    with connection.cursor() as cursor:
        cursor.execute("DROP EXTENSION vector CASCADE")
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["vector"]
    assert "vector" in body["checks"]["vector"]["error"]


def test_healthz_needs_no_api_key(client, db):
    assert client.get("/healthz").status_code == 200
