"""What says a change of an item, by its words: the origin it moved away from, or another tool from now on."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest

from agents.visibility import ScopeKey
from governance.models import ConsolidationBatch
from memory.gateways.embeddings import get_embedder
from memory.models import Candidate, Exchange, Experience, ExperienceEvidence, MemoryVersion, Session
from memory.services.consolidation import (
    WITNESS_MARGIN,
    TopicPlan,
    _changes,
    _changes_said_before,
    _close_or_naming,
    _empty_summary,
    _farther_witnesses_drop,
    _misses_its_product,
    _moved_supersede,
    _names,
    _no_longer_does,
    _old_witnesses_drop,
    _other_values,
    _said_not,
    _still_names,
    _unclaimed_units_attach,
    _values,
    consolidation_run,
    moved_away,
    moved_items,
)
from memory.services.ingest import ExchangeIn, exchanges_ingest, session_create
from memory.services.scheduling import candidate_create
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


def test_a_rule_worded_as_a_contrast_can_still_be_changed():
    """support_team in idle mode: "we no longer send screen recordings" did not change "record a quick screen video
    instead; the team likes videos …" — the old rule's "instead" (a contrast with what was asked) read as a change
    of its own — and a later pass folded the change into the old rule as one point."""
    assert _changes("We no longer print the invoices: finance now wants them as PDFs by e-mail.",
                    "Print the invoice instead; finance likes paper for anything above a few pages.")
    assert _changes("Card refunds are no longer approved by the team lead.",
                    "Ask the team lead rather than finance before refunding a card payment.")
    # two wordings of one change are no change of each other
    assert not _changes("We stopped printing invoices, finance wants PDFs.",
                        "We no longer print invoices; PDFs instead.")


def test_what_is_no_longer_done_witnesses_the_change_not_the_item():
    """support_team in idle mode: "we no longer send screen recordings: the team now prefers annotated screenshots"
    was evidence of the old "record a quick screen video" item (close in words), so the old item looked like the
    change's and the change's sessions counted as its support."""
    assert _no_longer_does("Attach a short screen recording to every bug report.",
                           "We no longer attach recordings to bug reports: the logs are enough.")
    assert _no_longer_does("Finance gets the invoices on paper.", "Finance doesn't want paper invoices any more.")
    assert _no_longer_does("Finance gets the invoices on paper.", "Send finance PDF invoices now, not paper ones.")
    # what is no longer done is something else: the unit restates the item
    assert not _no_longer_does("Builds run on Buildkite.", "We don't use Jenkins anymore, builds run on Buildkite.")
    # the item itself says it: a paraphrase
    assert not _no_longer_does("We no longer attach recordings to bug reports.",
                               "Recordings are no longer attached to bug reports.")
    assert not _no_longer_does("We stopped squashing: the team now prefers rebase merges.",
                               "We don't squash pull requests any more, rebase and merge it is.")
    # a contrast in the rule is no change of it: the unit still says the rule is no longer followed
    assert _no_longer_does("Record a quick screen video instead; the team likes videos for long steps.",
                           "We no longer send screen videos to customers: annotated screenshots are searchable.")


def test_what_a_sentence_denies_witnesses_the_change_not_the_item():
    """mobile_team in idle mode: "since the migration all crash reports land in Sentry, not Crashlytics" was evidence
    of the old "crash reports go to Crashlytics" item, which then held the change and never counted as the old
    value's one item."""
    assert _said_not("Crash reports from both apps go to Crashlytics.",
                     "Since the migration all crash reports land in Sentry, not Crashlytics.")
    assert _said_not("Our database is MySQL.", "Use Postgres, not MySQL, for the new service.")
    # what is denied is something else than the item names, or the sentence affirms the same words
    assert not _said_not("We use Postgres for everything.", "Use Postgres, not MySQL.")
    assert not _said_not("Every new screen gets snapshot tests in light and dark mode.",
                         "Snapshot tests catch layout regressions, not unit tests.")
    # "not just" adds, and a statement in the form itself is a paraphrase
    assert not _said_not("A senior reviews every change.", "Review is a habit, not just a gate a senior keeps.")
    assert not _said_not("Alerts go to Opsgenie, not PagerDuty.", "We page through Opsgenie, not PagerDuty.")
    assert not _said_not("We stopped squashing: the team now prefers rebase merges for pull requests.",
                         "From now on pull requests land with rebase and merge, not squash.")


def test_an_exchange_naming_an_items_products_or_values_still_witnesses_it():
    """Two points in one exchange keep both items; a shared word alone does not."""
    assert _still_names("All our card charges go through Stripe; we never talk to the card networks directly.",
                        "I'm writing the onboarding doc for payments. Mention that cards are processed by Stripe.")
    assert _still_names("We dropped Node 16: the minimum supported runtime is now Node 20.",
                        "New frontend modules: TypeScript, built on the 20 runtime.")
    assert not _still_names("We dropped iOS 16: the minimum supported version is now iOS 17.",
                            "What's our default for the iOS redesign? SwiftUI, which the team likes for new screens.")


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


@pytest.mark.django_db
def test_a_change_moves_an_item_whose_own_words_share_its_topic_though_its_statement_does_not(make_agent, settings):
    """ml_team in idle mode: the item's statement was one paraphrase, "pls remember to log to mlflow, comparing runs
    from random csvs is painful", which shares no word with "we've migrated experiment tracking from MLflow to
    wandb"; its other paraphrases do ("where do we track our experiments?"). The change found no item and the old
    one stayed active. Here in another domain: the words the item was drawn from place it on the change's topic; an
    item naming the origin on another topic is not moved."""
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="online", llm__base_url="")
    agent = make_agent().agent
    _rule_said(agent, ["Every bug we find gets filed in Jira, with repro steps and the build number.",
                       "Where do we track bugs again? In Jira, project ENG."])
    witnesses = list(Exchange.objects.filter(owner_agent=agent).order_by("occurred_at"))
    _, item = make_memories(witnesses[0])
    embedder = get_embedder()
    said = "Remember to put them in jira, chasing spreadsheets around is painful."
    Experience.objects.filter(pk=item.pk).update(statement=said, embedding=embedder.embed_one(said), valid_from=T0)
    item.evidence.add(witnesses[1])
    _, admin = make_memories(witnesses[0])
    other = "The Jira admin sits on the platform team."
    Experience.objects.filter(pk=admin.pk).update(statement=other, embedding=embedder.embed_one(other), valid_from=T0)
    admin.evidence.set([])
    change = "We've migrated bug tracking from Jira to Linear; Jira goes read-only next week."
    scope = ScopeKey.of(item)
    assert [x.pk for x in moved_items(scope=scope, said=change)] == [item.pk]
    # said as an agent says it: an update candidate at once, and the run supersedes the item
    later = session_create(agent=agent, started_at=T0 + timedelta(days=5))
    exchanges_ingest(agent=agent, session=later, items=[ExchangeIn(user=change, assistant="Got it.",
                                                                   occurred_at=T0 + timedelta(days=5))])
    assert Candidate.objects.filter(trigger__session=later, reason=Candidate.Reason.UPDATE).exists()
    consolidation_run(agent_id=agent.pk, run="manual")
    item.refresh_from_db()
    admin.refresh_from_db()
    assert item.status == "superseded" and "Linear" in item.superseded_by.statement
    assert admin.status == "active"
    # the old value's words do not witness the new item
    assert not item.superseded_by.evidence.exclude(user_text__icontains="Linear").exists()


@pytest.mark.django_db
def test_the_old_value_said_again_after_its_change_joins_the_replaced_item(make_agent, settings):
    """ml_team in idle mode, once the change landed: a later pass drafted "every training run gets logged to
    MLflow" again from a unit the replaced MLflow item already held, and wrote it as a second old item for the
    change to supersede (the fact split in two). Said before the change that replaced the item holding its words,
    it joins that item."""
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="idle", llm__base_url="")
    agent = make_agent().agent
    _rule_said(agent, ["Every bug we find gets filed in Jira, with repro steps and the build number.",
                       "All bugs go into Jira, repro steps and build number included."])
    first, second = Exchange.objects.filter(owner_agent=agent).order_by("occurred_at")
    _, old = make_memories(first)
    old.evidence.add(second)
    Experience.objects.filter(pk=old.pk).update(valid_from=T0, type="fact")
    new_said = "From now on, every bug goes to Linear, with repro steps."
    _, new = make_memories(first)
    Experience.objects.filter(pk=new.pk).update(statement=new_said, embedding=get_embedder().embed_one(new_said),
                                                valid_from=T0 + timedelta(days=5), type="fact")
    new.evidence.set([])
    Experience.objects.filter(pk=old.pk).update(status="superseded", superseded_by=new)
    candidate_create(agent=agent, trigger=first, members=[first, second], reason=Candidate.Reason.MANUAL)
    consolidation_run(agent_id=agent.pk, run="updates")
    assert list(Experience.objects.filter(statement__icontains="Jira").values_list("pk", flat=True)) == [old.pk]
    old.refresh_from_db()
    assert old.status == "superseded" and set(old.evidence.all()) == {first, second}
    assert Experience.objects.get(pk=new.pk).status == "active"


@pytest.mark.django_db
def test_the_change_that_joins_an_item_in_the_sweep_still_lands(make_agent):
    """ml_team in idle mode: "from now on, log all training runs to wandb" was drafted from its own words, and
    "we've migrated experiment tracking from MLflow to wandb" joined it only in the evidence sweep, after the
    draft's look-up for what it changes; with it came "every training run gets logged to MLflow", as if the old
    value corroborated the new. The item's evidence as it stands after the sweep settles both."""
    agent = make_agent().agent
    _rule_said(agent, ["Every bug we find gets filed in Jira, with repro steps and the build number.",
                       "We've migrated bug tracking from Jira to Linear; Jira goes read-only next week.",
                       "From now on, file every bug in Linear."])
    old_said, move, now_said = Exchange.objects.filter(owner_agent=agent).order_by("occurred_at")
    _, old = make_memories(old_said)
    Experience.objects.filter(pk=old.pk).update(valid_from=T0)
    batch = ConsolidationBatch.objects.create(project=agent.project, agent=agent)
    _, new = make_memories(now_said)
    Experience.objects.filter(pk=new.pk).update(valid_from=T0 + timedelta(days=2))
    new.refresh_from_db()
    ExperienceEvidence.objects.filter(experience=new).update(batch=batch)
    for unit in (old_said, move):
        ExperienceEvidence.objects.create(experience=new, exchange=unit, batch=batch)
    _old_witnesses_drop(item=new, batch=batch)
    assert set(new.evidence.all()) == {move, now_said}
    summary = _empty_summary()
    _moved_supersede(item=new, scope=ScopeKey.of(new), skip=(), batch=batch, summary=summary, audit=[])
    old.refresh_from_db()
    assert old.status == "superseded" and old.superseded_by_id == new.pk
    assert summary["experiences_superseded"] == [str(old.pk)]
    assert Experience.objects.get(pk=new.pk).status == "active"


@pytest.mark.django_db
def test_an_exchange_attached_to_two_items_in_one_batch_stays_with_the_clearly_nearer(make_agent):
    """mobile_team in idle mode: items are written one after another, so "the old UIKit screens are painful, let's
    not add more" witnessed "we dropped iOS 16" (the nearest item so far) before the same batch wrote "we prefer
    SwiftUI for any new iOS screen", which it restates — and the preference never merged into one item. This
    batch's row on the clearly farther item goes; an exchange about as near both, or an older row, stays."""
    agent, thresholds = make_agent().agent, thresholds_for(get_embedder().model_id)
    _rule_said(agent, ["We dropped Node 16: the minimum supported runtime is now Node 20.",
                       "We prefer TypeScript for any new frontend module.",
                       "Honestly the old JavaScript files are painful to change, let's not add more of them.",
                       "Set up the new module. Done: TypeScript, and the runtime is Node 20 since we dropped Node 16.",
                       "Which runtime do the build agents use?"])
    node_said, ts_said, painful, both, older = Exchange.objects.filter(owner_agent=agent).order_by("occurred_at")
    _, node = make_memories(node_said)
    _, ts = make_memories(ts_said)
    sim = {(i.pk, e.pk): float(np.dot(np.asarray(i.embedding), np.asarray(e.embedding)))
           for i in (node, ts) for e in (painful, both)}
    assert sim[ts.pk, painful.pk] - sim[node.pk, painful.pk] >= WITNESS_MARGIN  # what the rule is for
    assert abs(sim[ts.pk, both.pk] - sim[node.pk, both.pk]) < WITNESS_MARGIN
    batch = ConsolidationBatch.objects.create(project=agent.project, agent=agent)
    ExperienceEvidence.objects.create(experience=node, exchange=older)  # an earlier batch's row: kept
    for unit in (painful, both):  # attached to the nearest item so far, then to the item the batch wrote next
        ExperienceEvidence.objects.create(experience=node, exchange=unit, batch=batch)
        ExperienceEvidence.objects.create(experience=ts, exchange=unit, batch=batch)
    _farther_witnesses_drop(item=ts, scope=ScopeKey.of(ts), thresholds=thresholds, batch=batch)
    assert set(node.evidence.all()) == {node_said, older, both}
    assert set(ts.evidence.all()) == {ts_said, painful, both}
    # the other way round: the item being written is the farther one; its own row goes
    later = ConsolidationBatch.objects.create(project=agent.project, agent=agent)
    ExperienceEvidence.objects.filter(experience=node, exchange=both).update(batch=later)
    ExperienceEvidence.objects.create(experience=node, exchange=painful, batch=later)
    _farther_witnesses_drop(item=node, scope=ScopeKey.of(node), thresholds=thresholds, batch=later)
    assert set(node.evidence.all()) == {node_said, older, both} and painful in ts.evidence.all()
    # an item whose only witness is clearly another's keeps it: never left without evidence
    _, runtime = make_memories(older)
    ExperienceEvidence.objects.filter(experience=runtime).delete()
    ExperienceEvidence.objects.create(experience=runtime, exchange=painful, batch=later)
    _farther_witnesses_drop(item=runtime, scope=ScopeKey.of(runtime), thresholds=thresholds, batch=later)
    assert set(runtime.evidence.all()) == {painful}


def test_a_loose_witness_must_name_what_the_item_says():
    """payments_team: at 0.45 "where would I look to debug a ledger balance mismatch? — query the ledger tables …"
    became corroboration of "we once stored amounts as floats, and the ledger drifted by a few cents every night",
    sharing one word with it. Below θ_corroborate similarity is no witness unless the unit names the item's point."""
    thresholds = thresholds_for(get_embedder().model_id)
    floats = "We once stored amounts as floats, and the ledger drifted by a few cents every night as rounding errors."
    ledger = Exchange(user_text="where would I look to debug a ledger balance mismatch?",
                      assistant_text="Query the ledger tables in the payments Postgres cluster.")
    cents = Exchange(user_text="how should I represent 19.99 EUR in the API payload?",
                     assistant_text="As 1999: the amount in cents as an integer, plus a currency field.")
    loose = thresholds.corroborate - 0.04
    assert not _close_or_naming(floats, ledger, loose, thresholds)
    assert _close_or_naming(floats, cents, loose, thresholds)  # amounts in cents: the point, in other words
    assert _close_or_naming(floats, ledger, thresholds.corroborate, thresholds)  # close enough on its own


def test_an_item_naming_a_product_the_exchange_leaves_out_is_not_what_it_restates():
    assert _misses_its_product("Going forward, all alerts page the on-call via Opsgenie.",
                               "What do on-call folks want in an alert? A link to the runbook.")
    assert not _misses_its_product("Going forward, all alerts page the on-call via Opsgenie.",
                                   "if the pager goes off it's opsgenie now")  # named, in any case
    assert not _misses_its_product("Alerts without a runbook are just noise, always link one.",
                                   "What do on-call folks want in an alert? A link to the runbook.")


@pytest.mark.django_db
def test_an_exchange_about_as_near_two_items_leaves_the_one_whose_product_it_leaves_out(make_agent):
    """infra_team: "what do on-call folks most want to see in an alert? — a link to the runbook" witnessed the runbook
    rule, then the change "all alerts page the on-call via Opsgenie" took it too (0.63 against 0.57: about as near
    both, so both kept it) and the runbook fact never counted as merged. It names no Opsgenie: this batch's row on
    the Opsgenie item goes, the runbook item keeps it."""
    agent, thresholds = make_agent().agent, thresholds_for(get_embedder().model_id)
    _rule_said(agent, ["Alerts without a runbook are just noise at 3am, always link one.",
                       "Going forward, all alerts page the on-call via Opsgenie.",
                       "What do on-call folks most want to see in an alert? A link to the runbook, they prefer alerts "
                       "that point straight to the remediation steps."])
    runbook_said, opsgenie_said, folks = Exchange.objects.filter(owner_agent=agent).order_by("occurred_at")
    _, runbook = make_memories(runbook_said)
    _, opsgenie = make_memories(opsgenie_said)
    near = [float(np.dot(np.asarray(i.embedding), np.asarray(folks.embedding))) for i in (runbook, opsgenie)]
    assert abs(near[0] - near[1]) < WITNESS_MARGIN  # what the rule is for: the margin alone keeps both
    earlier = ConsolidationBatch.objects.create(project=agent.project, agent=agent)
    ExperienceEvidence.objects.create(experience=runbook, exchange=folks, batch=earlier)
    batch = ConsolidationBatch.objects.create(project=agent.project, agent=agent)
    ExperienceEvidence.objects.create(experience=opsgenie, exchange=folks, batch=batch)
    _farther_witnesses_drop(item=opsgenie, scope=ScopeKey.of(opsgenie), thresholds=thresholds, batch=batch)
    assert set(opsgenie.evidence.all()) == {opsgenie_said}
    assert set(runbook.evidence.all()) == {runbook_said, folks}


def test_the_verb_may_is_no_month_and_a_month_is_no_other_day():
    """data_team: "large backfills may only run on weekends" named the month May, so it "stated otherwise" than
    "backfills … only on Saturdays and Sundays" and never witnessed it."""
    assert _values("Large backfills may only run on weekends.") == set()
    assert _values("it may fail on Friday") == {"friday"}
    assert "may" in _values("the freeze starts in May.") and "may" in _values("freeze on 3 may")
    assert not _other_values("Backfills run only on Saturdays and Sundays.", "The freeze starts in May.")
    assert _other_values("On-call starts on Mondays.", "On-call starts on Wednesdays.")
