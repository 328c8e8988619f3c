"""The change-statement set (bench/changes.py): its layout, its split, and what the score counts."""

from __future__ import annotations

from bench import changes


def test_the_set_has_its_two_kinds_and_both_halves():
    data = changes.load()
    assert len(data["changes"]) == 80 and len(data["non_changes"]) == 60
    for c in data["changes"]:
        assert c["new_value"].lower() in c["change"].lower() and c["old"] and c["old_value"]
    halves = {changes.part(c["change"]) for c in data["changes"]} | {changes.part(t) for t in data["non_changes"]}
    assert halves == {"read", "held"}


def test_a_change_counts_only_when_a_statement_names_its_new_value():
    data = {"changes": [{"change": "Standup is at 10 now.", "new_value": "10", "old": "", "old_value": "9"},
                        {"change": "Deploys moved to Thursdays.", "new_value": "Thursday", "old": "", "old_value": ""}],
            "non_changes": ["Now show me the diff.", "The job is now running."]}
    said = {"Standup is at 10 now.": ["The standup is at 10 now."], "Deploys moved to Thursdays.": ["Deploys move."],
            "The job is now running.": ["The job is now running."]}
    scores = changes.score(lambda text: said.get(text, []), data)
    total = {k: sum(h[k] for h in scores.values()) for k in ("changes", "changes_drawn", "non_changes",
                                                              "non_changes_drawn")}
    assert total == {"changes": 2, "changes_drawn": 1, "non_changes": 2, "non_changes_drawn": 1}
