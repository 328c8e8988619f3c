"""A module's neighbouring points stay apart: an exchange witnesses an item only when it says one of the terms the
module's exchanges rarely say that the item (its statement or the words it was drawn from) says too (round 42,
observed on the devex scenario: "merge the fix to main first, then cherry-pick it onto the release branch" gathered
the paraphrases of "we prefer Conventional Commits", which was then folded into it)."""

from __future__ import annotations

import pytest

from agents.visibility import ScopeKey
from bench.paraphrase import load_scenario
from memory.distinctive import MIN_EXCHANGES, Rarity, scope_rarity, share_a_distinctive_term
from memory.gateways.embeddings import get_embedder
from memory.models import Exchange
from memory.services import consolidation
from memory.services.consolidation import _form
from memory.tests.factories import at, post_exchanges, post_session
from memory.thresholds import thresholds_for


def test_a_term_most_of_the_scope_says_tells_nothing_apart():
    forms = [_form(f"the monorepo build runs on CI, item {i}") for i in range(40)]
    forms += [_form("pnpm manages the JavaScript dependencies"), _form("Bazel builds the monorepo")]
    rarity = Rarity(forms)
    distinctive = rarity.distinctive(_form("the monorepo is built with Bazel"))
    assert "bazel" in distinctive and "monorepo" not in distinctive
    assert not share_a_distinctive_term("the monorepo is built with Bazel", "pnpm installs JavaScript packages",
                                        rarity=rarity, form=_form)
    assert share_a_distinctive_term("the monorepo is built with Bazel", "run bazel test before you push",
                                    rarity=rarity, form=_form)
    # a text of no rare term is told apart by nothing: the rule leaves it to similarity
    assert share_a_distinctive_term("the monorepo is built with Bazel", "the monorepo build", rarity=rarity,
                                    form=_form)
    # a young scope has no vocabulary of its own yet
    assert Rarity(forms[: MIN_EXCHANGES - 1]).distinctive(_form("monorepo build")) == _form("monorepo build")


@pytest.mark.django_db
def test_an_exchange_of_a_neighbouring_rule_is_no_witness_and_a_paraphrase_is(api_client, make_agent, settings,
                                                                             django_capture_on_commit_callbacks):
    """Observed (devex scenario, round 42): "merge the fix to main first, then cherry-pick it onto the release
    branch" took "can you write the commit message …? — feat(uploader): … the conventional commit format the team
    uses" as its witness (the module's words "commit" and "fix", 0.46 similar, named the item), and the
    commit-message rule's own item, sharing that witness, was then folded into the hotfix rule. In the module's
    vocabulary the exchange says none of the hotfix rule's rare terms; the hotfix rule's own wordings do."""
    settings.RECMEM = settings.RECMEM.replace(consolidation__mode="off", llm__base_url="")
    agent = make_agent(name="atlas", modules=["devex"], roles=["writer", "reader"])
    scenario = load_scenario("devex_team")
    facts = {f["id"]: f for f in scenario["facts"]}
    pairs = [tuple(p) for f in scenario["facts"] for p in f["paraphrases"]] + [tuple(p) for p in scenario["filler"]]
    session = post_session(api_client, agent, module="devex", started_at=at(days=0))["id"]
    with django_capture_on_commit_callbacks(execute=True):
        out = post_exchanges(api_client, agent, session, [{"user": u, "assistant": a} for u, a in pairs])
    by_text = {Exchange.objects.get(pk=o["id"]).user_text: Exchange.objects.get(pk=o["id"]) for o in out}
    scope = ScopeKey.of(next(iter(by_text.values())))
    thresholds = thresholds_for(get_embedder().model_id)
    hotfix = facts["hotfix-cherry-pick"]["paraphrases"]
    statement = "Merge the fix to main first, then cherry-pick the commit onto release/2026.09; release branches " \
                "only ever receive cherry-picks."
    said = " ".join(f"{u} {a}" for u, a in hotfix[:2])  # the words the item was drawn from
    neighbour = by_text[facts["conventional-commits"]["paraphrases"][1][0]]
    paraphrase = by_text[hotfix[3][0]]
    close = thresholds.corroborate  # as near as a witness needs to be on similarity alone
    for unit, witnesses in ((neighbour, False), (paraphrase, True)):
        # the rule before this round: near enough is a witness
        assert consolidation._close_or_naming(statement, unit, close, thresholds)
        assert consolidation._close_or_naming(statement, unit, close, thresholds, scope=scope, said=said) is witnesses
    # the module's common words alone ("commit", "fix", "main") are no shared rare term
    rarity = scope_rarity(scope, form=_form)
    assert {"commit", "main"} & _form(statement) and not {"commit", "main"} & rarity.distinctive(_form(statement))
