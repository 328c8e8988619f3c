"""bench_embedders on a tiny file: every figure of the report is computed, and the summary renders it."""

from __future__ import annotations

import copy
import json

from bench.embedders import run_embedders
from bench.report import write_summary
from tests.bench.conftest import CONVERSATION


def test_backends_are_compared_on_tuning_and_untuned_conversations(tmp_path):
    tune, untuned = copy.deepcopy(CONVERSATION), copy.deepcopy(CONVERSATION)
    tune["sample_id"], untuned["sample_id"] = "conv-26", "conv-43"
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([tune, untuned]))

    report = run_embedders(data=data, backends=["static", "onnx"], reference="onnx", log=lambda m: None)

    assert report["tuning_conversations"] == ["conv-26"] and report["untuned_conversations"] == ["conv-43"]
    onnx, static = report["backends"]["onnx"], report["backends"]["static"]
    assert onnx["model_id"] == "local:all-MiniLM-L6-v2" and static["model_id"] == "local:all-MiniLM-L6-v2-static"
    for entry in (onnx, static):
        assert entry["texts_per_second"] > 0 and entry["query_p50_ms"] > 0
        for split in ("tuning", "untuned"):
            assert 0 <= entry["retrieval"][split]["evidence_recall@25"] <= 1
        assert entry["thresholds"]["calibrated_on_tuning"]["theta_sim"] > 0
        assert isinstance(entry["marathon"]["ripe_at_fifth_unit"], bool)
    # The reference calibrates to its own configured θ_sim; the other is compared with it.
    assert 0 <= static["neighbour_overlap@10_with_reference"] <= 1
    assert "neighbour_overlap@10_with_reference" not in onnx
    assert set(report["two_stage"]) == {"static_top50_rescored_by_onnx", "static_top100_rescored_by_onnx"}

    results = tmp_path / "results"
    results.mkdir()
    (results / "embedders.json").write_text(json.dumps(report))
    summary = write_summary(results).read_text()
    assert "## Embedding backends (bench_embedders)" in summary
    assert "| `static` | `local:all-MiniLM-L6-v2-static` |" in summary
    assert "Two stages" in summary
