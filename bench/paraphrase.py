"""Paraphrase consolidation benchmark: does recurring team knowledge, said in different words by several agents over
several sessions, become one corroborated memory?

A scenario (bench/scenarios/*.json) holds facts, lessons, constraints and preferences, each in ≥ 4 genuinely
different paraphrases, later contradictions of some of them, one-off filler, and a natural question per fact with
the words its answer must contain. The runner replays it through the REST API (Django's test client, the real
authentication, masking, trigger and queue) in online mode with the queue forced synchronous, so every run the
write path enqueues executes right after its commit; at the end each agent asks for a run (the API's "run now", a
manual run with the session pass), as an operator would. With ``--mode idle`` nothing runs before that request: one
pass takes each agent's whole backlog. Then it measures, from the database and the search API:

- ``items_per_fact``: active experiences holding evidence from a fact's paraphrases, per fact (facts without any
  item count as 0; ``facts_with_item`` says how many have one);
- ``merged``: facts whose paraphrases that reached an item all reached one item, which holds ≥ 3 of the 4 and
  fewer of any other fact's (an item holding another fact's paraphrases as often is that fact's, not a merge; for a
  fact later changed: among the items that held its old value, the one the change superseded included);
- ``best_sessions`` / ``best_agents``: distinct sessions and agents in the evidence of each fact's best item
  (the active item holding most of its paraphrases);
- ``proposals``: promotion review items raised in the project;
- ``contradictions_resolved``: the newest statement is in an active item and every item stating the old value is
  no longer active;
- ``filler_items``: active items whose evidence is only filler;
- ``in_block``: questions whose answer words appear in the first 600 tokens of the search context block, a number
  in either spelling ("90" / "ninety"); ``in_block_literal`` as written in the scenario; ``in_newcomer_block`` the
  same question asked by an agent of the module that wrote nothing (what the team's memory shares), and
  ``in_newcomer_block_after_review`` once a reviewer approved every proposal.

Layout: six sessions, the agents in turn; paraphrase j of fact i goes to session (i + j) mod 6 (four sessions, all
three agents), filler is spread over them in a fixed shuffled order; two more sessions carry the contradictions.
"""

from __future__ import annotations

import json
import random
import re
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

SCENARIO_DIR = Path(__file__).resolve().parent / "scenarios"
TUNED = "platform_team"
HELD_BACK = "data_team"
# Written in round 17 by a helper that read none of the others, and run only to report (never to tune). data_team
# was partly read that round (four facts' wordings, its ripening counts at several θ), so these are the blind part.
# Round 31: the items of their unmerged facts were printed once (a grep of a --details log), so partly read since.
# Round 42: growth_team and devex_team written by a helper that read only this harness and platform_team.json;
# growth_team never read (blind), devex_team read after its first score (its failures are the round's tuning data).
# Round 43: docs_team and search_team written the same way and never read (their first score is on this round's
# code; only their counts were looked at); release_team written the same way to be read (tuning data, not blind).
# Round 44: analytics_team written the same way to be read (tuning data: its first score is the round's evidence).
BLIND = ("security_team", "frontend_team", "growth_team", "docs_team", "search_team")
ROUNDS = 6
BLOCK_TOKENS = 600
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def load_scenario(name: str) -> dict[str, Any]:
    path = Path(name) if name.endswith(".json") else SCENARIO_DIR / f"{name}.json"
    return json.loads(path.read_text())


def scenario_subset(scenario: dict[str, Any], *, facts: int | None = None, filler: int | None = None) -> dict:
    """The first ``facts`` facts (those contradicted among them keep their contradiction) and ``filler``
    fillers: a small part for the tests."""
    out = dict(scenario)
    if facts is not None:
        out["facts"] = scenario["facts"][:facts]
        kept = {f["id"] for f in out["facts"]}
        out["contradictions"] = [c for c in scenario["contradictions"] if c["fact"] in kept]
    if filler is not None:
        out["filler"] = scenario["filler"][:filler]
    return out


@dataclass
class Planned:
    kind: str  # paraphrase | contradiction | filler
    user: str
    assistant: str
    fact: str = ""
    index: int = 0


@dataclass
class PlannedSession:
    agent: str
    items: list[Planned] = field(default_factory=list)


def scenario_sessions(scenario: dict[str, Any], seed: int = 7) -> list[PlannedSession]:
    agents = scenario["agents"]
    sessions = [PlannedSession(agent=agents[r % len(agents)]) for r in range(ROUNDS)]
    for i, fact in enumerate(scenario["facts"]):
        for j, (user, assistant) in enumerate(fact["paraphrases"]):
            sessions[(i + j) % ROUNDS].items.append(Planned("paraphrase", user, assistant, fact["id"], j))
    rng = random.Random(seed)
    for k, (user, assistant) in enumerate(scenario["filler"]):
        target = sessions[k % ROUNDS].items
        target.insert(rng.randrange(len(target) + 1), Planned("filler", user, assistant, index=k))
    late = [PlannedSession(agent=agents[r % len(agents)]) for r in range(2)]
    for c in scenario["contradictions"]:
        for j, (user, assistant) in enumerate(c["statements"]):
            late[j % 2].items.append(Planned("contradiction", user, assistant, c["fact"], j))
    return sessions + [s for s in late if s.items]


_NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
                 "sixteen seventeen eighteen nineteen twenty").split()
_NUMBER_WORDS_OF = {**{str(n): w for n, w in enumerate(_NUMBER_WORDS)},
                    **{str(10 * n): w for n, w in zip(range(3, 10), "thirty forty fifty sixty seventy eighty "
                                                                   "ninety".split(), strict=True)}}
_NUMBER_DIGITS_OF = {w: n for n, w in _NUMBER_WORDS_OF.items()}


def _answer_pattern(word: str, literal: bool) -> str:
    """An answer word as a pattern: a number also in its other spelling ("90" / "ninety", "last four" / "last 4"),
    unless ``literal``."""
    parts = []
    for token in re.split(r"(\s+)", word.lower()):
        other = None if literal else _NUMBER_WORDS_OF.get(token) or _NUMBER_DIGITS_OF.get(token)
        pattern = f"(?:{re.escape(token)}|{re.escape(other)})" if other else re.escape(token)
        # a number ends where it ends: "16" is not in "160", "four" not in "fourteen"
        numeric = token.isdigit() or token in _NUMBER_DIGITS_OF
        parts.append(pattern + ("(?![a-z0-9])" if numeric and not literal else ""))
    return "".join(parts)


def _words_in(words: list[str], text: str, *, literal: bool = False) -> bool:
    low = text.lower()
    return all(re.search(rf"(?<![a-z0-9]){_answer_pattern(w, literal)}", low) for w in words)


def block_prefix(context: str, tokens: int = BLOCK_TOKENS) -> str:
    """The first ``tokens`` tokens of a context block (line by line, the last line cut by words)."""
    from memory.gateways.tokens import count_tokens

    out: list[str] = []
    used = 0
    for line in context.splitlines():
        cost = count_tokens(line) + 1
        if used + cost <= tokens:
            out.append(line)
            used += cost
            continue
        words = []
        for word in line.split():
            c = count_tokens(word) + 1
            if used + c > tokens:
                break
            words.append(word)
            used += c
        out.append(" ".join(words))
        break
    return "\n".join(out)


def send_patiently(client, method: str, url: str, **kwargs):
    """One request as a well-behaved client sends it: after a 429 it waits ``Retry-After`` and asks again (a replay
    is faster than the per-address rate limit allows — the poisoning bench replays this scenario after a hundred
    attack cases; the benches measure memory, not throttling)."""
    for _ in range(30):
        response = getattr(client, method)(url, **kwargs)
        if response.status_code != 429:
            return response
        time.sleep(float(response.headers.get("Retry-After") or 1))
    return response


#: An agent of the module that says nothing in the scenario and only asks: what the team's memory gives a teammate
#: who was not there (another agent's items reach it only as far as RECMEM_SEARCH_PEER_ITEMS lets them).
NEWCOMER = "newcomer-agent"


class _Api:
    """The REST API through Django's test client, one API key per agent."""

    def __init__(self, keys: dict[str, str]) -> None:
        from rest_framework.test import APIClient

        self.client = APIClient()
        self.keys = keys

    def post(self, agent: str, path: str, body: dict, expect: int) -> dict:
        response = send_patiently(self.client, "post", f"/api/v1/{path}", data=body, format="json",
                                  HTTP_AUTHORIZATION=f"Bearer {self.keys[agent]}")
        if response.status_code != expect:
            raise RuntimeError(f"POST {path}: {response.status_code} {response.content[:300]!r}")
        return response.json() if response.content else {}

    def block(self, agent: str, question: str) -> str:
        """The first BLOCK_TOKENS of the context block ``agent``'s search for ``question`` returns."""
        return block_prefix(self.post(agent, "search", {"query": question}, 200).get("context") or "")


def replay_scenario(*, scenario: dict[str, Any], project_name: str, log: Callable[[str], None] = print,
                    final_run: bool = True, seed: int | None = 1) -> dict[str, Any]:
    """Replay ``scenario`` into a new project; returns what was stored (exchange id → planned item, agents).
    ``seed`` fixes the project's pseudonym key (a placeholder's hex is part of what is embedded, so a random key
    moved similarities and the results from run to run); ``None`` keeps a random one."""
    from agents.services import agent_create, api_key_create
    from bench.locomo import fix_pseudonym_key

    keys, agents = {}, {}
    for name in [*scenario["agents"], NEWCOMER]:
        agent = agent_create(project_name=project_name, name=name, module_names=[scenario["module"]],
                             roles=["writer", "reader", "operator"])
        agents[name] = agent
        keys[name] = api_key_create(agent=agent).raw_key
        if seed is not None and len(agents) == 1:
            fix_pseudonym_key(project=agent.project, seed=seed)
    api = _Api(keys)
    stored: dict[str, Planned] = {}
    session_of: dict[str, str] = {}
    for n, planned in enumerate(scenario_sessions(scenario)):
        started = T0 + timedelta(days=2 * n)
        session = api.post(planned.agent, "sessions", {"external_id": f"s{n}", "module": scenario["module"],
                                                        "started_at": started.isoformat()}, 201)
        for t, item in enumerate(planned.items):
            body = {"exchanges": [{"user": item.user, "assistant": item.assistant,
                                   "occurred_at": (started + timedelta(minutes=3 * t)).isoformat()}]}
            [out] = api.post(planned.agent, f"sessions/{session['id']}/exchanges", body, 201)["exchanges"]
            stored[out["id"]] = item
            session_of[out["id"]] = session["id"]
        api.post(planned.agent, f"sessions/{session['id']}/close", {}, 200)
    if final_run:
        for name in scenario["agents"]:
            api.post(name, "consolidations/run", {}, 202)
    log(f"  {scenario['name']}: {len(stored)} exchanges replayed")
    return {"stored": stored, "sessions": session_of, "agents": agents, "api": api}


def measure(*, scenario: dict[str, Any], replayed: dict[str, Any]) -> dict[str, Any]:
    from agents.models import Project
    from governance.models import ConsolidationBatch
    from memory.models import Candidate, Exchange, Experience, MemoryStatus, ReviewItem

    stored: dict[str, Planned] = replayed["stored"]
    project = next(iter(replayed["agents"].values())).project
    project = Project.objects.get(pk=project.pk)
    items = list(Experience.objects.filter(project=project).prefetch_related("evidence"))
    evidence = {x.pk: [str(e.pk) for e in x.evidence.all()] for x in items}
    active = [x for x in items if x.status == MemoryStatus.ACTIVE]
    exchanges = list(Exchange.objects.filter(project=project))
    sessions_of = {str(e.pk): (str(e.session_id), str(e.owner_agent_id)) for e in exchanges}
    state_of = {str(e.pk): e.state for e in exchanges}

    changed = {c["fact"] for c in scenario["contradictions"]}
    # Whose paraphrases each item holds: an item that holds another fact's paraphrases as many times or more is that
    # fact's (or nobody's), not a merge of this one ("all customer tickets are handled in Zendesk" holding "tickets
    # tagged billing go to the finance queue").
    held_by: dict[Any, dict[str, int]] = {x.pk: {} for x in items}
    for x in items:
        for i in evidence[x.pk]:
            planned = stored.get(i)
            if planned is not None and planned.kind == "paraphrase":
                held_by[x.pk][planned.fact] = held_by[x.pk].get(planned.fact, 0) + 1
    per_fact = []
    for fact in scenario["facts"]:
        mine = {i for i, p in stored.items() if p.kind == "paraphrase" and p.fact == fact["id"]}
        # A fact later changed is judged on the items that held its old value: active, or superseded by the change
        # (the item that states the new value holds the change's exchanges, and is judged under contradictions).
        new_ids = {i for i, p in stored.items() if p.kind == "contradiction" and p.fact == fact["id"]}
        judged = active if fact["id"] not in changed else [
            x for x in items if x.status in (MemoryStatus.ACTIVE, MemoryStatus.SUPERSEDED)
            and not new_ids & set(evidence[x.pk])]
        holding = [(x, len(mine & set(evidence[x.pk]))) for x in judged]
        holding = [(x, n) for x, n in holding if n]
        holding.sort(key=lambda h: -h[1])
        best = holding[0][0] if holding else None
        best_sessions = {sessions_of[i][0] for i in evidence[best.pk]} if best else set()
        best_agents = {sessions_of[i][1] for i in evidence[best.pk]} if best else set()
        shared_with = sorted(f for f, n in held_by[best.pk].items()
                             if f != fact["id"] and n >= holding[0][1]) if best else []
        per_fact.append({
            "fact": fact["id"], "type": fact["type"], "items": len(holding),
            "merged": len(holding) == 1 and holding[0][1] >= 3 and not shared_with,
            "best_is_another_facts": shared_with,
            "paraphrases_on_best": holding[0][1] if holding else 0,
            "states": [state_of[i] for i in sorted(mine, key=lambda i: stored[i].index)],
            "others": [x.statement for x, _ in holding[1:]],
            # Where each paraphrase went: the items of any status holding it ("" when none), to see a split.
            "trace": [[f"{x.status}/{x.type}: {x.statement}" for x in items if i in evidence[x.pk]]
                      for i in sorted(mine, key=lambda i: stored[i].index)],
            "best_sessions": len(best_sessions), "best_agents": len(best_agents),
            "best": {"type": best.type, "statement": best.statement, "scope": best.scope,
                     "confidence": best.confidence} if best else None,
        })

    contradictions = []
    for c in scenario["contradictions"]:
        new_ids = {i for i, p in stored.items() if p.kind == "contradiction" and p.fact == c["fact"]}
        new_active = [x for x in active if new_ids & set(evidence[x.pk])]
        old_active = [x for x in active if _words_in(c["old"], x.statement) and not (new_ids & set(evidence[x.pk]))]
        superseded = [x for x in items if x.status == MemoryStatus.SUPERSEDED
                      and set(evidence[x.pk]) & {i for i, p in stored.items() if p.fact == c["fact"]}]
        contradictions.append({"fact": c["fact"], "resolved": bool(new_active) and not old_active and bool(superseded),
                               "new_active": len(new_active), "old_still_active": len(old_active),
                               "superseded": len(superseded)})

    filler_ids = {i for i, p in stored.items() if p.kind == "filler"}
    filler_items = [x for x in active if evidence[x.pk] and set(evidence[x.pk]) <= filler_ids]

    api: _Api = replayed["api"]
    first_agent = scenario["agents"][0]
    questions = []
    for fact in scenario["facts"]:
        prefix, newcomer = (api.block(agent, fact["question"]) for agent in (first_agent, NEWCOMER))
        answer = next((c for c in scenario["contradictions"] if c["fact"] == fact["id"]), None)
        questions.append({"fact": fact["id"], "question": fact["question"],
                          "in_block": _words_in(fact["answer"], prefix),
                          "in_block_literal": _words_in(fact["answer"], prefix, literal=True),
                          "in_newcomer_block": _words_in(fact["answer"], newcomer),
                          "old_in_block": bool(answer) and _words_in(answer["old"], prefix)})

    n = len(per_fact) or 1
    proposals = ReviewItem.objects.filter(experience__project=project, kind=ReviewItem.Kind.PROMOTION)
    proposal_count = proposals.count()
    proposals_by_scope = {s: proposals.filter(proposed_scope=s).count()
                          for s in set(proposals.values_list("proposed_scope", flat=True))}
    after_review, stale_proposals = _newcomer_after_review(api=api, scenario=scenario, project=project)
    return {
        "scenario": scenario["name"], "facts": len(per_fact), "exchanges": len(stored),
        "items_per_fact": round(sum(f["items"] for f in per_fact) / n, 3),
        "items_per_fact_with_item": round(sum(f["items"] for f in per_fact)
                                          / max(1, sum(1 for f in per_fact if f["items"])), 3),
        "facts_with_item": sum(1 for f in per_fact if f["items"]),
        "merged": sum(1 for f in per_fact if f["merged"]),
        "merged_share": round(sum(1 for f in per_fact if f["merged"]) / n, 3),
        "best_sessions": round(sum(f["best_sessions"] for f in per_fact) / n, 3),
        "best_agents": round(sum(f["best_agents"] for f in per_fact) / n, 3),
        "proposals": proposal_count,
        "proposals_by_scope": proposals_by_scope,
        "contradictions_resolved": sum(1 for c in contradictions if c["resolved"]),
        "contradictions": contradictions,
        "filler_items": len(filler_items),
        "filler_item_statements": [x.statement for x in filler_items],
        "active_items": len(active),
        "in_block": sum(1 for q in questions if q["in_block"]),
        "in_block_literal": sum(1 for q in questions if q["in_block_literal"]),
        "in_newcomer_block": sum(1 for q in questions if q["in_newcomer_block"]),
        "in_newcomer_block_after_review": after_review,
        "stale_proposals": stale_proposals,
        "questions": questions,
        "candidates": Candidate.objects.filter(project=project).count(),
        "candidate_exchanges": Exchange.objects.filter(project=project, candidates__isnull=False).distinct().count(),
        "batches": ConsolidationBatch.objects.filter(project=project).count(),
        "per_fact": per_fact,
    }


def _newcomer_after_review(*, api: _Api, scenario: dict[str, Any], project) -> tuple[int, int]:
    """A reviewer approves every pending proposal as it stands (rejects one whose item changed since: approving it
    is refused), then the newcomer asks each question again: what the team's memory shares once a person has looked
    (with RECMEM_SEARCH_PEER_ITEMS=reviewed, nothing before). Returns (questions answered, stale proposals)."""
    from django.contrib.auth import get_user_model

    from core.errors import Conflict
    from memory.models import ReviewItem
    from memory.review.services import review_approve, review_reject

    reviewer, _ = get_user_model().objects.get_or_create(username="bench-paraphrase-reviewer")
    stale = 0
    for item in ReviewItem.objects.filter(experience__project=project, kind=ReviewItem.Kind.PROMOTION,
                                          status=ReviewItem.Status.PENDING):
        try:
            review_approve(item=item, user=reviewer, reason="bench: every proposal approved")
        except Conflict:  # its item changed since it was proposed: approving it is refused
            review_reject(item=item, user=reviewer, reason="bench: out of date")
            stale += 1
    answered = sum(1 for fact in scenario["facts"] if _words_in(fact["answer"], api.block(NEWCOMER, fact["question"])))
    return answered, stale


GOALS = {"items_per_fact": ("<=", 1.2), "merged_share": (">=", 0.9), "best_sessions": (">=", 3.5),
         "contradictions_resolved": (">=", 2), "filler_items": ("<=", 0), "in_block": (">=", 11)}


def goals(result: dict[str, Any]) -> dict[str, bool]:
    """Each goal met or missed (the in-block goal is 11 of 12 questions, scaled to a smaller part)."""
    out = {}
    for key, (op, target) in GOALS.items():
        if key == "in_block":
            target = target * result["facts"] / 12
        if key == "contradictions_resolved":
            target = len(result["contradictions"])
        value = result[key]
        out[key] = value <= target if op == "<=" else value >= target
    return out


def run_paraphrase(*, scenarios: list[str], log: Callable[[str], None] = print, facts: int | None = None,
                   filler: int | None = None, keep_data: bool = False, seed: int | None = 1,
                   mode: str = "online") -> dict[str, Any]:
    """Replay each scenario with the extractive consolidator and the configured embedder: in online mode (topics
    consolidated as they ripen), or in idle mode, where nothing runs before the agents' final "run now", so one
    pass takes the whole backlog (as after `make run` with a conversation history sent at once)."""
    from bench.locomo import bench_settings, project_delete
    from memory.gateways.embeddings import get_embedder
    from memory.thresholds import thresholds_for

    runs = []
    for name in scenarios:
        scenario = scenario_subset(load_scenario(name), facts=facts, filler=filler)
        project_name = f"bench-paraphrase-{uuid.uuid4().hex[:8]}"
        try:
            with bench_settings(mode=mode, consolidator="extractive"):
                replayed = replay_scenario(scenario=scenario, project_name=project_name, log=log, seed=seed)
                result = measure(scenario=scenario, replayed=replayed)
        finally:
            if not keep_data:
                project_delete(project_name)
        model = get_embedder().model_id
        result["embedding_model"] = model
        result["thresholds"] = thresholds_for(model).__dict__
        result["held_back"] = name == HELD_BACK or Path(name).stem in BLIND
        result["pseudonym_seed"] = seed
        result["mode"] = mode
        result["goals"] = goals(result)
        runs.append(result)
    return {"benchmark": "paraphrase", "runs": runs}


def summary_lines(report: dict[str, Any]) -> list[str]:
    lines = []
    for r in report["runs"]:
        tag = (" (held back)" if r["held_back"] else "") + (f", {r['mode']} mode" if r.get("mode") else "")
        lines.append(f"{r['scenario']}{tag}: {r['facts']} facts, {r['exchanges']} exchanges, "
                     f"{r['candidate_exchanges']} candidate exchanges, {r['batches']} batches, "
                     f"{r['active_items']} active items")
        lines.append(f"  items/fact {r['items_per_fact']} (with an item: {r['items_per_fact_with_item']}, "
                     f"facts with an item {r['facts_with_item']}), merged {r['merged']}/{r['facts']}, best item "
                     f"sessions {r['best_sessions']} agents {r['best_agents']}, proposals {r['proposals']} "
                     f"{r['proposals_by_scope']}, contradictions resolved {r['contradictions_resolved']}/"
                     f"{len(r['contradictions'])}, filler items {r['filler_items']}, in first {BLOCK_TOKENS} tokens "
                     f"{r['in_block']}/{r['facts']} (a newcomer's block {r['in_newcomer_block']}/{r['facts']}, "
                     f"{r['in_newcomer_block_after_review']} once a reviewer approved every proposal; "
                     f"{r['stale_proposals']} proposals out of date)")
        lines.append("  goals: " + ", ".join(f"{k} {'met' if v else 'MISSED'}" for k, v in r["goals"].items()))
    for half, c in report.get("change_statements", {}).items():
        lines.append(f"change statements ({half} half): a statement with the new value from {c['changes_drawn']}/"
                     f"{c['changes']} changes, any statement from {c['non_changes_drawn']}/{c['non_changes']} "
                     "sentences that change nothing")
    return lines
