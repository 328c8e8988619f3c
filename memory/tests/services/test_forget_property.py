"""The property of forget: random projects, agents, module memberships and sessions, consolidated for real (online,
extractive consolidator), then random forgets (a session, an agent's memory, a subject). Afterwards no API answer
(lists, search hits, context block), no admin changelist page and no row of any table (audit reasons, search logs,
stored replies, vault, registry, versions, review items' JSON included) holds a value of a forgotten exchange; every
item that kept evidence lives on exactly its evidence that was not forgotten, with its support recounted."""

from __future__ import annotations

import re
import uuid
from collections import Counter

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from agents.models import Agent
from core.errors import NotFound
from governance.selectors import placeholders_for_subject
from memory.models import Exchange, Experience, ExperienceEvidence, Session
from memory.services.consolidation import pattern_evidence
from memory.services.forget import forget
from memory.tests.factories import at, post_exchanges, post_session
from memory.tests.services.test_forget import _everything_text

pytestmark = pytest.mark.django_db

MARKER = "vexmarl"
TOPICS = [
    [("For my marathon training plan ({m}), how long should this Sunday's long run be?",
      "In week 3 of your marathon training plan the long run is 18 km at an easy pace."),
     ("I prefer to do my marathon training runs ({m}) in the early morning before work.",
      "Morning runs fit your marathon training plan; do the long run early on Sunday."),
     ("My marathon training plan ({m}): the long run hurt my knee. Should I change the plan?",
      "Take two rest days, then resume the marathon training plan with a shorter long run.")],
    [("My sourdough bread ({m}) came out flat again. Is my starter too weak?",
      "Feed the sourdough starter twice a day for three days before baking the bread."),
     ("Which flour is best for my sourdough bread ({m}), bread flour or whole wheat?",
      "Use mostly bread flour with 20 percent whole wheat for sourdough bread."),
     ("How long should my sourdough bread dough ({m}) rise in the fridge?",
      "A cold retard of 12 to 16 hours gives sourdough bread a better crumb.")],
]
NAME = "Jane Roe"
_counter = iter(range(10**6))


def _marker() -> str:
    n, letters = next(_counter), ""
    while True:
        n, r = divmod(n, 26)
        letters += chr(ord("a") + r)
        if n == 0:
            return MARKER + letters + "q"


def _markers(text: str) -> set[str]:
    return set(re.findall(MARKER + r"[a-z]+q", text.lower()))


@st.composite
def worlds(draw):
    agents = draw(st.integers(2, 3))
    memberships = [draw(st.frozensets(st.sampled_from(["m1"]))) for _ in range(agents)]
    writes = draw(st.lists(st.tuples(
        st.integers(0, agents - 1), st.sampled_from(["personal", "m1"]), st.integers(0, 1),
        st.integers(0, len(TOPICS) - 1), st.integers(0, len(TOPICS[0]) - 1),
        st.booleans(),  # carries a marker (else: the same words as other sessions', a value said elsewhere)
        st.sampled_from([False, False, True])),  # names a person
        min_size=4, max_size=8))
    forgets = draw(st.lists(st.tuples(st.sampled_from(["session", "session", "agent", "subject"]), st.integers(0, 10)),
                            min_size=1, max_size=2))
    return memberships, writes, forgets


def test_nothing_forgotten_can_be_found_again(api_client, make_agent, client, settings,
                                              django_capture_on_commit_callbacks):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online", llm__base_url="",
                                              consolidation__theta_count=3, consolidation__theta_sim=0.5)
    person = User.objects.create_superuser("dpo", "dpo@example.com", "pw-123456")
    client.force_login(person)
    stats = Counter()

    # one world known to keep items on other evidence: two members of m1 say the same things, one is forgotten
    @example(world=([frozenset({"m1"}), frozenset({"m1"})],
                    [(0, "m1", 0, 0, 0, False, False), (0, "m1", 1, 0, 1, True, False),
                     (1, "m1", 0, 0, 0, False, False), (0, "m1", 0, 0, 2, False, False),
                     (1, "m1", 1, 0, 1, True, False), (1, "m1", 1, 0, 2, False, True)],
                    [("agent", 1), ("subject", 0)]))
    @given(world=worlds())
    @hsettings(max_examples=3, deadline=None, derandomize=True, database=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    def check(world):
        memberships, writes, forgets = world
        project = f"p-{uuid.uuid4().hex[:8]}"
        holders = [make_agent(project=project, modules=sorted(m), roles=["writer", "reader", "operator"])
                   for m in memberships]
        sessions: dict[tuple, str] = {}
        for day, (who, target, session_no, topic, template, marked, named) in enumerate(writes):
            scope = target if target in memberships[who] else "personal"
            if (who, scope, session_no) not in sessions:
                body = {"module": scope} if scope != "personal" else {}
                sessions[(who, scope, session_no)] = post_session(api_client, holders[who], **body)["id"]
            user, assistant = TOPICS[topic][template]
            user = user.format(m=_marker() if marked else "again")
            if named:
                user += f" My colleague {NAME} says the same."
            with django_capture_on_commit_callbacks(execute=True):
                post_exchanges(api_client, holders[who], sessions[(who, scope, session_no)], [
                    {"user": user, "assistant": assistant, "occurred_at": at(days=day)}])
        for holder in holders:
            with django_capture_on_commit_callbacks(execute=True):
                assert api_client.post("/api/v1/consolidations/run", **holder.headers).status_code == 202
            # searches leave queries, logs and (with a key) a stored reply holding the texts found
            api_client.post("/api/v1/search", {"query": f"what did {NAME} say about the marathon plan"},
                            format="json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex, **holder.headers)

        agents = list(Agent.objects.filter(project__name=project))
        project_obj = agents[0].project
        before_rows = {x.pk: _markers(x.user_text) for x in Exchange.objects.filter(project=project_obj)}
        before_evidence: dict = {}
        for link in ExperienceEvidence.objects.filter(experience__project=project_obj):
            before_evidence.setdefault(link.experience_id, set()).add(link.exchange_id)
        subject_forgotten = False
        placeholders = placeholders_for_subject(project=project_obj, value=NAME)
        for kind, pick in forgets:
            if kind == "session":
                rows = list(Session.objects.filter(project=project_obj))
                if not rows:
                    continue
                session = rows[pick % len(rows)]
                owner = next(h for h in holders if h.agent.pk == session.owner_agent_id)
                forget(project=project_obj, actor=owner.agent, session_ids=[session.pk], reason="asked")
            elif kind == "agent":
                holder = holders[pick % len(holders)]
                forget(project=project_obj, actor=holder.agent, agent=holder.agent, reason="offboarded")
            else:
                try:  # a person, across the project
                    forget(project=project_obj, actor=person, subject=NAME, reason=f"erasure request: {NAME}")
                    subject_forgotten = True
                except NotFound as exc:  # nothing mentions it (any more): refused, nothing changed
                    assert exc.code == "subject_not_found", exc
                    assert not any(p in x for p in [*placeholders, NAME] for x in Exchange.objects.filter(
                        project=project_obj).values_list("user_text", flat=True))
            stats[f"forget {kind}"] += 1

        left = set(Exchange.objects.filter(project=project_obj).values_list("pk", flat=True))
        forgotten_ids = set(before_rows) - left
        forgotten = set().union(*(before_rows[pk] for pk in forgotten_ids))
        stats["forgotten markers"] += len(forgotten)

        def clean(text: str, where: str) -> None:
            assert not (_markers(text) & forgotten), (where, _markers(text) & forgotten)
            if subject_forgotten:
                assert NAME.lower() not in text.lower(), where
                assert not [p for p in placeholders if p in text], where

        clean(_everything_text(), "db")
        for holder in holders:
            for url in ("/api/v1/sessions", "/api/v1/exchanges", "/api/v1/episodes", "/api/v1/experiences",
                        "/api/v1/experiences?status=superseded"):
                response = api_client.get(url + ("&" if "?" in url else "?") + "limit=200", **holder.headers)
                clean(response.content.decode(), url)
            for query in ("marathon training plan long run", "sourdough bread starter flour"):
                response = api_client.post("/api/v1/search", {"query": query}, format="json", **holder.headers)
                clean(response.content.decode(), "search")  # hits and the context block
        for model in admin.site._registry:
            if model._meta.app_label in ("memory", "governance"):
                page = client.get(f"/admin/{model._meta.app_label}/{model._meta.model_name}/")
                assert page.status_code == 200, model
                clean(page.content.decode(), f"admin {model._meta.model_name}")

        # provenance: what kept evidence lives on exactly the evidence not forgotten, its support recounted
        for item_id, evidence in before_evidence.items():
            item = Experience.objects.filter(pk=item_id).first()
            lost = evidence & forgotten_ids
            if item is None:
                continue
            now = set(item.evidence.values_list("pk", flat=True))
            assert now == evidence - forgotten_ids, item_id
            if lost:
                stats["items kept on other evidence"] += 1
                stats_now = pattern_evidence(experience=item)
                assert item.support_sessions == max(1, stats_now["sessions"])
                assert item.support_agents == max(1, stats_now["agents"])
        for item_id, evidence in before_evidence.items():
            if evidence <= forgotten_ids:
                assert not Experience.objects.filter(pk=item_id).exists()

    check()
    assert stats["forgotten markers"] > 0, stats
    assert stats["forget subject"] > 0 and stats["forget session"] > 0, stats
    assert stats["items kept on other evidence"] > 0, stats
