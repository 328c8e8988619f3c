from io import StringIO

import pytest
import yaml
from django.core.management import call_command


@pytest.mark.django_db
def test_openapi_schema_generates_without_warnings(tmp_path):
    out = tmp_path / "schema.yaml"
    err = StringIO()
    # --fail-on-warn turns every drf-spectacular warning or error into a failure; --validate checks OpenAPI 3.
    call_command("spectacular", "--file", str(out), "--validate", "--fail-on-warn", stderr=err)
    assert "Warning" not in err.getvalue() and "Error" not in err.getvalue(), err.getvalue()
    schema = yaml.safe_load(out.read_text())
    assert schema["openapi"].startswith("3.")
    assert "/api/v1/agents/me" in schema["paths"]
    assert "bearerAuth" in str(schema["components"].get("securitySchemes", {})) or schema["components"].get(
        "securitySchemes"
    )
    # every API operation says which role it needs
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if path.startswith("/api/v1/"):
                assert "Needs " in operation.get("description", ""), (method, path)
    assert "Needs the `operator` role" in schema["paths"]["/api/v1/consolidations/run"]["post"]["description"]
    # grouped by resource in the docs, each operation with a one-line summary
    resources = {"sessions", "exchanges", "episodes", "experiences", "search", "feedback", "consolidations", "agents",
                 "metrics", "export"}
    summaries = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if path.startswith("/api/v1/"):
                assert len(operation.get("tags", [])) == 1 and operation["tags"][0] in resources, (method, path)
                assert operation.get("summary", "").strip(), (method, path)
                summaries.append(operation["summary"])
    assert len(set(summaries)) == len(summaries)
    assert schema["paths"]["/api/v1/sessions/{session_id}/exchanges"]["post"]["tags"] == ["exchanges"]


@pytest.mark.django_db
def test_schema_and_docs_are_served(client):
    assert client.get("/api/schema/").status_code == 200
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()



@pytest.mark.django_db
def test_redoc_loads_nothing_from_another_origin(client):
    """ReDoc offline: no web fonts, its script from our static files, and a policy refusing anything from elsewhere
    (its bundle shows a vendor logo from a CDN)."""
    page = client.get("/api/redoc/").content.decode()
    assert "fonts.googleapis" not in page and "cdn." not in page
    assert "default-src 'self'" in page and "img-src 'self' data:" in page
    scripts = [line for line in page.splitlines() if "<script src=" in line]
    assert scripts and all('src="/static/' in line for line in scripts), scripts
