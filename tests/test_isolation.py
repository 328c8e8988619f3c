"""Isolation on every endpoint: another agent's personal memory and another project's data answer 404 (details)
and never appear in lists or search; module items are visible to module members only."""

import pytest

from governance.models import ConsolidationBatch
from memory.models import Exchange, Experience
from memory.tests.factories import at, make_memories, post_exchanges, post_session

pytestmark = pytest.mark.django_db

SECRET_TOPIC = "The vault combination for the archive room is kept in the blue notebook"


@pytest.fixture
def world(api_client, make_agent):
    owner = make_agent(project="acme", name="owner", modules=["ops"])
    peer = make_agent(project="acme", name="peer", modules=["ops"])  # same project, same module
    stranger = make_agent(project="acme", name="stranger")  # same project, no module
    outsider = make_agent(project="globex", name="outsider", modules=["ops"])  # other project, same module name
    personal = post_session(api_client, owner)
    module = post_session(api_client, owner, module="ops")
    p_ex = post_exchanges(api_client, owner, personal["id"], [
        {"user": SECRET_TOPIC, "assistant": "Understood.", "occurred_at": at()}])[0]
    m_ex = post_exchanges(api_client, owner, module["id"], [
        {"user": "The ops runbook says restart the queue worker first", "assistant": "Noted.",
         "occurred_at": at(hours=1)}])[0]
    p_epi, p_exp = make_memories(Exchange.objects.get(pk=p_ex["id"]))
    m_epi, m_exp = make_memories(Exchange.objects.get(pk=m_ex["id"]))
    batch = ConsolidationBatch.objects.create(project=owner.agent.project, agent=owner.agent, status="succeeded")
    return {
        "owner": owner, "peer": peer, "stranger": stranger, "outsider": outsider,
        "personal": {"session": personal["id"], "exchange": p_ex["id"], "episode": str(p_epi.pk),
                     "experience": str(p_exp.pk)},
        "module": {"session": module["id"], "exchange": m_ex["id"], "episode": str(m_epi.pk),
                   "experience": str(m_exp.pk)},
        "batch": str(batch.pk),
    }


def _detail_urls(ids):
    return [f"/api/v1/sessions/{ids['session']}", f"/api/v1/exchanges/{ids['exchange']}",
            f"/api/v1/episodes/{ids['episode']}", f"/api/v1/experiences/{ids['experience']}"]


def _list_ids(client, holder):
    seen = set()
    for url in ("/api/v1/sessions", "/api/v1/exchanges", "/api/v1/episodes", "/api/v1/experiences",
                "/api/v1/consolidations"):
        response = client.get(url, **holder.headers)
        assert response.status_code == 200
        seen |= {row["id"] for row in response.json()["results"]}
    return seen


def _search_ids(client, holder, query):
    response = client.post("/api/v1/search", {"query": query}, format="json", **holder.headers)
    assert response.status_code == 200
    body = response.json()
    return {row["id"] for layer in ("exchanges", "episodes", "experiences") for row in body[layer]}, body["context"]


def _assert_hidden(client, holder, ids, query):
    for url in _detail_urls(ids):
        response = client.get(url, **holder.headers)
        assert response.status_code == 404, url
        assert response.json()["error"]["code"] == "not_found"
    # writes on hidden objects: 404 as well, and nothing changes
    assert client.post(f"/api/v1/sessions/{ids['session']}/exchanges", {"user": "x", "assistant": "y"},
                       format="json", **holder.headers).status_code == 404
    assert client.post(f"/api/v1/sessions/{ids['session']}/close", **holder.headers).status_code == 404
    assert client.patch(f"/api/v1/experiences/{ids['experience']}", {"statement": "overwritten"}, format="json",
                        **holder.headers).status_code == 404
    assert client.delete(f"/api/v1/experiences/{ids['experience']}", **holder.headers).status_code == 404
    listed = _list_ids(client, holder)
    assert not listed & set(ids.values())
    found, context = _search_ids(client, holder, query)
    assert not found & set(ids.values())
    return context


def test_owner_sees_everything(api_client, world):
    owner = world["owner"]
    for ids in (world["personal"], world["module"]):
        for url in _detail_urls(ids):
            assert api_client.get(url, **owner.headers).status_code == 200, url
    listed = _list_ids(api_client, owner)
    assert set(world["personal"].values()) <= listed and set(world["module"].values()) <= listed
    assert world["batch"] in listed
    found, _ = _search_ids(api_client, owner, "vault combination archive room")
    assert world["personal"]["exchange"] in found and world["personal"]["experience"] in found
    assert api_client.get(f"/api/v1/consolidations/{world['batch']}", **owner.headers).status_code == 200


def test_peer_in_same_project_and_module(api_client, world):
    peer = world["peer"]
    context = _assert_hidden(api_client, peer, world["personal"], "vault combination archive room")
    assert "vault combination" not in context
    # module items are shared with module members (read), sessions stay the owner's to write
    for url in _detail_urls(world["module"]):
        assert api_client.get(url, **peer.headers).status_code == 200, url
    assert api_client.post(f"/api/v1/sessions/{world['module']['session']}/exchanges",
                           {"user": "x", "assistant": "y"}, format="json", **peer.headers).status_code == 404
    found, _ = _search_ids(api_client, peer, "ops runbook restart queue worker")
    # one agent's module items reach a peer's search once a second agent or a person confirms them
    # (RECMEM_SEARCH_PEER_ITEMS; memory/tests/search/test_peer_exchanges.py) — they are listed and read meanwhile
    assert not {world["module"]["episode"], world["module"]["experience"]} & found
    Experience.objects.filter(pk=world["module"]["experience"]).update(trust="corroborated")
    found, _ = _search_ids(api_client, peer, "ops runbook restart queue worker")
    assert world["module"]["experience"] in found and world["module"]["episode"] not in found
    # another agent's raw words only where a person vouched for them (memory/tests/search/test_peer_exchanges.py)
    assert world["module"]["exchange"] not in found
    assert api_client.get(f"/api/v1/consolidations/{world['batch']}", **peer.headers).status_code == 404


def test_stranger_without_module(api_client, world):
    stranger = world["stranger"]
    _assert_hidden(api_client, stranger, world["personal"], "vault combination archive room")
    _assert_hidden(api_client, stranger, world["module"], "ops runbook restart queue worker")


def test_other_project_sees_nothing(api_client, world):
    outsider = world["outsider"]
    _assert_hidden(api_client, outsider, world["personal"], "vault combination archive room")
    _assert_hidden(api_client, outsider, world["module"], "ops runbook restart queue worker")
    assert api_client.get(f"/api/v1/consolidations/{world['batch']}", **outsider.headers).status_code == 404
    assert _list_ids(api_client, outsider) == set()


# --- consolidation never widens a scope (a memory must not reach agents its sources could not) ----------------

# X1's personal exchanges on one topic, each carrying words that appear nowhere else (traceable if they leak).
PERSONAL_MARATHON = [
    ("I'm training for the autumn marathon with my hamstring physiotherapy. Can you make me a marathon training plan?",
     "Sure, here is a 16-week marathon training plan with three runs a week and a long run on Sundays."),
    ("For my marathon training plan, how long should this Sunday's long run be, given my fragile hamstring?",
     "In week 3 of your marathon training plan the long run is 18 km at an easy pace."),
    ("My hamstring hurts after the long run in my marathon training. Should I change the marathon plan?",
     "Take two rest days, then resume the marathon training plan with a shorter long run."),
    ("What should I eat before the long runs in my marathon training plan? I like porridge with blueberries.",
     "Before long marathon training runs eat porridge and a banana two hours ahead."),
]
MODULE_MARATHON = ("For the marathon training plan, should the long runs be in the early morning before work?",
                   "Morning runs fit the marathon training plan; do the long run early on Sunday.")
PERSONAL_MARKERS = ("hamstring", "physiotherapy", "porridge", "blueberries")


def _everything_seen(client, holder, queries):
    """All text an agent gets back: lists, details of every listed item, search hits and the context block."""
    texts = []
    for url in ("/api/v1/sessions", "/api/v1/exchanges", "/api/v1/episodes", "/api/v1/experiences"):
        body = client.get(url, **holder.headers).json()
        texts.append(str(body["results"]))
        for row in body["results"]:
            detail = client.get(f"{url}/{row['id']}", **holder.headers)
            assert detail.status_code == 200
            texts.append(str(detail.json()))
    for query in queries:
        body = client.post("/api/v1/search", {"query": query}, format="json", **holder.headers).json()
        texts.append(str(body))
    return "\n".join(texts).lower()


def test_personal_exchanges_never_reach_module_scope_through_consolidation(
        api_client, make_agent, settings, django_capture_on_commit_callbacks):
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online", llm__base_url="")
    x1 = make_agent(name="x1", modules=["m"])
    x2 = make_agent(name="x2", modules=["m"])
    personal = post_session(api_client, x1)["id"]
    module = post_session(api_client, x1, module="m")["id"]
    with django_capture_on_commit_callbacks(execute=True):
        post_exchanges(api_client, x1, personal, [{"user": u, "assistant": a, "occurred_at": at(days=i)}
                                                  for i, (u, a) in enumerate(PERSONAL_MARATHON)])
    with django_capture_on_commit_callbacks(execute=True):
        trigger = post_exchanges(api_client, x1, module, [
            {"user": MODULE_MARATHON[0], "assistant": MODULE_MARATHON[1], "occurred_at": at(days=5)}])[0]
    # the topic did ripen and was consolidated (so the test exercises the consolidation path) ...
    batch = ConsolidationBatch.objects.get(agent=x1.agent)
    assert batch.status == "succeeded" and batch.summary["episodes_created"], batch.error
    assert trigger["id"] in batch.summary["exchanges"]
    # ... but nothing it wrote from X1's personal text is module-scoped
    from memory.models import Episode, Experience

    for model in (Episode, Experience):
        for row in model.objects.filter(scope="module"):
            text = str([getattr(row, f, "") for f in ("title", "narrative", "subject", "statement")]).lower()
            assert not [m for m in PERSONAL_MARKERS if m in text], (model.__name__, text)
    seen = _everything_seen(api_client, x2, ["marathon training plan", "long run Sunday", "hamstring hurts",
                                             "what to eat before long runs"])
    assert "should the long runs be in the early morning" in seen  # X2 does see the module exchange
    assert not [m for m in PERSONAL_MARKERS if m in seen]
    # X1 still sees its own consolidated memory of the topic
    assert "hamstring" in _everything_seen(api_client, x1, ["marathon training plan"])


# --- provenance shows only the source ids the caller may see ----------------------------------------------------

def test_provenance_lists_only_visible_sources(api_client, world):
    """Items whose sources are narrower than the item (written before the scope rule, or approved from a personal
    item): a module peer gets the item, but only the source ids it may see — in details, lists and search hits."""
    from memory.models import Episode, EpisodeSource, Experience, ExperienceEvidence

    personal, module = world["personal"], world["module"]
    episode, experience = Episode.objects.get(pk=module["episode"]), Experience.objects.get(pk=module["experience"])
    EpisodeSource.objects.create(episode=episode, exchange_id=personal["exchange"])
    ExperienceEvidence.objects.create(experience=experience, exchange_id=personal["exchange"])
    # a module item superseded by the owner's personal item, and linked to its personal episode (pre-rule data)
    experience.status, experience.superseded_by_id = "superseded", personal["experience"]
    experience.episode_id = personal["episode"]
    experience.save()
    peer, owner = world["peer"], world["owner"]
    hidden = {personal["exchange"], personal["session"], personal["experience"], personal["episode"]}

    def rows(holder):
        found = [api_client.get(f"/api/v1/episodes/{module['episode']}", **holder.headers).json(),
                 api_client.get(f"/api/v1/experiences/{module['experience']}", **holder.headers).json()]
        found += api_client.get("/api/v1/episodes", **holder.headers).json()["results"]
        found += api_client.get("/api/v1/experiences?status=superseded", **holder.headers).json()["results"]
        hits = api_client.post("/api/v1/search", {"query": "ops runbook restart queue worker"}, format="json",
                               **holder.headers).json()
        return found + hits["episodes"]

    seen = rows(peer)
    assert len(seen) >= 4
    for row in seen:
        ids = set(row["provenance"]["exchange_ids"]) | set(row["provenance"]["session_ids"])
        ids |= {row.get("superseded_by"), row.get("episode")}
        assert not ids & hidden, row
        if row["id"] in (module["episode"], module["experience"]):
            assert row["provenance"]["exchange_ids"] == [module["exchange"]]
    superseded = next(r for r in seen if r["id"] == module["experience"])
    assert superseded["superseded_by"] is None and superseded["episode"] is None
    mine = api_client.get(f"/api/v1/experiences/{module['experience']}", **owner.headers).json()
    assert set(mine["provenance"]["exchange_ids"]) == {module["exchange"], personal["exchange"]}
    assert mine["superseded_by"] == personal["experience"] and mine["episode"] == personal["episode"]


def test_batch_summary_lists_only_what_the_agent_may_see_now(api_client, make_agent, settings,
                                                              django_capture_on_commit_callbacks):
    from testing.scenarios import MARATHON_WAVE_1

    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online", llm__base_url="")
    holder = make_agent(modules=["m"])
    session = post_session(api_client, holder, module="m")["id"]
    with django_capture_on_commit_callbacks(execute=True):
        post_exchanges(api_client, holder, session, [{"user": u, "assistant": a, "occurred_at": at(days=i)}
                                                     for i, (u, a) in enumerate(MARATHON_WAVE_1)])
    batch = ConsolidationBatch.objects.get()
    url = f"/api/v1/consolidations/{batch.pk}"
    summary = api_client.get(url, **holder.headers).json()["summary"]
    assert summary == batch.summary and summary["exchanges"] and summary["episodes_created"]
    holder.agent.modules.clear()  # it leaves the module: what the batch wrote there is no longer its to see
    summary = api_client.get(url, **holder.headers).json()["summary"]
    for key in ("exchanges", "episodes_created", "experiences_created", "experiences_merged"):
        assert summary[key] == [], key
    assert summary["candidates"] == batch.summary["candidates"]  # its own candidates


# --- property: nobody sees text whose source it could not see ----------------------------------------------------

TOPICS = [
    [("For my marathon training plan ({m}), how long should this Sunday's long run be?",
      "In week 3 of your marathon training plan the long run is 18 km at an easy pace."),
     ("My marathon training plan ({m}): the long run hurt my knee. Should I change the plan?",
      "Take two rest days, then resume the marathon training plan with a shorter long run."),
     ("What should I eat before the long runs of my marathon training plan ({m})?",
      "Before long marathon training runs eat oatmeal and a banana two hours ahead."),
     ("I prefer to do my marathon training runs ({m}) in the early morning before work.",
      "Morning runs fit your marathon training plan; do the long run early on Sunday.")],
    [("My sourdough bread ({m}) came out flat again. Is my starter too weak?",
      "Feed the sourdough starter twice a day for three days before baking the bread."),
     ("How long should my sourdough bread dough ({m}) rise in the fridge?",
      "A cold retard of 12 to 16 hours gives sourdough bread a better crumb."),
     ("Which flour is best for my sourdough bread ({m}), bread flour or whole wheat?",
      "Use mostly bread flour with 20 percent whole wheat for sourdough bread."),
     ("My sourdough bread ({m}) crust is too pale. What oven temperature should I bake at?",
      "Bake sourdough bread at 250 C in a covered pot, then uncover for a darker crust.")],
]
MARKER = "quorvax"
_marker_counter = iter(range(10**6))


def _marker() -> str:
    n, letters = next(_marker_counter), ""
    while True:
        n, r = divmod(n, 26)
        letters += chr(ord("a") + r)
        if n == 0:
            return MARKER + letters


def test_no_agent_sees_text_whose_source_it_could_not_see(api_client, make_agent, settings,
                                                           django_capture_on_commit_callbacks):
    """Random agents, module memberships, sessions and scopes; random writes whose texts carry unique marker words,
    consolidated online by the extractive consolidator (θ_count 3, so topics ripen in small examples); then every
    agent reads everything it can: lists, details, search hits and the context block. Every marker it gets must
    come from an exchange it may see (personal: its own; module: a module it belongs to), every source id too."""
    import re
    import uuid as uuidlib
    from collections import Counter

    from hypothesis import HealthCheck, given
    from hypothesis import settings as hsettings
    from hypothesis import strategies as st

    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online", llm__base_url="",
                                              consolidation__theta_count=3, consolidation__theta_sim=0.5)
    stats = Counter()

    @st.composite
    def worlds(draw):
        agents = draw(st.integers(2, 3))
        memberships = [draw(st.frozensets(st.sampled_from(["m1", "m2"]))) for _ in range(agents)]
        writes = draw(st.lists(st.tuples(st.integers(0, agents - 1), st.sampled_from(["personal", "m1", "m2"]),
                                         st.integers(0, 1), st.integers(0, len(TOPICS) - 1),
                                         st.integers(0, len(TOPICS[0]) - 1)), min_size=3, max_size=10))
        return memberships, writes

    @given(world=worlds())
    @hsettings(max_examples=12, deadline=None, derandomize=True, database=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    def check(world):
        memberships, writes = world
        project = f"p-{uuidlib.uuid4().hex[:8]}"
        holders = [make_agent(project=project, modules=sorted(m), roles=["writer", "reader", "operator"])
                   for m in memberships]
        sessions: dict[tuple, str] = {}
        source_of: dict[str, tuple[int, str]] = {}  # marker or exchange id -> (writer, scope: "personal" | module)
        for day, (who, target, session_no, topic, template) in enumerate(writes):
            scope = target if target in memberships[who] else "personal"
            if (who, scope, session_no) not in sessions:
                body = {"module": scope} if scope != "personal" else {}
                sessions[(who, scope, session_no)] = post_session(api_client, holders[who], **body)["id"]
            marker = _marker()
            user, assistant = TOPICS[topic][template]
            with django_capture_on_commit_callbacks(execute=True):
                stored = post_exchanges(api_client, holders[who], sessions[(who, scope, session_no)], [
                    {"user": user.format(m=marker), "assistant": assistant, "occurred_at": at(days=day)}])
            source_of[marker] = source_of[stored[0]["id"]] = (who, scope)
        for holder in holders:  # whatever is still pending (salient one-offs) is consolidated too
            with django_capture_on_commit_callbacks(execute=True):
                assert api_client.post("/api/v1/consolidations/run", **holder.headers).status_code == 202

        def may_see(reader: int, source: tuple[int, str]) -> bool:
            writer, scope = source
            return writer == reader if scope == "personal" else scope in memberships[reader]

        for reader, holder in enumerate(holders):
            rows, texts = [], []
            for url in ("/api/v1/sessions", "/api/v1/exchanges", "/api/v1/episodes", "/api/v1/experiences",
                        "/api/v1/experiences?status=superseded", "/api/v1/consolidations"):
                listed = api_client.get(url, **holder.headers).json()["results"]
                rows += listed
                base = url.split("?")[0]
                for row in listed:
                    detail = api_client.get(f"{base}/{row['id']}", **holder.headers)
                    assert detail.status_code == 200
                    rows.append(detail.json())
            for query in ("marathon training plan long run", "sourdough bread starter flour"):
                found = api_client.post("/api/v1/search", {"query": query}, format="json", **holder.headers).json()
                texts.append(found["context"])
                rows += found["exchanges"] + found["episodes"] + found["experiences"]
            text = (str(rows) + "\n".join(texts)).lower()
            for marker in set(re.findall(MARKER + r"[a-z]+", text)):
                assert marker in source_of, marker  # from another example's project: a leak as well
                assert may_see(reader, source_of[marker]), (reader, marker, source_of[marker], memberships)
            for row in rows:
                for exchange_id in (row.get("provenance") or {}).get("exchange_ids", []):
                    assert may_see(reader, source_of[exchange_id]), (reader, row["id"], exchange_id)
                for key in ("exchanges",):  # batch detail summaries
                    for exchange_id in (row.get("summary") or {}).get(key, []):
                        assert may_see(reader, source_of[exchange_id]), (reader, row["id"], exchange_id)
            consolidated = [r for r in rows if "narrative" in r or "statement" in r]
            stats["consolidated items seen"] += len(consolidated)
            stats["markers in consolidated items"] += len(re.findall(MARKER + r"[a-z]+", str(consolidated).lower()))
            stats["module items seen"] += sum(r.get("scope") == "module" for r in consolidated)

    check()
    # the property was exercised through consolidation, not only through raw exchanges
    assert stats["markers in consolidated items"] > 0 and stats["module items seen"] > 0, stats
