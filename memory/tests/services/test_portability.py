"""Export and import of a project: the round trip keeps search results, a second import is a no-op, an export holds
no clear value the database did not hold, hostile files are refused with nothing written, the vault stays out unless
a person allowed to reveal asks for it."""

from __future__ import annotations

import io
import json
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission, User

from agents.models import Agent, Project
from core.errors import ApplicationError, Conflict, NotAllowed
from governance.models import AuditEvent, VaultEntry
from memory.models import (
    Episode,
    EpisodeSource,
    Exchange,
    Experience,
    ExperienceEvidence,
    MemoryVersion,
    Session,
)
from memory.search.query import SearchQuery
from memory.search.services import search_unrecorded
from memory.services.consolidation import consolidation_run
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_close, session_create
from memory.services.portability import KINDS, export_parse, project_export, project_import
from memory.services.scheduling import RUN_MANUAL
from memory.tests.factories import T0

pytestmark = pytest.mark.django_db

CLEAR = ["Jan de Vries", "+31 6 1234 5678", "jan.devries@example.com", "Maria Lopez", "maria@example.org"]
SESSIONS = [
    [("My colleague Jan de Vries runs the nightly backup at 02:00; call him on +31 6 1234 5678.", "Noted."),
     ("Remember that we deploy on Thursdays only, never on Fridays.", "Understood, Thursdays only."),
     ("Maria Lopez owns the billing service; mail maria@example.org for access.", "Got it.")],
    [("Jan de Vries still runs the nightly backup at 02:00, write to jan.devries@example.com.", "Ok."),
     ("We deploy on Thursdays only; Friday deploys are forbidden.", "Right, Thursday deploys."),
     ("The staging database is postgres 16 on host db-stage-2.", "Noted the staging host.")],
    [("Deploys happen on Thursdays, not Fridays, as a rule.", "Yes, Thursday."),
     ("Maria Lopez approved the billing refactor last week.", "Good to know."),
     ("The nightly backup by Jan de Vries moved to 03:00.", "Updated: 03:00.")],
]
QUERIES = ["who runs the nightly backup?", "when do we deploy?", "who owns billing?", "staging database host",
           "Jan de Vries phone", "Maria Lopez", "Friday deploys", "backup time 03:00"]


@pytest.fixture
def extractive(settings):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle", llm__base_url="")


def _world(make_agent) -> tuple[Project, list[Agent]]:
    a = make_agent(name="atlas", modules=["ops"], roles=["writer", "reader", "operator"]).agent
    b = make_agent(name="birch", modules=["ops"], roles=["writer", "reader"]).agent
    for day, pairs in enumerate(SESSIONS):
        for agent, module in ((a, None), (b, "ops")):
            session = session_create(agent=agent, started_at=T0 + timedelta(days=day), module=module)
            exchanges_ingest(agent=agent, session=session, items=[
                ExchangeIn(user=u, assistant=r, occurred_at=T0 + timedelta(days=day, hours=i))
                for i, (u, r) in enumerate(pairs)])
            session_close(agent=agent, session=session)
    for agent in (a, b):
        consolidation_run(agent_id=agent.pk, run=RUN_MANUAL)
    return a.project, [a, b]


def _export(project, **kw) -> bytes:
    return "".join(project_export(project=project, actor_label="test", **kw)).encode()


def _import(data: bytes, **kw):
    return project_import(parsed=export_parse(io.BytesIO(data)), actor_label="test", **kw)


def _results(agent: Agent, query: str, mapping=lambda x: x) -> list[tuple[str, float, frozenset[str]]]:
    """Per layer, in rank order: each score with the ids that have it. Equal scores are ordered by id, and a renamed
    copy's ids are others (a fresh database keeps them: the bench compares that order exactly). k covers every row
    of this small world, so no group of equal scores is cut at k (which of its rows made the cut is the ids' order)."""
    _, result = search_unrecorded(agent=agent, query=SearchQuery(query=query, k_sub=100, k_epi=50, k_sem=100))
    out: list[tuple[str, float, frozenset[str]]] = []
    for layer in ("exchanges", "episodes", "experiences"):
        for h in getattr(result, layer):
            score, pk = round(h.score, 6), mapping(str(h.obj.pk))
            if out and out[-1][:2] == (layer, score):
                out[-1] = (layer, score, out[-1][2] | {pk})
            else:
                out.append((layer, score, frozenset({pk})))
    return out


def _counts(project_ids=None) -> dict[str, int]:
    models = [Project, Agent, Session, Exchange, Episode, EpisodeSource, Experience, ExperienceEvidence,
              MemoryVersion, VaultEntry]
    return {m.__name__: m._base_manager.count() for m in models}


def test_round_trip_keeps_search_results_and_a_second_import_is_a_no_op(make_agent, extractive):
    project, agents = _world(make_agent)
    assert Experience.objects.filter(project=project).exists() and Episode.objects.filter(project=project).exists()
    assert ExperienceEvidence.objects.filter(experience__project=project).exists()
    data = _export(project)
    lines = [json.loads(line) for line in data.decode().splitlines()]
    assert lines[0]["format"] == "recmem-export" and lines[0]["version"] == 1 and lines[-1]["kind"] == "end"
    kinds = {line["kind"] for line in lines[1:-1]}
    assert {"project", "agent", "module", "session", "exchange", "episode", "episode_source", "experience",
            "experience_evidence", "batch"} <= kinds
    # no key material of any kind; agents by name and roles
    assert all("key_hash" not in json.dumps(line) and "api_key" not in line.get("kind", "") for line in lines)

    report = _import(data, as_project="acme-copy")
    assert report.project_created and report.created_total > 0 and report.project.pk != project.pk
    copy = report.project
    assert Exchange.objects.filter(project=copy).count() == Exchange.objects.filter(project=project).count()
    assert Experience.objects.filter(project=copy).count() == Experience.objects.filter(project=project).count()

    before = _counts()
    again = _import(data, as_project="acme-copy")
    assert again.created_total == 0 and not again.project_created and again.project.pk == copy.pk
    assert _counts() == before

    # identical search results for the same agent (same name) in the copy: ids mapped, same order, same scores
    def mapped(value: str) -> str:
        return str(uuid.uuid5(copy.pk, value))

    compared = 0
    for agent in agents:
        twin = Agent.objects.get(project=copy, name=agent.name)
        assert set(twin.modules.values_list("name", flat=True)) == set(agent.modules.values_list("name", flat=True))
        for query in QUERIES:
            original = _results(agent, query, mapped)
            assert original, query
            assert _results(twin, query) == original, (agent.name, query)
            compared += 1
    assert compared == 2 * len(QUERIES)

    # provenance and versions travel: every evidence link and version of the original has its twin
    links = {(mapped(str(e)), mapped(str(x))) for e, x in ExperienceEvidence.objects.filter(
        experience__project=project).values_list("experience_id", "exchange_id")}
    assert links == {(str(e), str(x)) for e, x in ExperienceEvidence.objects.filter(
        experience__project=copy).values_list("experience_id", "exchange_id")}
    assert MemoryVersion.objects.filter(experience__project=copy).count() + MemoryVersion.objects.filter(
        episode__project=copy).count() == MemoryVersion.objects.filter(experience__project=project).count() + \
        MemoryVersion.objects.filter(episode__project=project).count()
    supersede = {(mapped(str(a)), mapped(str(b))) for a, b in Experience.objects.filter(
        project=project, superseded_by__isnull=False).values_list("pk", "superseded_by_id")}
    assert supersede == {(str(a), str(b)) for a, b in Experience.objects.filter(
        project=copy, superseded_by__isnull=False).values_list("pk", "superseded_by_id")}

    # derived, not carried: each item's source_agent is recomputed from its imported links (the twin agents' ids)
    twins = {str(a.pk): str(Agent.objects.get(project=copy, name=a.name).pk) for a in agents}
    for model in (Episode, Experience):
        expected = {mapped(str(pk)): twins.get(str(agent), str(agent)) if agent else None
                    for pk, agent in model.objects.filter(project=project).values_list("pk", "source_agent")}
        assert expected == {str(pk): str(agent) if agent else None for pk, agent in model.objects.filter(
            project=copy).values_list("pk", "source_agent")}, model.__name__
        assert any(expected.values()), model.__name__

    # audited: the export (a read of the project) and both imports
    assert AuditEvent.objects.filter(project=project, object_type="project", action="read").count() == 1
    assert AuditEvent.objects.filter(project=copy, object_type="project", action="create").count() == 2


def test_an_export_holds_no_clear_value_the_database_did_not_hold(make_agent, extractive):
    project, _ = _world(make_agent)
    stored = " ".join(Exchange.objects.filter(project=project).values_list("user_text", flat=True))
    held_clear = [v for v in CLEAR if v in stored]
    assert not held_clear, held_clear  # masked on the way in
    text = _export(project).decode()
    assert not [v for v in CLEAR if v in text]
    assert "<PERSON_" in text or "<EMAIL" in text or "<PHONE" in text


def test_the_vault_is_exported_only_for_a_person_allowed_to_reveal(make_agent, extractive):
    project, _ = _world(make_agent)
    assert VaultEntry.objects.filter(project=project).exists()
    nobody = User.objects.create_user("nobody", password="x")
    with pytest.raises(NotAllowed):
        project_export(project=project, user=nobody, include_vault=True, reason="move")
    assert AuditEvent.objects.filter(action="reveal_refused", actor_user=nobody).exists()
    officer = User.objects.create_user("officer", password="x")
    officer.user_permissions.add(*Permission.objects.filter(codename__in=["reveal_vaultentry", "view_vaultentry"]))
    officer = User.objects.get(pk=officer.pk)
    with pytest.raises(ApplicationError):
        project_export(project=project, user=officer, include_vault=True, reason=" ")
    text = "".join(project_export(project=project, user=officer, include_vault=True, reason="moving deployment"))
    assert "maria@example.org" in text and "+31 6 1234 5678" in text  # asked for, allowed, and audited
    assert AuditEvent.objects.filter(action="reveal", actor_user=officer, data__export=True).exists()
    report = project_import(parsed=export_parse(io.BytesIO(text.encode())), as_project="acme-vault")
    assert report.created["vault_entry"] == VaultEntry.objects.filter(project=project).count()
    assert not VaultEntry.objects.filter(project=report.project, ciphertext__contains="maria").exists()
    # and a plain export holds none of them
    assert "maria@example.org" not in _export(project).decode()


def test_a_different_project_of_the_same_name_is_refused_unless_merged(make_agent, extractive):
    project, _ = _world(make_agent)
    data = _export(project)
    make_agent(project="other", name="someone")
    before = _counts()
    with pytest.raises(Conflict):
        _import(data, as_project="other")
    assert _counts() == before
    report = _import(data, as_project="other", merge=True)
    assert not report.project_created and report.created["exchange"] == Exchange.objects.filter(
        project=project).count()
    assert _import(data, as_project="other", merge=True).created_total == 0
    # the original itself: everything is already there
    assert _import(data).created_total == 0


def _mutate(data: bytes, kind: str, change) -> bytes:
    out, done = [], False
    for line in data.decode().splitlines():
        obj = json.loads(line)
        if not done and obj.get("kind") == kind:
            change(obj)
            done = True
            line = json.dumps(obj)
        out.append(line)
    assert done, kind
    return ("\n".join(out) + "\n").encode()


HOSTILE = {
    "not json": lambda d: d.replace(b'"kind":"session"', b'"kind":session', 1),
    "another format": lambda d: d.replace(b"recmem-export", b"other-export", 1),
    "a future version": lambda d: d.replace(b'"version":1', b'"version":99', 1),
    "unknown kind": lambda d: _mutate(d, "session", lambda o: o.update(kind="api_key")),
    "unknown field": lambda d: _mutate(d, "exchange", lambda o: o["fields"].update(key_hash="x")),
    "wrong type": lambda d: _mutate(d, "exchange", lambda o: o["fields"].update(turn_index="7")),
    "bad choice": lambda d: _mutate(d, "experience", lambda o: o["fields"].update(status="godmode")),
    "too long": lambda d: _mutate(d, "experience", lambda o: o["fields"].update(subject="x" * 5000)),
    "NUL in text": lambda d: _mutate(d, "exchange", lambda o: o["fields"].update(user_text="a\u0000b")),
    "short vector": lambda d: _mutate(d, "exchange", lambda o: o["fields"].update(embedding={"f32": "AAAA"})),
    "dangling reference": lambda d: _mutate(d, "exchange", lambda o: o["fields"].update(session=str(uuid.uuid4()))),
    "naive time": lambda d: _mutate(d, "session", lambda o: o["fields"].update(started_at="2026-01-01T00:00:00")),
    "truncated": lambda d: b"\n".join(d.splitlines()[:-1]) + b"\n",
    "reordered": lambda d: b"\n".join([d.splitlines()[0], *reversed(d.splitlines()[1:-1]), d.splitlines()[-1]]),
    "vault without header flag": lambda d: d.replace(b'{"kind":"end"', b'{"kind":"vault_entry","fields":{'
                                                    b'"placeholder":"<P>","entity_type":"PERSON","value":"x"}}\n'
                                                    b'{"kind":"end"', 1),
    "empty": lambda d: b"",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_file_is_refused_naming_its_line_and_nothing_is_written(make_agent, extractive, name):
    project, _ = _world(make_agent) if name == "not json" else (None, None)
    if project is None:
        holder = make_agent(name="atlas")
        session = session_create(agent=holder.agent, started_at=T0)
        exchanges_ingest(agent=holder.agent, session=session, items=[ExchangeIn(user="Deploys on Thursdays.",
                                                                                assistant="ok")])
        from memory.tests.factories import make_memories

        make_memories(Exchange.objects.get(session=session))
        project = holder.agent.project
    data = HOSTILE[name](_export(project))
    before = _counts()
    with pytest.raises(ApplicationError) as caught:
        _import(data, as_project="hostile")
    assert caught.value.code == "invalid_export" and caught.value.message.startswith("line "), caught.value.message
    assert _counts() == before and not Project.objects.filter(name="hostile").exists()


def test_an_import_that_fails_half_way_writes_nothing(make_agent, extractive):
    """An episode id the renamed copy would use is taken by another project: the import stops after the project
    and the earlier kinds were written, and the transaction takes all of it back."""
    project, _ = _world(make_agent)
    foreign = make_agent(project="elsewhere", name="x").agent
    data = _export(project)
    episode = next(json.loads(line)["fields"]["id"] for line in data.decode().splitlines()
                   if json.loads(line).get("kind") == "episode")
    copy_id = uuid.uuid5(project.pk, "recmem-import:acme-copy")
    Episode.objects.create(id=uuid.uuid5(copy_id, episode), project=foreign.project, owner_agent=foreign,
                           title="t", narrative="n", embedding=[0.1] * 384, embedding_model="x")
    before = _counts()
    with pytest.raises(Conflict):
        _import(data, as_project="acme-copy")
    assert _counts() == before and not Project.objects.filter(name="acme-copy").exists()


def test_every_kind_is_exported_from_the_models_own_fields():
    """Generic: a field added to a model is in the export without a change here."""
    from memory.services.portability import _fields

    for kind in KINDS:
        names = {f.name for f in _fields(kind.model, kind)}
        expected = {f.name for f in kind.model._meta.concrete_fields if not f.generated} - set(kind.exclude)
        assert expected - names <= {"id"}, kind.name


def test_the_commands_round_trip_through_a_tar(make_agent, extractive, tmp_path):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    holder = make_agent(name="atlas")
    session = session_create(agent=holder.agent, started_at=T0)
    exchanges_ingest(agent=holder.agent, session=session, items=[
        ExchangeIn(user="Mail maria@example.org about the Thursday deploy.", assistant="ok")])
    out = tmp_path / "acme.tar"
    call_command("export_project", "--project", "acme", "--out", str(out), "--tar")
    import tarfile

    assert tarfile.is_tarfile(out) and "maria@example.org" not in out.read_bytes().decode("latin-1")
    report = io.StringIO()
    call_command("import_project", str(out), "--as-project", "acme-2", stdout=report)
    first = json.loads(report.getvalue())
    assert first["project_created"] and first["created"]["exchange"] == 1
    report = io.StringIO()
    call_command("import_project", str(out), "--as-project", "acme-2", stdout=report)
    assert json.loads(report.getvalue())["created_total"] == 0
    with pytest.raises(CommandError, match="--include-vault needs --user"):
        call_command("export_project", "--project", "acme", "--include-vault")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "recmem-export", "version": 1}\n')
    with pytest.raises(CommandError, match="line 1"):
        call_command("import_project", str(bad))


def test_an_older_export_without_a_field_gets_the_models_default(make_agent, extractive):
    """A field added after an export was written is filled with its default on import; a required one is refused."""
    holder = make_agent(name="atlas")
    session = session_create(agent=holder.agent, started_at=T0)
    exchanges_ingest(agent=holder.agent, session=session, items=[ExchangeIn(user="Deploys on Thursdays.",
                                                                            assistant="ok")])
    from memory.tests.factories import make_memories

    _, experience = make_memories(Exchange.objects.get(session=session))
    Experience.objects.filter(pk=experience.pk).update(tags=["deploy"], support_sessions=3)
    data = _export(holder.agent.project)
    older = data
    for name in ("tags", "support_sessions", "last_corroborated_at"):
        older = _mutate(older, "experience", lambda o, name=name: o["fields"].pop(name))
    report = _import(older, as_project="acme-old")
    copy = Experience.objects.get(project=report.project)
    assert copy.tags == [] and copy.support_sessions == 1 and copy.last_corroborated_at is not None
    required = _mutate(data, "experience", lambda o: o["fields"].pop("statement"))
    with pytest.raises(ApplicationError, match="statement is missing"):
        _import(required, as_project="acme-older")
