"""bench_paraphrase on a small part of the tuned scenario: the REST replay, the queue runs, the measures."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from bench.paraphrase import load_scenario, scenario_sessions


def test_scenario_layout_meets_the_brief():
    for name in ("platform_team", "data_team"):
        scenario = load_scenario(name)
        assert len(scenario["facts"]) >= 12 and len(scenario["filler"]) >= 20
        assert len(scenario["contradictions"]) >= 2
        assert {f["type"] for f in scenario["facts"]} >= {"fact", "lesson", "constraint", "preference"}
        sessions = scenario_sessions(scenario)
        for fact in scenario["facts"]:
            assert len({p[0] for p in fact["paraphrases"]}) >= 4 and fact["question"] and fact["answer"]
            where = [(n, s.agent) for n, s in enumerate(sessions) for item in s.items
                     if item.kind == "paraphrase" and item.fact == fact["id"]]
            assert len({n for n, _ in where}) >= 4 and len({a for _, a in where}) >= 2


@pytest.mark.django_db(transaction=True)
def test_bench_paraphrase_small_part(tmp_path):
    out = tmp_path / "out.json"
    stdout = io.StringIO()
    call_command("bench_paraphrase", "--scenario", "platform_team", "--facts", "3", "--filler", "4",
                 "--json", str(out), stdout=stdout)
    [run] = json.loads(out.read_text())["runs"]
    assert run["facts"] == 3 and run["exchanges"] == 3 * 4 + 4 + 2  # one contradiction among the first three
    assert run["batches"] >= 1 and run["candidate_exchanges"] >= 1
    assert set(run["goals"]) == {"items_per_fact", "merged_share", "best_sessions", "contradictions_resolved",
                                 "filler_items", "in_block"}
    assert "items/fact" in stdout.getvalue()


@pytest.mark.django_db(transaction=True)
def test_bench_paraphrase_idle_mode_takes_the_backlog_in_the_final_runs(tmp_path):
    """--mode idle: nothing is consolidated while the scenario is sent; each agent's final "run now" takes its
    backlog in one pass (the `make run` way: a history sent, then one pass), and the changes still land."""
    out = tmp_path / "out.json"
    call_command("bench_paraphrase", "--scenario", "platform_team", "--facts", "3", "--filler", "4", "--mode",
                 "idle", "--json", str(out), stdout=io.StringIO())
    [run] = json.loads(out.read_text())["runs"]
    assert run["mode"] == "idle" and run["candidate_exchanges"] >= 1
    assert 1 <= run["batches"] <= 2 * 3  # the agents' final runs (and the follow-up of a change found in one)
    assert run["contradictions_resolved"] == len(run["contradictions"])


# Written for the test (round 31), in none of the scenarios' words: a time changed without a first person or a name
# ("the team retro moved: it is at 16:00 now instead of 15:00", "retro now starts at 16"), and a rule said once as
# the ban of its opposite ("unstructured logs are not allowed, always JSON").
RETRO_SCENARIO = {
 "name": "retro-team",
 "description": "A change said without a first person or a name, and a rule said as the ban of its opposite.",
 "module": "ops",
 "agents": [
  "atlas",
  "birch"
 ],
 "facts": [
  {
   "id": "retro-time",
   "type": "fact",
   "question": "When is the team retro?",
   "answer": [
    "16"
   ],
   "paraphrases": [
    [
     "Our team retro is at 15:00 every Friday.",
     "Noted, retro at 15:00 on Fridays."
    ],
    [
     "When should I be free for the retrospective?",
     "By 15:00 on Friday, when the team retro starts."
    ],
    [
     "The weekly retrospective begins at three in the afternoon on Fridays.",
     "Got it, retro at 15:00 each Friday."
    ],
    [
     "Please keep Friday 15:00 free, that is our retro slot.",
     "Understood, Friday 15:00 is reserved for the retro."
    ]
   ]
  },
  {
   "id": "json-logs",
   "type": "constraint",
   "question": "What format must service logs use?",
   "answer": [
    "json"
   ],
   "paraphrases": [
    [
     "Service logs must be structured JSON.",
     "Noted, JSON logs only."
    ],
    [
     "Can I log plain text lines from the worker?",
     "No, our services log structured JSON so the pipeline can parse it."
    ],
    [
     "Every log line we emit has to be a JSON object.",
     "Understood, one JSON object per line."
    ],
    [
     "Remember: unstructured logs are not allowed, always JSON.",
     "Got it, structured JSON logging."
    ]
   ]
  },
  {
   "id": "staging-reset",
   "type": "fact",
   "question": "When is staging reset?",
   "answer": [
    "02:00"
   ],
   "paraphrases": [
    [
     "Staging is wiped and reseeded every night at 02:00.",
     "Noted, nightly staging reset at 02:00."
    ],
    [
     "Why did my staging data vanish overnight?",
     "Staging is reset every night at 02:00, so data does not survive."
    ],
    [
     "The staging database gets rebuilt nightly at 2am.",
     "Right, the 02:00 rebuild."
    ],
    [
     "Don't keep anything important on staging, it resets at 02:00 each night.",
     "Understood, staging resets nightly."
    ]
   ]
  }
 ],
 "contradictions": [
  {
   "fact": "retro-time",
   "old": [
    "15:00"
   ],
   "statements": [
    [
     "The team retro moved: it is at 16:00 now instead of 15:00.",
     "Noted, retro is at 16:00 from now on."
    ],
    [
     "Retro now starts at 16 on Fridays.",
     "Got it, the Friday retro is at 16."
    ]
   ]
  }
 ],
 "filler": [
  [
   "What's a good lunch spot near the office?",
   "The noodle bar on the corner."
  ],
  [
   "Can you write a regex that matches an ISO date?",
   "Use ^\\d{4}-\\d{2}-\\d{2}$."
  ],
  [
   "How do I undo my last git commit?",
   "git reset --soft HEAD~1 keeps the changes staged."
  ],
  [
   "What's 15% of 240?",
   "36."
  ]
 ]
}


@pytest.mark.django_db(transaction=True)
def test_a_change_said_as_what_holds_now_supersedes_and_the_old_wording_stays_with_the_old_item(tmp_path):
    """Observed (data team scenario): the change of the standup's time drew no statement, then corroborated the old
    time; a rule's ban of its opposite superseded the rule (tried on this scenario before the fix: the change
    unresolved, the logging rule superseded by its own restatement)."""
    path = tmp_path / "retro_team.json"
    path.write_text(json.dumps(RETRO_SCENARIO))
    out = tmp_path / "out.json"
    call_command("bench_paraphrase", "--scenario", str(path), "--json", str(out), stdout=io.StringIO())
    [run] = json.loads(out.read_text())["runs"]
    assert run["contradictions"] == [{"fact": "retro-time", "resolved": True, "new_active": 1, "old_still_active": 0,
                                      "superseded": 1}]
    facts = {f["fact"]: f for f in run["per_fact"]}
    # the old time's four wordings stay together on the item the change superseded; none went to the new time
    assert facts["retro-time"]["merged"] and facts["retro-time"]["paraphrases_on_best"] == 4
    assert all(all(t.startswith("superseded/") for t in where) for where in facts["retro-time"]["trace"])
    # the logging rule is one active item holding its four wordings
    assert facts["json-logs"]["merged"] and facts["json-logs"]["paraphrases_on_best"] == 4
    assert all(t.startswith("active/") for where in facts["json-logs"]["trace"] for t in where)


def test_a_replay_waits_out_the_rate_limit_instead_of_failing(monkeypatch):
    """The poisoning bench replays a paraphrase team after a hundred attack cases from one address: a 429 is waited
    out (its Retry-After), as a well-behaved client does, not raised as a failure of the bench."""
    import bench.paraphrase as paraphrase

    class Response:
        def __init__(self, status, retry=None):
            self.status_code = status
            self.headers = {"Retry-After": retry} if retry else {}

    replies = [Response(429, "2"), Response(429), Response(201)]
    slept = []
    monkeypatch.setattr(paraphrase.time, "sleep", slept.append)

    class Client:
        def post(self, url, **kwargs):
            return replies.pop(0)

    assert paraphrase.send_patiently(Client(), "post", "/api/v1/x", data={}).status_code == 201
    assert slept == [2.0, 1.0] and not replies


def test_answer_words_match_a_number_in_either_spelling_and_nothing_longer():
    from bench.paraphrase import _words_in

    assert _words_in(["90"], "chat transcripts are only kept for ninety days")
    assert _words_in(["last four"], "Only the last 4 digits; the full number is forbidden.")
    assert not _words_in(["90"], "chat transcripts are only kept for ninety days", literal=True)
    assert not _words_in(["16"], "a 160 GB disk") and not _words_in(["four"], "fourteen days")
    assert _words_in(["screenshot"], "annotated screenshots from now on")  # a word, not a number, may go on
    assert _words_in(["zendesk"], "All customer tickets are handled in Zendesk.")
