"""An update lands beside what it updates: a hit that still says what an item since superseded said (an episode
narrating the old rule, an exchange that stated it) brings the active item that replaced it into the search and the
context block, ranked where the old item would have been, even when the new item's words are far from the question
— when the old item itself answers the question, and never for a fold. Only what the reader may see; not as of a
past instant, not without the experience layer."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memory.gateways.embeddings import get_embedder
from memory.informativeness import informativeness
from memory.models import Episode, EpisodeSource, Exchange, Experience, ExperienceEvidence, MemoryStatus
from memory.tests.factories import post_exchanges, post_session

pytestmark = pytest.mark.django_db

QUERY = "How do we explain a complex how-to to a customer?"
OLD = "For complicated how-to questions we prefer sending a short screen recording over a long written answer."
NEW = "We no longer send screen recordings: the team now prefers annotated screenshots, because customers cannot " \
      "search a video."
NEWER = "Annotated screenshots go into the help centre article itself, not into the reply."
# Far from the question by meaning and by words: found only as an update, never on its own.
FAR = "quarterly revenue spreadsheet for the finance audit"


@pytest.fixture
def team(make_agent):
    roles = ["writer", "reader", "operator"]
    return (make_agent(name="iris", modules=["support"], roles=roles),
            make_agent(name="juno", modules=["support"], roles=roles))


def _said(client, holder, pairs) -> list[Exchange]:
    session = post_session(client, holder, module="support")["id"]
    stored = post_exchanges(client, holder, session, [{"user": u, "assistant": a} for u, a in pairs])
    return [Exchange.objects.get(pk=x["id"]) for x in stored]


def _item(evidence: Exchange, statement: str, *, far: bool = True, owner=None, scope=None,
          status=MemoryStatus.ACTIVE) -> Experience:
    """An item drawn from ``evidence`` (its scope unless told), embedded far from the question unless not ``far``."""
    owner = owner or evidence.owner_agent
    item = Experience.objects.create(
        type="preference", subject="how-to format", statement=statement,
        embedding=get_embedder().embed_one(FAR if far else statement),
        embedding_model=get_embedder().model_id, informativeness=informativeness(statement), status=status,
        project_id=evidence.project_id, owner_agent=owner, module_id=evidence.module_id,
        scope=scope or evidence.scope, valid_from=timezone.now() - timedelta(days=1))
    ExperienceEvidence.objects.create(experience=item, exchange=evidence)
    return item


def _supersede(old: Experience, new: Experience) -> None:
    old.status, old.superseded_by = MemoryStatus.SUPERSEDED, new
    old.save()


def _episode(source: Exchange) -> Episode:
    embedder = get_embedder()
    episode = Episode.objects.create(
        title="Short screen recording and text", narrative=f"On 2026-03-06, {OLD[0].lower()}{OLD[1:]}",
        embedding=embedder.embed_one(OLD), embedding_model=embedder.model_id, started_at=source.occurred_at,
        ended_at=source.occurred_at, project_id=source.project_id, owner_agent=source.owner_agent,
        module_id=source.module_id, scope=source.scope)
    EpisodeSource.objects.create(episode=episode, exchange=source)
    return episode


def _search(client, holder, **extra):
    response = client.post("/api/v1/search", {"query": QUERY, **extra}, format="json", **holder.headers)
    assert response.status_code == 200, response.content
    return response.json()


def _line_of(context: str, text: str) -> int:
    return next(i for i, line in enumerate(context.splitlines()) if text in line)


def test_an_episode_of_the_old_rule_brings_the_rule_that_replaced_it(api_client, team):
    iris, _ = team
    old_said, new_said = _said(api_client, iris, [(OLD, "Okay, I will record a short video."),
                                                  (NEW, "Understood, annotated screenshots from now on.")])
    Exchange.objects.filter(pk=new_said.pk).update(embedding=get_embedder().embed_one(FAR))  # not a hit itself
    episode = _episode(old_said)
    old, new = _item(old_said, OLD, far=False), _item(new_said, NEW)
    ids = {x["id"] for x in _search(api_client, iris)["experiences"]}
    assert str(new.pk) not in ids  # nothing links them yet: the new rule is too far from the question

    _supersede(old, new)
    body = _search(api_client, iris)
    assert str(new.pk) in {x["id"] for x in body["experiences"]}
    assert str(old.pk) not in {x["id"] for x in body["experiences"]}
    [row] = [x for x in body["experiences"] if x["id"] == str(new.pk)]
    assert row["similarity"] < 0.2  # its own cosine, far from the question, not the old item's
    # written just above the episode that still tells the old rule
    assert _line_of(body["context"], "annotated screenshots") < _line_of(body["context"], "[episode")
    assert episode.title in body["context"]


def test_an_exchange_that_stated_it_brings_the_end_of_the_chain(api_client, team):
    """v1 → v2 → v3: the old exchange brings v3, what holds now, not v2."""
    iris, _ = team
    old_said, new_said, newer_said = _said(api_client, iris, [
        (OLD, "Okay, I will record a short video."), (NEW, "Understood."), (NEWER, "Noted.")])
    Exchange.objects.filter(pk__in=[new_said.pk, newer_said.pk]).update(embedding=get_embedder().embed_one(FAR))
    v1, v2, v3 = _item(old_said, OLD, far=False), _item(new_said, NEW), _item(newer_said, NEWER)
    _supersede(v1, v2)
    _supersede(v2, v3)
    body = _search(api_client, iris)
    assert str(old_said.pk) in {x["id"] for x in body["exchanges"]}
    ids = {x["id"] for x in body["experiences"]}
    assert str(v3.pk) in ids and str(v2.pk) not in ids
    assert _line_of(body["context"], "help centre") < _line_of(body["context"], "[exchange")


def test_an_update_the_reader_may_not_see_is_not_brought(api_client, team):
    """The replacement lives in a teammate's personal scope: the module's old exchange does not carry it over."""
    iris, juno = team
    [old_said] = _said(api_client, iris, [(OLD, "Okay, I will record a short video.")])
    [theirs] = _said(api_client, juno, [(NEW, "Understood.")])
    old = _item(old_said, OLD, far=False)
    private = _item(theirs, NEW, scope="personal")
    Experience.objects.filter(pk=private.pk).update(module=None)
    _supersede(old, private)
    body = _search(api_client, iris)
    assert str(old_said.pk) in {x["id"] for x in body["exchanges"]}
    assert str(private.pk) not in {x["id"] for x in body["experiences"]}
    assert "annotated screenshots" not in body["context"]


def test_as_of_a_past_instant_the_old_words_stand_alone(api_client, team):
    iris, _ = team
    old_said, new_said = _said(api_client, iris, [(OLD, "Okay, I will record a short video."), (NEW, "Understood.")])
    Exchange.objects.filter(pk=new_said.pk).update(embedding=get_embedder().embed_one(FAR))
    old, new = _item(old_said, OLD, far=False), _item(new_said, NEW)
    _supersede(old, new)
    assert str(new.pk) in {x["id"] for x in _search(api_client, iris)["experiences"]}
    past = _search(api_client, iris, as_of=timezone.now().isoformat())
    assert str(new.pk) not in {x["id"] for x in past["experiences"]}


def test_an_old_item_about_something_else_brings_nothing(api_client, team):
    """The exchange that stated the old rule also said something else, since replaced: that replacement does not
    answer the question and stays out; and a search without the experience layer (k_sem 0) is brought none."""
    iris, _ = team
    old_said, new_said, other_said = _said(api_client, iris, [
        (OLD, "Okay, I will record a short video. Also, the quarterly revenue spreadsheet moved to the finance drive."),
        (NEW, "Understood."), ("The finance audit spreadsheet is now in the shared finance drive.", "Noted.")])
    Exchange.objects.filter(pk__in=[new_said.pk, other_said.pk]).update(embedding=get_embedder().embed_one(FAR))
    old, new = _item(old_said, OLD, far=False), _item(new_said, NEW)
    aside = _item(old_said, "The quarterly revenue spreadsheet is kept on the finance drive.")  # far: FAR's words
    moved = _item(other_said, "The finance audit spreadsheet is in the shared finance drive.")
    _supersede(old, new)
    _supersede(aside, moved)
    body = _search(api_client, iris)
    ids = {x["id"] for x in body["experiences"]}
    assert str(old_said.pk) in {x["id"] for x in body["exchanges"]}
    assert str(new.pk) in ids and str(moved.pk) not in ids
    assert {x["id"] for x in _search(api_client, iris, k_sem=0)["experiences"]} == set()


def test_a_fold_is_no_update_but_a_change_after_it_is(api_client, team):
    """Two items that said the same point were merged: the one kept holds the other's evidence and is no update
    (it is found on its own, or not). When the kept one is changed later, the change is what holds now."""
    iris, _ = team
    old_said, new_said = _said(api_client, iris, [(OLD, "Okay, I will record a short video."), (NEW, "Understood.")])
    Exchange.objects.filter(pk=new_said.pk).update(embedding=get_embedder().embed_one(FAR))
    folded = _item(old_said, OLD, far=False)
    kept = _item(old_said, "Complicated how-tos get a short screen recording rather than a written answer.")
    _supersede(folded, kept)
    assert str(kept.pk) not in {x["id"] for x in _search(api_client, iris)["experiences"]}
    changed = _item(new_said, NEW)
    _supersede(kept, changed)
    ids = {x["id"] for x in _search(api_client, iris)["experiences"]}
    assert str(changed.pk) in ids and str(kept.pk) not in ids
