"""The lifecycle of a memory item: archive beyond RECMEM_MAX_MEMORIES, revalidation flags, purge of a
subject; pattern mining's conditions; lesson / procedure from repeated failures and fixes; tags."""

from datetime import timedelta

import pytest
from django.db.models import F
from django.utils import timezone

from core.config import config_override
from core.errors import NotFound
from governance.models import AuditEvent, PseudonymEntry, VaultEntry
from memory.gateways.embeddings import get_embedder
from memory.models import Episode, Exchange, Experience, MemoryVersion, ValiditySample
from memory.review.versions import memory_version_save
from memory.services.consolidation import consolidation_run, pattern_evidence, pattern_holds
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_create
from memory.services.lifecycle import memories_archive, memories_revalidation_flag, retention_score, subject_purge
from memory.tests.factories import T0, make_memories, post_exchanges, post_session
from tests.console.conftest import stored_rule


def _experience(agent, statement, *, confidence=0.6, days_old=0, hits=0, tags=()):
    embedder = get_embedder()
    when = timezone.now() - timedelta(days=days_old)
    return Experience.objects.create(
        project_id=agent.project_id, owner_agent=agent, scope="personal", type="fact", subject="topic",
        statement=statement, embedding=embedder.embed_one(statement), embedding_model=embedder.model_id,
        confidence=confidence, hit_count=hits, last_corroborated_at=when, updated_at=when, tags=list(tags))


@pytest.mark.django_db
def test_archive_beyond_max_memories_by_importance_and_freshness(make_agent, settings, api_client, admin_client):
    """Observed: RECMEM_MAX_MEMORIES was never read and nothing was ever archived."""
    settings.RECMEM = settings.RECMEM.replace(consolidation__max_memories=2)
    holder = make_agent()
    agent = holder.agent
    keep_fresh = _experience(agent, "The user drinks oat milk in coffee.", confidence=0.9)
    keep_used = _experience(agent, "The user takes the 8:10 train to work.", confidence=0.6, days_old=60, hits=80)
    old = _experience(agent, "The user once tried a vegan bakery.", confidence=0.6, days_old=200)
    weak = _experience(agent, "The user may like jazz.", confidence=0.2, days_old=30)
    other = make_agent(project="other").agent
    _experience(other, "Another project's item.", days_old=300)  # its own scope, under the limit
    now = timezone.now()
    score = {x.pk: retention_score(x, now=now) for x in (keep_fresh, keep_used, old, weak)}
    assert max(score[old.pk], score[weak.pk]) < min(score[keep_fresh.pk], score[keep_used.pk])
    assert memories_archive() == 2
    statuses = dict(Experience.objects.values_list("pk", "status"))
    assert statuses[keep_fresh.pk] == statuses[keep_used.pk] == "active"
    assert statuses[old.pk] == statuses[weak.pk] == "archived"
    assert Experience.objects.get(pk=old.pk).archived_at is not None
    assert memories_archive() == 0  # at the limit now
    # Not searched by default.
    response = api_client.post("/api/v1/search", {"query": "vegan bakery", "k_sub": 0, "k_epi": 0}, format="json",
                               **holder.headers)
    assert str(old.pk) not in {x["id"] for x in response.json()["experiences"]}
    # Restorable in the admin.
    response = admin_client.post("/admin/memory/experience/", {"action": "restore", "_selected_action": [old.pk]})
    assert response.status_code == 302
    assert Experience.objects.get(pk=old.pk).status == "active"
    assert MemoryVersion.objects.filter(experience=old, reason="archive").exists()


@pytest.mark.django_db
def test_items_not_corroborated_for_long_need_revalidation(make_agent, settings, api_client):
    """Observed: needs_revalidation was never set."""
    settings.RECMEM = settings.RECMEM.replace(consolidation__revalidate_after_days=180)
    holder = make_agent()
    stale = _experience(holder.agent, "The staging database runs PostgreSQL 13.", days_old=200)
    fresh = _experience(holder.agent, "The staging database lives in eu-west-1.", days_old=10)
    assert memories_revalidation_flag() == 1
    assert Experience.objects.get(pk=stale.pk).needs_revalidation
    assert not Experience.objects.get(pk=fresh.pk).needs_revalidation
    sample = ValiditySample.objects.get()  # fed to the validity sampling queue
    assert sample.experience_id == stale.pk and "not corroborated" in sample.reason
    assert memories_revalidation_flag() == 0  # flagged once
    response = api_client.post("/api/v1/search", {"query": "staging database PostgreSQL"}, format="json",
                               **holder.headers)
    hits = {x["id"]: x for x in response.json()["experiences"]}
    assert hits[str(stale.pk)]["needs_revalidation"] is True and hits[str(fresh.pk)]["needs_revalidation"] is False
    line = next(line for line in response.json()["context"].splitlines() if "PostgreSQL 13." in line)
    assert line.startswith("- [fact · ") and "needs revalidation" in line  # its label says so, on its own line


@pytest.mark.django_db
@pytest.mark.parametrize("by", ["original", "placeholder"])
def test_purge_a_subject(make_agent, api_client, by):
    """Observed: no hard delete; a person asking to be forgotten could not be."""
    holder = make_agent()
    session = post_session(api_client, holder)["id"]
    stored = post_exchanges(api_client, holder, session, [
        {"user": "My colleague Jane Roe called about the invoice.", "assistant": "Noted, I'll remind you."},
        {"user": "The invoice is due next week.", "assistant": "OK."}])
    mention = Exchange.objects.get(pk=stored[0]["id"])
    [placeholder] = [p for p in PseudonymEntry.objects.values_list("placeholder", flat=True) if "PERSON" in p]
    assert placeholder in mention.user_text and "Jane" not in mention.user_text
    episode, experience = make_memories(mention)
    memory_version_save(obj=episode, batch=None, reason="merge")
    unrelated = _experience(holder.agent, "The invoice is due on Friday.")
    before = list(Exchange.objects.get(pk=stored[1]["id"]).embedding)
    counts = subject_purge(project=holder.agent.project, value="Jane Roe" if by == "original" else placeholder,
                           reason="erasure request #12")
    assert not Exchange.objects.filter(pk=mention.pk).exists()  # the raw exchange is forgotten with its text
    assert not Episode.objects.filter(pk=episode.pk).exists()  # built on it alone
    assert not Experience.objects.filter(pk=experience.pk).exists()  # deleted for good
    assert Experience.objects.filter(pk=unrelated.pk).exists()
    assert all(placeholder not in str(v.snapshot) for v in MemoryVersion.objects.all())
    assert not VaultEntry.objects.filter(placeholder=placeholder).exists()
    assert not PseudonymEntry.objects.filter(placeholder=placeholder).exists()
    assert list(Exchange.objects.get(pk=stored[1]["id"]).embedding) == before  # the rest untouched
    assert counts["exchanges_deleted"] == 1 and counts["experiences_deleted"] == 1
    [event] = AuditEvent.objects.filter(action="purge")
    recorded = f"{event.reason} {event.data} {event.source_ids} {event.object_id}"
    assert "Jane" not in recorded and placeholder not in recorded
    assert event.data["entity_types"] == ["PERSON"] and event.data["exchanges_deleted"] == 1
    with pytest.raises(NotFound):
        subject_purge(project=holder.agent.project, value="Nobody Atall")


def _pattern_item(api_client, holder, texts, statement="Deploys happen after the tests pass.", **kw):
    item = stored_rule(holder=holder, api_client=api_client, statement=statement, user_texts=texts, **kw)
    # Its sessions days apart, as stored: one agent's sessions stored within the burst window count once.
    Exchange.objects.filter(experiences=item).update(created_at=F("occurred_at"))
    return item


def _support(stats: dict) -> dict:
    return {k: stats[k] for k in ("sessions", "agents", "on_topic_sessions")}


DEPLOY = ["Our deploys always happen after the tests pass.", "We deploy only once the tests are green.",
          "Remember: deploy after the test suite passes."]


@pytest.mark.django_db
def test_pattern_mining_needs_independent_on_topic_evidence_without_conflict(make_agent, api_client):
    """Observed: promotion at >= 3 sessions without checking same topic or conflicts."""
    holder = make_agent(modules=["ops"])
    item = _pattern_item(api_client, holder, DEPLOY, scope="personal", module=None)
    from agents.visibility import ScopeKey

    module = holder.agent.modules.get()
    target = ScopeKey.for_scope(project_id=item.project_id, scope="module", module_id=module.pk)
    stats = pattern_evidence(experience=item)
    assert _support(stats) == {"sessions": 3, "agents": 1, "on_topic_sessions": 3}
    assert (stats["independent_sessions"], stats["independent_agents"]) == (3, 1)
    assert not pattern_holds(experience=item, stats=stats, target=target)  # held by one agent only
    # A second member's personal note of the same rule: independent support for the module.
    _pattern_item(api_client, make_agent(modules=["ops"]), DEPLOY[:1], scope="personal", module=None)
    stats = pattern_evidence(experience=item)
    assert _support(stats) == {"sessions": 4, "agents": 2, "on_topic_sessions": 4}
    assert (stats["independent_sessions"], stats["independent_agents"]) == (4, 2)
    assert pattern_holds(experience=item, stats=stats, target=target)
    # Three sessions, but two of them are about something else: not the same topic.
    off = _pattern_item(api_client, holder, [DEPLOY[0], "What's a good name for a grey kitten?",
                                             "Can you recommend a sci-fi novel?"], scope="personal", module=None)
    off_stats = pattern_evidence(experience=off)
    assert off_stats["sessions"] == 4 and off_stats["on_topic_sessions"] < 3  # its own three, the peer's note
    assert not pattern_holds(experience=off, stats=off_stats, target=target)
    # An active item of the target scope with the same subject says something else: a conflict.
    other = make_agent(modules=["ops"])
    _pattern_item(api_client, other, ["We deploy on Fridays at noon, tests or not."], scope="module",
                  statement="Deploys happen every Friday at noon regardless of tests.")
    assert not pattern_holds(experience=item, stats=stats, target=target)


@pytest.mark.django_db
def test_module_to_project_needs_more_than_one_agent(make_agent, api_client):
    holder = make_agent(modules=["ops"])
    item = _pattern_item(api_client, holder, DEPLOY)  # module scope, one agent, three sessions
    from agents.visibility import ScopeKey

    target = ScopeKey.for_scope(project_id=item.project_id, scope="project")
    stats = pattern_evidence(experience=item)
    assert stats["agents"] == 1 and not pattern_holds(experience=item, stats=stats, target=target)
    other = make_agent(modules=["ops"])
    session = post_session(api_client, other, module="ops")["id"]
    [e] = post_exchanges(api_client, other, session, [{"user": "Deploy only after the tests pass, always.",
                                                        "assistant": "Noted."}])
    item.evidence.add(Exchange.objects.get(pk=e["id"]))
    stats = pattern_evidence(experience=item)
    assert stats["agents"] == 2 and pattern_holds(experience=item, stats=stats, target=target)


FAILURES_AND_FIXES = [
    ("The deploy failed again with a missing table error. Turned out the migrations had not run; I learned to run "
     "the migrations before deploying.", "Yes, running migrations first avoids the missing table error."),
    ("Deploy failed once more: missing table error again. The fix was running the migrations first.",
     "Right, migrations before the deploy."),
    ("How we deploy after the missing table failures: 1. run the migrations 2. run the tests 3. deploy.",
     "Good order: migrations, tests, deploy."),
    ("Another failed deploy today, the missing table error. Lesson: always run migrations before the deploy.",
     "Agreed, migrations before deploy every time."),
    ("The deploy failed because of the missing table again; next time run the migrations before deploying.",
     "I'll remind you to run migrations before deploying."),
]


@pytest.mark.django_db
def test_repeated_failures_and_fixes_become_lessons_and_procedures(make_agent, settings, either_consolidator):
    """Observed: the types lesson, pattern and procedure were never produced in a live run."""
    # the session pass distils them; with an LLM it is opt-in (RECMEM_IDLE_SESSION_PASS=auto leaves it off there)
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle", idle__session_pass="on")
    agent = make_agent().agent
    for day, (user, assistant) in enumerate(FAILURES_AND_FIXES):
        session = session_create(agent=agent, started_at=T0 + timedelta(days=day))
        exchanges_ingest(agent=agent, session=session, items=[
            ExchangeIn(user=user, assistant=assistant, occurred_at=T0 + timedelta(days=day))])
    batch = consolidation_run(agent_id=agent.pk, run="manual")
    assert batch.status == "succeeded"
    types = set(Experience.objects.filter(status="active").values_list("type", flat=True))
    assert {"lesson", "procedure"} <= types, types
    lesson = Experience.objects.filter(type="lesson").first()
    assert lesson.tags and lesson.evidence.exists()


@pytest.mark.django_db
def test_tags_are_filterable_in_the_api(make_agent, api_client):
    holder = make_agent()
    tagged = _experience(holder.agent, "Deploys run after the migrations.", tags=["deployment", "database"])
    _experience(holder.agent, "The user likes jazz.", tags=["music"])
    response = api_client.get("/api/v1/experiences?tag=deployment", **holder.headers)
    assert response.status_code == 200
    assert [x["id"] for x in response.json()["results"]] == [str(tagged.pk)]
    assert response.json()["results"][0]["tags"] == ["deployment", "database"]
    # The tag filter is what is tested: without the experience floor (RECMEM_EXPERIENCE_FLOOR), which leaves out an item
    # this far from the query.
    with config_override(search__experience_floor=0.0):
        response = api_client.post("/api/v1/search", {"query": "deploy migrations", "tags": ["music"]},
                                   format="json", **holder.headers)
    assert [x["statement"] for x in response.json()["experiences"]] == ["The user likes jazz."]
    assert api_client.get("/api/v1/experiences?tag=" + "x" * 41, **holder.headers).status_code == 400
    assert Episode.objects.count() == 0


@pytest.mark.django_db
def test_purge_redacts_search_queries_and_edit_reasons_in_the_audit_trail(make_agent, api_client):
    from governance.selectors import audit_chain_verify

    holder = make_agent()
    session = post_session(api_client, holder)["id"]
    post_exchanges(api_client, holder, session, [
        {"user": "My colleague Jane Roe called about the invoice.", "assistant": "Noted, I'll remind you."}])
    [placeholder] = [p for p in PseudonymEntry.objects.values_list("placeholder", flat=True) if "PERSON" in p]
    searched = api_client.post("/api/v1/search", {"query": "what did my colleague Jane Roe say?"}, format="json",
                               **holder.headers)
    assert searched.status_code == 200
    experience = _experience(holder.agent, f"{placeholder} prefers e-mail.")
    edited = api_client.patch(f"/api/v1/experiences/{experience.pk}",
                              {"confidence": 0.5, "reason": "my colleague Jane Roe corrected it"}, format="json",
                              **holder.headers)
    assert edited.status_code == 200
    mentioning = AuditEvent.objects.filter(project=holder.agent.project, reason__contains=placeholder)
    assert mentioning.count() >= 2  # the search query and the edit reason
    counts = subject_purge(project=holder.agent.project, value="Jane Roe", reason="erasure request")
    assert counts["audit_reasons_redacted"] >= 2
    assert not AuditEvent.objects.filter(reason__contains=placeholder).exists()
    assert AuditEvent.objects.filter(reason__contains="[purged]", reason_purged=True).count() >= 2
    assert audit_chain_verify(project_id=holder.agent.project_id).ok  # the chain covers digests of reasons
    # an edited reason (not a purge) is still caught
    event = AuditEvent.objects.filter(project=holder.agent.project, reason_purged=False).exclude(reason="").first()
    AuditEvent.objects.filter(pk=event.pk).update(reason=event.reason + " (edited)")
    assert not audit_chain_verify(project_id=holder.agent.project_id).ok
