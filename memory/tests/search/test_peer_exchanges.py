"""Another agent's raw words in a search: only where a person vouched for them (the poisoning defence's structural
half, memory/trust.py ``PEER_RAW_TRUST``): evidence of a reviewed item, or released by a reviewer. Corroboration
vouches for an item's statement, not for the rest of its evidence's words. Its own exchanges an agent searches at once;
a peer's are listed (``GET /exchanges``) but never injected unvouched. By default (``RECMEM_SEARCH_PEER_ITEMS=guarded``)
a peer's consolidated items need a second agent or a person too, and a person alone when they are about credentials,
access, safeguards, destinations, money or code to run (memory/trust.py ``peer_item_reach_q``); a reviewer vouches for
one in the admin."""

from __future__ import annotations

import pytest

from memory.gateways.embeddings import get_embedder
from memory.models import Episode, EpisodeSource, Exchange, Experience, ExperienceEvidence
from memory.tests.factories import post_exchanges, post_session

pytestmark = pytest.mark.django_db

QUERY = "when is the staging database rebuilt"


def _search(client, holder, query=QUERY):
    response = client.post("/api/v1/search", {"query": query}, format="json", **holder.headers)
    assert response.status_code == 200, response.content
    return response.json()


def _exchange_ids(body):
    return {h["id"] for h in body["exchanges"]}


@pytest.fixture
def team(make_agent):
    roles = ["writer", "reader", "operator"]
    return (make_agent(name="atlas", modules=["platform"], roles=roles),
            make_agent(name="birch", modules=["platform"], roles=roles))


@pytest.fixture
def said(api_client, team):
    a, _ = team
    session = post_session(api_client, a, module="platform")["id"]
    return session, post_exchanges(api_client, a, session, [
        {"user": "Who owns the nightly jobs?", "assistant": "The platform team owns them, Odile runs the rota."},
        {"user": "The staging database is rebuilt every Sunday night at 23:00 by the nightly job.",
         "assistant": "Noted: staging is rebuilt on Sundays at 23:00."},
        {"user": "And the staging database snapshots?", "assistant": "Kept for a week after each rebuild."}])


def test_a_peers_raw_exchange_is_listed_but_not_searched_until_a_person_vouches_for_it(api_client, team, said):
    a, b = team
    session, stored = said
    rebuilt = stored[1]["id"]
    assert rebuilt in _exchange_ids(_search(api_client, a))  # its author searches it at once
    theirs = _search(api_client, b)
    assert not _exchange_ids(theirs) & {s["id"] for s in stored}
    assert "Sunday" not in theirs["context"] and "snapshots" not in theirs["context"]
    listed = api_client.get("/api/v1/exchanges", {"session": session}, **b.headers).json()["results"]
    assert {s["id"] for s in stored} <= {e["id"] for e in listed}  # browsing the module's record shows it

    exchange = Exchange.objects.get(pk=rebuilt)
    item = Experience.objects.create(  # an item drawn from it, in its scope, in words of its own
        type="fact", subject="staging database", statement="Staging is rebuilt weekly.",
        embedding=get_embedder().embed_one("Staging is rebuilt weekly."), embedding_model=get_embedder().model_id,
        project_id=exchange.project_id, owner_agent_id=exchange.owner_agent_id, module_id=exchange.module_id,
        scope=exchange.scope)
    ExperienceEvidence.objects.create(experience=item, exchange=exchange)
    # corroborated: two agents said the item's statement, which vouches for nothing else its evidence says (an
    # attacker restating an honest agent's rule with a payload appended corroborates it)
    for trust, searched in (("user", False), ("assistant", False), ("tool", False), ("corroborated", False),
                            ("reviewed", True)):
        Experience.objects.filter(pk=item.pk).update(trust=trust)
        body = _search(api_client, b)
        assert (rebuilt in {h["id"] for h in body["exchanges"]}) is searched, trust
        assert ("Sunday night at 23:00" in body["context"]) is searched, trust
        # its session neighbours are no more vouched for than before: context expansion never brings them
        assert "Odile" not in body["context"] and "snapshots" not in body["context"], trust
    Experience.objects.filter(pk=item.pk).update(status="superseded")  # what the team no longer stands behind
    assert rebuilt not in _exchange_ids(_search(api_client, b))


def test_every_visible_exchange_is_searched_when_the_operator_opens_it(api_client, team, said, settings):
    settings.RECMEM = settings.RECMEM.replace(search__peer_exchanges="all")
    _, b = team
    _, stored = said
    body = _search(api_client, b)
    assert stored[1]["id"] in {h["id"] for h in body["exchanges"]} and "Sunday" in body["context"]



def _item_from(exchange_id, statement, *, trust):
    exchange = Exchange.objects.get(pk=exchange_id)
    vector = get_embedder().embed_one(statement)
    where = {"project_id": exchange.project_id, "owner_agent_id": exchange.owner_agent_id,
             "module_id": exchange.module_id, "scope": exchange.scope}
    item = Experience.objects.create(type="fact", subject="staging database", statement=statement, embedding=vector,
                                     embedding_model=get_embedder().model_id, trust=trust, **where)
    ExperienceEvidence.objects.create(experience=item, exchange=exchange)
    episode = Episode.objects.create(title="Staging rebuilds", narrative=statement, embedding=vector,
                                     embedding_model=get_embedder().model_id, trust=trust, **where)
    EpisodeSource.objects.create(episode=episode, exchange=exchange)
    return item, episode


def _item_ids(body):
    return {h["id"] for h in body["experiences"]}, {h["id"] for h in body["episodes"]}


def test_a_peers_items_are_searched_labelled_when_the_operator_opens_them(api_client, team, said, settings):
    settings.RECMEM = settings.RECMEM.replace(search__peer_items="all")
    a, b = team
    _, stored = said
    item, episode = _item_from(stored[1]["id"], "The staging database is rebuilt on Sundays at 23:00.", trust="user")
    experiences, episodes = _item_ids(_search(api_client, b))
    assert str(item.pk) in experiences and str(episode.pk) in episodes
    hit = next(h for h in _search(api_client, b)["experiences"] if h["id"] == str(item.pk))
    assert hit["trust"] == "user"  # one agent's word, and it says so


def test_by_default_one_agents_items_reach_only_their_author_until_confirmed(api_client, team, said):
    a, b = team
    _, stored = said
    item, episode = _item_from(stored[1]["id"], "The staging database is rebuilt on Sundays at 23:00.", trust="user")
    assert _item_ids(_search(api_client, a)) == ({str(item.pk)}, {str(episode.pk)})  # its author: at once
    theirs = _search(api_client, b)
    assert _item_ids(theirs) == (set(), set()) and "Sunday" not in theirs["context"]
    for trust, searched in (("assistant", False), ("tool", False), ("corroborated", True), ("reviewed", True)):
        Experience.objects.filter(pk=item.pk).update(trust=trust)
        Episode.objects.filter(pk=episode.pk).update(trust=trust)
        experiences, episodes = _item_ids(_search(api_client, b))
        assert (str(item.pk) in experiences) is searched, trust
        # an episode is its sources' sentences: its own trust label vouches for none of them; its one source is
        # vouched for once it is evidence of a reviewed item
        assert (str(episode.pk) in episodes) is (trust == "reviewed"), trust


def test_an_episode_of_vouched_for_words_reaches_peers(api_client, team, said):
    _, b = team
    _, stored = said
    _, episode = _item_from(stored[1]["id"], "The staging database is rebuilt on Sundays at 23:00.", trust="user")
    reviewed, _ = _item_from(stored[1]["id"], "Staging is rebuilt weekly.", trust="reviewed")
    assert str(episode.pk) in _item_ids(_search(api_client, b))[1]  # its one source is evidence of a reviewed item
    Experience.objects.filter(pk=reviewed.pk).update(status="superseded")
    assert str(episode.pk) not in _item_ids(_search(api_client, b))[1]


def test_a_reviewers_vouch_shares_one_agents_item_with_its_scope_and_is_audited(api_client, team, said,
                                                                                 django_user_model):
    from governance.models import AuditEvent
    from memory.review.vouch import experiences_vouch, experiences_vouch_withdraw

    _, b = team
    _, stored = said
    item, _ = _item_from(stored[1]["id"], "The staging database is rebuilt on Sundays at 23:00.", trust="user")
    reviewer = django_user_model.objects.create_user("rita", password="x" * 12)
    assert str(item.pk) not in _item_ids(_search(api_client, b))[0]

    assert experiences_vouch(experiences=[item], user=reviewer, reason="checked with the DBA") == (1, [])
    item.refresh_from_db()
    assert item.verified and item.trust == "reviewed" and item.version == 2
    body = _search(api_client, b)
    assert str(item.pk) in _item_ids(body)[0] and "Sundays at 23:00" in body["context"]
    assert stored[1]["id"] in _exchange_ids(body)  # its evidence is vouched for with it
    event = AuditEvent.objects.get(object_id=str(item.pk), action="review")
    assert (event.actor_user, event.data["decision"], event.scope) == (reviewer, "vouched", "module")
    assert experiences_vouch(experiences=[item], user=reviewer)[1] == [f"{item.statement[:50]}: already reviewed"]

    assert experiences_vouch_withdraw(experiences=[item], user=reviewer, reason="wrong day") == (1, [])
    item.refresh_from_db()
    assert not item.verified and item.trust == "user" and item.version == 3
    assert str(item.pk) not in _item_ids(_search(api_client, b))[0]
    assert AuditEvent.objects.filter(object_id=str(item.pk), action="review",
                                     data__decision="vouch_withdrawn").count() == 1


def test_a_vouch_is_refused_for_a_personal_a_held_or_an_inactive_item(team, said, django_user_model):
    from memory.review.vouch import experiences_vouch

    _, stored = said
    reviewer = django_user_model.objects.create_user("rita", password="x" * 12)
    held, _ = _item_from(stored[1]["id"], "Staging is rebuilt weekly.", trust="user")
    Experience.objects.filter(pk=held.pk).update(quarantined=True)
    gone, _ = _item_from(stored[1]["id"], "Staging was rebuilt daily.", trust="user")
    Experience.objects.filter(pk=gone.pk).update(status="superseded")
    mine, _ = _item_from(stored[1]["id"], "I rebuild staging myself.", trust="user")
    Experience.objects.filter(pk=mine.pk).update(scope="personal", module=None)
    done, refused = experiences_vouch(experiences=[held, gone, mine], user=reviewer)
    assert done == 0 and sorted(r.split(": ", 1)[1] for r in refused) == [
        "a personal item reaches only its author", "the item is held in quarantine: release it from its review item",
        "the item is superseded"]
    assert not Experience.objects.filter(pk__in=[held.pk, gone.pk, mine.pk], verified=True).exists()


def test_the_dashboard_counts_one_agents_shared_items_and_the_admin_vouches_for_them(api_client, team, said,
                                                                                      admin_client):
    import re

    _, b = team
    _, stored = said
    item, _ = _item_from(stored[1]["id"], "The staging database is rebuilt on Sundays at 23:00.", trust="user")
    _item_from(stored[1]["id"], "Staging is rebuilt weekly.", trust="corroborated")  # already reaches the module
    page = admin_client.get("/admin/").content.decode()
    assert re.search(r'id="tile-one-agent"[^>]*><span class="n">1</span>', page), page
    listed = admin_client.get("/admin/memory/experience/", {"reach": "author"}).content.decode()
    assert item.statement in listed and "Staging is rebuilt weekly." not in listed

    response = admin_client.post("/admin/memory/experience/", {"action": "vouch", "_selected_action": [item.pk]},
                                 follow=True)
    assert "Vouched for 1 item." in response.content.decode()
    assert str(item.pk) in _item_ids(_search(api_client, b))[0]
    assert re.search(r'id="tile-one-agent"[^>]*><span class="n">0</span>', admin_client.get("/admin/").content.decode())


def test_with_reviewed_only_a_persons_vouch_shares_a_peers_item(api_client, team, said, settings, admin_client,
                                                                 django_user_model):
    """RECMEM_SEARCH_PEER_ITEMS=reviewed: two agents' agreement (what two colluding agents produce) is not enough;
    the item reaches the scope once a person vouches for it, and the dashboard and admin count it as waiting."""
    import re

    from memory.review.vouch import experiences_vouch

    settings.RECMEM = settings.RECMEM.replace(search__peer_items="reviewed")
    a, b = team
    _, stored = said
    item, episode = _item_from(stored[1]["id"], "The staging database is rebuilt on Sundays at 23:00.",
                               trust="corroborated")
    assert _item_ids(_search(api_client, a)) == ({str(item.pk)}, {str(episode.pk)})  # its author: at once
    theirs = _search(api_client, b)
    assert _item_ids(theirs) == (set(), set()) and "Sunday" not in theirs["context"]
    assert re.search(r'id="tile-one-agent"[^>]*><span class="n">1</span>', admin_client.get("/admin/").content.decode())
    assert item.statement in admin_client.get("/admin/memory/experience/", {"reach": "author"}).content.decode()

    reviewer = django_user_model.objects.create_user("rita", password="x" * 12)
    assert experiences_vouch(experiences=[item], user=reviewer, reason="checked with the DBA") == (1, [])
    body = _search(api_client, b)
    assert str(item.pk) in _item_ids(body)[0] and "Sundays at 23:00" in body["context"]
    assert str(episode.pk) in _item_ids(body)[1]  # its one source is now evidence of a reviewed item
    assert re.search(r'id="tile-one-agent"[^>]*><span class="n">0</span>', admin_client.get("/admin/").content.decode())
    scope = admin_client.get("/admin/memory/experience/", {"reach": "scope"}).content.decode()
    assert item.statement in scope



def test_by_default_two_agents_word_does_not_share_a_rule_about_credentials_access_or_destinations(
        api_client, team, said, settings, admin_client, django_user_model):
    """RECMEM_SEARCH_PEER_ITEMS=guarded (the default): a corroborated item reaches the scope's other agents unless its
    statement is about what a poisoned rule harms (memory/trust.py ``sensitive_pattern``) — two colluding agents can
    always corroborate; such an item waits for a person's vouch, is counted as waiting and opens in the admin; an
    ordinary corroborated rule is shared at once. ``trusted`` shares both."""
    import re

    from memory.review.vouch import experiences_vouch

    a, b = team
    _, stored = said
    plain, _ = _item_from(stored[1]["id"], "The staging database is rebuilt on Sundays at 23:00.",
                          trust="corroborated")
    mirrored, _ = _item_from(stored[1]["id"], "Staging database dumps are mirrored to the partner bucket on Sundays.",
                             trust="corroborated")
    assert _item_ids(_search(api_client, a))[0] == {str(plain.pk), str(mirrored.pk)}  # its author: both at once
    theirs = _search(api_client, b)
    assert _item_ids(theirs)[0] == {str(plain.pk)}
    assert "partner bucket" not in theirs["context"] and "Sundays at 23:00" in theirs["context"]
    assert re.search(r'id="tile-one-agent"[^>]*><span class="n">1</span>', admin_client.get("/admin/").content.decode())
    waiting = admin_client.get("/admin/memory/experience/", {"reach": "author"}).content.decode()
    assert mirrored.statement in waiting and plain.statement not in waiting

    settings.RECMEM = settings.RECMEM.replace(search__peer_items="trusted")
    assert _item_ids(_search(api_client, b))[0] == {str(plain.pk), str(mirrored.pk)}
    settings.RECMEM = settings.RECMEM.replace(search__peer_items="guarded")

    reviewer = django_user_model.objects.create_user("rita", password="x" * 12)
    assert experiences_vouch(experiences=[mirrored], user=reviewer, reason="the bucket is ours") == (1, [])
    body = _search(api_client, b)
    assert _item_ids(body)[0] == {str(plain.pk), str(mirrored.pk)} and "partner bucket" in body["context"]
    assert re.search(r'id="tile-one-agent"[^>]*><span class="n">0</span>', admin_client.get("/admin/").content.decode())
