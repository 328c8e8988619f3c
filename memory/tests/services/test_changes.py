"""What says a change of an item, by its words: the origin it moved away from, or another tool from now on."""

from __future__ import annotations

from datetime import timedelta

import pytest

from agents.visibility import ScopeKey
from governance.models import ConsolidationBatch
from memory.gateways.embeddings import get_embedder
from memory.models import Candidate, Exchange, Experience, MemoryVersion
from memory.services.consolidation import (
    TopicPlan,
    _changes,
    _empty_summary,
    _names,
    _unclaimed_units_attach,
    consolidation_run,
    moved_away,
)
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_create
from memory.tests.factories import T0, make_memories
from memory.thresholds import thresholds_for

STRIPE = "All our card charges go through Stripe; we never talk to the card networks directly."


def test_a_change_naming_its_origin_moves_away_from_it():
    assert moved_away(STRIPE, "The migration is finished: card processing switched from Stripe to Adyen.")
    assert moved_away("On-call alerts are routed through PagerDuty.",
                      "We migrated on-call paging off PagerDuty onto Opsgenie this month.")
    assert moved_away("Every pull request has to keep line coverage at 80% or higher.",
                      "We raised the coverage gate from 80% to 85% this sprint.")
    assert moved_away("Our CI runs on Jenkins.", "We replaced Jenkins with Buildkite last quarter.")


def test_a_route_or_a_range_is_no_change():
    # no verb of change: a route, not a move
    assert not moved_away("On-call alerts are routed through PagerDuty.", "Alerts go from PagerDuty to Slack.")
    # the target is what the item already says
    assert not moved_away("The office is open from 9 to 5.", "We changed nothing: still open from 9 to 5.")
    # a move from something the item does not name
    assert not moved_away(STRIPE, "We moved the docs from Confluence to Notion.")


def test_from_now_on_with_another_tool_changes_the_item():
    assert _changes("Going forward, all alerts page the on-call via Opsgenie.",
                    "On-call alerts are routed through PagerDuty.")
    # the same tool, or a name it abbreviates, is a restatement
    assert not _changes("From now on we use Postgres for everything.",
                        "Our primary datastore is PostgreSQL 15 running on RDS.")
    assert not _changes("Going forward, every alert pages via PagerDuty.",
                        "On-call alerts are routed through PagerDuty.")
    # without "from now on", two names are two facts, not a change
    assert not _changes("Alerts also show up in Slack.", "On-call alerts are routed through PagerDuty.")


def test_names_are_products_not_sentence_openings_or_days():
    assert _names("Going forward, all alerts page the on-call via Opsgenie on Monday.") == {"opsgenie"}
    assert _names("The gate in GitHub Actions runs CodeQL.") == {"github", "actions", "codeql"}


@pytest.mark.django_db
def test_a_paraphrase_consolidated_later_witnesses_the_item_it_restates(make_agent):
    """A topic that drew no statement of its own ("what's the most GPUs I can grab without asking anyone?" — "16,
    anything bigger has to be approved") left its paraphrase apart from the item it restates: the evidence sweep had
    run when the item was written, before that exchange existed. A unit no item holds now joins its nearest item;
    an unrelated one and one naming another value do not."""
    agent = make_agent().agent
    session = session_create(agent=agent, started_at=T0)
    said = [("Any job asking for more than 16 GPUs needs sign-off in #ml-infra first.", "Noted."),
            ("what's the most GPUs I can grab without asking anyone?",
             "16. Anything bigger has to be approved in #ml-infra."),
            ("What's a good lunch spot near the office?", "The noodle bar on the corner is quick."),
            ("We raised the GPU sign-off limit from 16 to 32 GPUs.", "Noted, 32 GPUs is the new limit.")]
    exchanges_ingest(agent=agent, session=session, items=[ExchangeIn(user=u, assistant=a, occurred_at=T0)
                                                          for u, a in said])
    first, paraphrase, lunch, change = Exchange.objects.filter(session=session).order_by("turn_index")
    _, item = make_memories(first)
    batch = ConsolidationBatch.objects.create(project=agent.project, agent=agent)
    summary, audit = _empty_summary(), []
    topic = TopicPlan(candidates=[], units=[paraphrase, lunch, change], scope=ScopeKey.of(paraphrase))
    _unclaimed_units_attach(agent=agent, batch=batch, topic=topic,
                            thresholds=thresholds_for(get_embedder().model_id), summary=summary, audit=audit)
    assert set(item.evidence.values_list("pk", flat=True)) == {first.pk, paraphrase.pk}
    item.refresh_from_db()
    assert item.version == 2 and MemoryVersion.objects.filter(experience=item, batch=batch).exists()
    assert summary["experiences_merged"] == [str(item.pk)] and audit[0]["source_ids"] == [paraphrase.pk]


@pytest.mark.django_db
def test_a_one_off_change_naming_its_origin_lands_at_once(make_agent, settings):
    """Seen in `make run`: "card processing switched from Stripe to Adyen", said once, stayed raw (0.31 from the
    Stripe rule, nothing to recur with) and "all our card charges go through Stripe" stayed active. It is an update
    of the item naming Stripe: a candidate at once, and the next run supersedes the item."""
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online", llm__base_url="")
    agent = make_agent().agent
    session = session_create(agent=agent, started_at=T0)
    exchanges_ingest(agent=agent, session=session, items=[ExchangeIn(user=STRIPE, assistant="Understood.",
                                                                     occurred_at=T0)])
    _, item = make_memories(Exchange.objects.get(session=session))
    Experience.objects.filter(pk=item.pk).update(valid_from=T0)  # said when its exchange was (a change wins by that)
    later = session_create(agent=agent, started_at=T0 + timedelta(days=3))
    exchanges_ingest(agent=agent, session=later, items=[ExchangeIn(
        user="The migration is finished: card processing switched from Stripe to Adyen this month.",
        assistant="Noted, Adyen is now our card processor.", occurred_at=T0 + timedelta(days=3))])
    change = Exchange.objects.get(session=later)
    assert Candidate.objects.filter(trigger=change, reason=Candidate.Reason.UPDATE).exists()
    consolidation_run(agent_id=agent.pk, run="manual")
    item.refresh_from_db()
    assert item.status == "superseded" and "Adyen" in item.superseded_by.statement
    # an unrelated move names nothing an item says: no update
    exchanges_ingest(agent=agent, session=later, items=[ExchangeIn(
        user="We moved the design docs from Confluence to Notion.", assistant="Okay.",
        occurred_at=T0 + timedelta(days=3, hours=1))])
    assert not Candidate.objects.filter(trigger__user_text__contains="Confluence").exists()
