"""bench.run: a skipped step keeps its earlier result (and log); everything else is cleared for the new run."""

from __future__ import annotations

from bench.run import clean_results


def test_clean_results_keeps_only_the_skipped_steps(tmp_path):
    names = ["locomo_online.json", "locomo_eager.json", "locomo_sweep.json", "scale.json", "scale_cached.json",
             "scale_1m.json", "pii.json", "run.json", "SUMMARY.md", "cost_vs_recall.png"]
    for name in names:
        (tmp_path / name).write_text("{}")
    (tmp_path / "logs").mkdir()
    for name in ("locomo_online.log", "scale.log", "pii.log"):
        (tmp_path / "logs" / name).write_text("x")
    (tmp_path / "full").mkdir()  # the full profile's folder below the quick one is never touched
    (tmp_path / "full" / "scale.json").write_text("{}")

    logs = clean_results(tmp_path, keep={"scale", "sweep"})

    # scale_cached: a single scale run saved beside the profile's; scale_1m is a step of its own, not skipped here.
    assert sorted(p.name for p in tmp_path.glob("*.*")) == ["locomo_sweep.json", "scale.json", "scale_cached.json"]
    assert [p.name for p in logs.glob("*.log")] == ["scale.log"]
    assert (tmp_path / "full" / "scale.json").exists()

    clean_results(tmp_path, keep={"locomo"})
    assert not any(tmp_path.glob("*.json"))  # no locomo_* result left to keep; sweep is not part of "locomo"
