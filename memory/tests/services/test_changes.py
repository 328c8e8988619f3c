"""What says a change of an item, by its words: the origin it moved away from, or another tool from now on."""

from __future__ import annotations

from datetime import timedelta

import pytest

from agents.visibility import ScopeKey
from governance.models import ConsolidationBatch
from memory.gateways.embeddings import get_embedder
from memory.models import Candidate, Exchange, Experience, MemoryVersion, Session
from memory.services.consolidation import (
    TopicPlan,
    _changes,
    _changes_said_before,
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
RESTATED = [STRIPE, "Card payments: everything goes via Stripe, nobody integrates with the card networks themselves.",
            "Reminder that every card charge is processed by Stripe, never directly against Visa or Mastercard.",
            "We charge cards only through Stripe, no direct card network integration."]


def _rule_said(agent, texts, module=None) -> None:
    """``texts`` said in one session a day each, from T0."""
    for day, text in enumerate(texts):
        session = session_create(agent=agent, module=module, started_at=T0 + timedelta(days=day))
        exchanges_ingest(agent=agent, session=session, items=[ExchangeIn(user=text, assistant="Understood.",
                                                                         occurred_at=T0 + timedelta(days=day))])


def _change_said(agent, text: str, day: int, module=None) -> tuple[Exchange, Exchange]:
    """A session on ``day`` saying the change, then a move away from something no item names."""
    session = session_create(agent=agent, module=module, started_at=T0 + timedelta(days=day))
    exchanges_ingest(agent=agent, session=session, items=[
        ExchangeIn(user=text, assistant="Noted.", occurred_at=T0 + timedelta(days=day)),
        ExchangeIn(user="We moved the design docs from Confluence to Notion.", assistant="Okay.",
                   occurred_at=T0 + timedelta(days=day, hours=1))])
    change, unrelated = Exchange.objects.filter(session=session).order_by("turn_index")
    assert change.state == "raw" and not Candidate.objects.filter(trigger=change).exists()  # no item to update yet
    return change, unrelated


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


@pytest.mark.django_db
def test_a_change_said_before_its_item_existed_lands_in_the_pass_that_writes_the_item(make_agent, settings):
    """Seen in `make run` (every session sent, then one pass): the Stripe rule was restated in four sessions and
    ripened, "card processing switched from Stripe to Adyen" came after, while no item existed yet, so nothing made
    it an update; the pass wrote the Stripe rule — twice, as a constraint and as a fact of the same words — and the
    change stayed raw. Now the pass that writes the item queues the change and lands it, and one point is one item."""
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle", llm__base_url="")
    agent = make_agent().agent
    _rule_said(agent, RESTATED)
    change, unrelated = _change_said(
        agent, "The migration is finished: card processing switched from Stripe to Adyen this month.", day=6)
    first = consolidation_run(agent_id=agent.pk, run="manual")
    assert first.summary["updates_queued"] and first.summary["updates_queued_here"] == 1
    stripe = Experience.objects.filter(statement__icontains="Stripe").exclude(statement__icontains="Adyen")
    assert not stripe.filter(status="active").exists()
    current = Experience.objects.get(status="active", statement__icontains="Adyen")
    assert {x.superseded_by_id for x in stripe} <= {current.pk, *stripe.values_list("pk", flat=True)}
    # the four restatements were one point: one item took the other's evidence before the change replaced it
    assert stripe.filter(superseded_by=current).count() == 1
    change.refresh_from_db()
    assert change.state == "consolidated"
    # a move away from something no item says is no update of anything
    assert not Candidate.objects.filter(trigger=unrelated).exists()


@pytest.mark.django_db
def test_a_topic_holding_a_rule_and_its_change_leaves_the_change_current(make_agent, settings):
    """Another agent's "card processing switched from Stripe to Adyen" ripens with the module's Stripe rule into
    one topic (across agents): the pass makes both points, and the change supersedes the rule."""
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle", llm__base_url="")
    writer = make_agent(name="writer", modules=["payments"]).agent
    other = make_agent(name="other", modules=["payments"]).agent
    _rule_said(writer, RESTATED[:3], module="payments")
    session = session_create(agent=other, module="payments", started_at=T0 + timedelta(days=5))
    exchanges_ingest(agent=other, session=session, items=[ExchangeIn(
        user="Card processing switched from Stripe to Adyen this month.", assistant="Noted.",
        occurred_at=T0 + timedelta(days=5))])
    [topic] = Candidate.objects.all()
    assert topic.agent_id == other.pk and topic.exchanges.count() == 4  # ripe across agents, the change in it
    consolidation_run(agent_id=other.pk, run="manual")
    old = Experience.objects.get(statement=STRIPE)
    assert old.status == "superseded" and "Adyen" in old.superseded_by.statement
    assert old.superseded_by.status == "active" and old.superseded_by.scope == "module"


@pytest.mark.django_db
def test_another_agents_earlier_change_is_queued_for_its_owner_and_lands_without_a_session_pass(make_agent):
    """A change by another agent of the module, raw when the pass wrote the item: it becomes that agent's update
    candidate (a pass of the writer cannot consolidate another agent's units), and the owner's updates-only run
    lands it without replaying its sessions."""
    writer = make_agent(name="writer", modules=["payments"]).agent
    other = make_agent(name="other", modules=["payments"]).agent
    _rule_said(writer, [STRIPE], module="payments")
    change, unrelated = _change_said(other, "Finance closed the vendor review: the charges moved from Stripe to Adyen.",
                                     day=3, module="payments")
    _, item = make_memories(Exchange.objects.get(owner_agent=writer))
    Experience.objects.filter(pk=item.pk).update(valid_from=T0)
    batch = ConsolidationBatch.objects.create(project=writer.project, agent=writer)
    [queued] = _changes_said_before(agent=writer, batch=batch, summary={"experiences_created": [str(item.pk)]})
    assert queued.agent_id == other.pk and queued.reason == "update" and list(queued.exchanges.all()) == [change]
    assert not Candidate.objects.filter(trigger=unrelated).exists()
    done = consolidation_run(agent_id=other.pk, run="updates")
    assert done.mode == "manual" and "replay" not in done.summary  # the candidates only
    assert Session.objects.get(pk=change.session_id).replay_cursor == 0  # its sessions wait for its own pass
    item.refresh_from_db()
    assert item.status == "superseded" and "Adyen" in item.superseded_by.statement


@pytest.mark.django_db
def test_a_statement_older_than_the_change_already_written_is_not_brought_back(make_agent, settings):
    """A pass over a backlog wrote "from now on, log all training runs to wandb" (said on the 10th, from "we've
    migrated experiment tracking from MLflow to wandb") first and the older "every training run gets logged to
    MLflow" (the 0th to 2nd) after it, both active (ml_team, `bench_paraphrase --mode idle`): the older statement
    contradicted nothing it could see, since only the newer one says the change. Written in the order said, the
    change would have superseded it; now the newer item that changes it wins by its date, whatever the order."""
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle", llm__base_url="")
    agent = make_agent().agent
    now_said = session_create(agent=agent, started_at=T0 + timedelta(days=10))
    exchanges_ingest(agent=agent, session=now_said, items=[ExchangeIn(
        user="We've migrated experiment tracking from MLflow to wandb; the old server goes read-only next week.",
        assistant="Got it, all new runs go to wandb from today.", occurred_at=T0 + timedelta(days=10))])
    _, wandb = make_memories(Exchange.objects.get(session=now_said))
    Experience.objects.filter(pk=wandb.pk).update(  # as the extraction words it
        valid_from=T0 + timedelta(days=10), statement="From now on, log all training runs to wandb.")
    _rule_said(agent, ["Every training run gets logged to MLflow: params, metrics and the model artifact.",
                       "Log each training run to MLflow with its params, metrics and model artifact.",
                       "All training runs go to MLflow, params and metrics and the model file included."])
    consolidation_run(agent_id=agent.pk, run="manual")
    assert not Experience.objects.filter(status="active", statement__icontains="MLflow").exists()
    wandb.refresh_from_db()
    assert wandb.status == "active"
    # nor do its words witness the item that replaced it (they had joined it as paraphrases: the old value as
    # corroboration of the new)
    assert not wandb.evidence.filter(user_text__icontains="MLflow").exclude(user_text__icontains="wandb").exists()
    for item in Experience.objects.filter(statement__icontains="MLflow"):  # if the pass wrote one: superseded
        assert item.status == "superseded" and item.superseded_by_id == wandb.pk
