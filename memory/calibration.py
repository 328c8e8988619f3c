"""Deriving θ_sim for an embedding model from the store's own neighbour-similarity distribution.

Method: for every unit, take the similarity of its (θ_count − 1)-th nearest neighbour among the units the same
agent could see (its *ripeness similarity*: the highest θ_sim at which this unit would make its topic ripe, if all
its neighbours were still unconsolidated). A θ_sim at the q-quantile of that distribution makes (1 − q) of the
units ripe-able: θ_sim = quantile(ripeness, 1 − target_coverage). Coverage and cost pull against each other
(more coverage = more triggers = more LLM calls), so the command prints the whole curve, not just one number.
Using all units (past and future) instead of only earlier ones slightly overestimates coverage; the LoCoMo sweep in
`bench_locomo --sweep` measures the real trigger rate.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def ripeness_similarities(groups: Sequence[np.ndarray], theta_count: int) -> np.ndarray:
    """Per unit, the similarity of its (θ_count − 1)-th nearest neighbour within its group (−1 if too few)."""
    need = theta_count - 1
    out: list[np.ndarray] = []
    for vectors in groups:
        vectors = np.asarray(vectors, dtype=np.float32)
        n = len(vectors)
        if n == 0:
            continue
        if n <= need:
            out.append(np.full(n, -1.0, dtype=np.float32))
            continue
        for start in range(0, n, 2048):  # bounded memory for big stores
            sims = vectors[start:start + 2048] @ vectors.T
            rows = np.arange(sims.shape[0])
            sims[rows, rows + start] = -np.inf  # not its own neighbour
            kth = np.partition(sims, n - need, axis=1)[:, n - need]
            out.append(kth)
    return np.concatenate(out) if out else np.zeros(0, dtype=np.float32)


def theta_for_coverage(ripeness: np.ndarray, target_coverage: float) -> float:
    """The θ_sim at which ``target_coverage`` of the units could make their topic ripe."""
    valid = ripeness[ripeness > -1]
    if len(valid) == 0:
        raise ValueError("no unit has enough neighbours to calibrate")
    return float(np.quantile(valid, 1.0 - target_coverage))


def coverage_curve(ripeness: np.ndarray, thetas: Sequence[float]) -> list[dict[str, float]]:
    """For each θ_sim, the share of units that could be part of a ripe topic."""
    n = max(len(ripeness), 1)
    return [{"theta_sim": round(float(t), 3), "ripe_share": round(float((ripeness >= t).sum()) / n, 4)}
            for t in thetas]


def distribution(ripeness: np.ndarray) -> dict[str, float]:
    valid = ripeness[ripeness > -1]
    if len(valid) == 0:
        return {}
    return {f"p{p}": round(float(np.percentile(valid, p)), 4) for p in (5, 10, 25, 50, 75, 90, 95)}


def calibration_report(*, groups: Sequence[np.ndarray], model_id: str, source: str, theta_count: int,
                       target_coverage: float, current_theta_sim: float) -> dict:
    """The whole calibration of one store: the distribution, the coverage curve, θ_sim for the target."""
    ripeness = ripeness_similarities(groups, theta_count)
    theta = theta_for_coverage(ripeness, target_coverage)
    curve = coverage_curve(ripeness, [round(x, 2) for x in np.arange(0.40, 0.91, 0.05)])
    return {"model": model_id, "source": source, "units": int(sum(len(g) for g in groups)), "groups": len(groups),
            "theta_count": theta_count, "target_coverage": target_coverage, "theta_sim": round(theta, 3),
            "current_theta_sim": current_theta_sim, "ripeness_distribution": distribution(ripeness),
            "coverage_curve": curve}


def calibration_lines(report: dict) -> list[str]:
    """The report as the commands print it."""
    lines = [f"model {report['model']}: {report['units']} units in {report['groups']} groups ({report['source']}), "
             f"θ_count={report['theta_count']}",
             "ripeness similarity ((θ_count−1)-th neighbour): "
             + ", ".join(f"{k}={v}" for k, v in report["ripeness_distribution"].items()),
             "θ_sim  share of units that can make a topic ripe"]
    lines += [f"{row['theta_sim']:.2f}   {row['ripe_share']:.3f}" for row in report["coverage_curve"]]
    lines.append(f"θ_sim for {report['target_coverage']:.0%} coverage: {report['theta_sim']:.3f} "
                 f"(configured: {report['current_theta_sim']})")
    return lines


# --- paraphrase calibration: recurrence across sessions and corroboration ------------------------------------------

def pair_rates(vectors_a: np.ndarray, labels_a: Sequence[str], vectors_b: np.ndarray, labels_b: Sequence[str],
               thetas: Sequence[float], *, same_set: bool) -> list[dict[str, float]]:
    """For each θ: the share of same-label pairs at or above it (what merges) and of different-label pairs (what
    merges wrongly). Unlabelled items ("", filler) only ever count as different."""
    sims = np.asarray(vectors_a, dtype=np.float32) @ np.asarray(vectors_b, dtype=np.float32).T
    same, other = [], []
    for i, la in enumerate(labels_a):
        for j, lb in enumerate(labels_b):
            if same_set and j <= i:
                continue
            (same if la and la == lb else other).append(sims[i, j])
    same_arr, other_arr = np.asarray(same), np.asarray(other)
    return [{"theta": round(float(t), 3), "same": round(float((same_arr >= t).mean()) if len(same_arr) else 0.0, 4),
             "different": round(float((other_arr >= t).mean()) if len(other_arr) else 0.0, 5)} for t in thetas]


def lowest_safe(curve: list[dict[str, float]], max_false: float) -> float:
    """The lowest θ whose different-label rate is at most ``max_false`` (the most paraphrases merged for that risk)."""
    safe = [row["theta"] for row in curve if row["different"] <= max_false]
    return min(safe) if safe else 1.0


def paraphrase_calibration(*, scenario: dict, embed, unit_form, max_false: float = 0.003) -> dict:
    """θ_sim_sessions and θ_sim_agents (exchange–exchange), θ_corroborate (statement–statement) and θ_corroborate_unit
    (statement–exchange) from a paraphrase scenario (bench/scenarios/*.json): each the lowest value on a 0.05 grid
    at which at most ``max_false`` of the pairs of different facts (or filler) would merge. A statement is a fact's
    paraphrase said as a statement (not a question), prefixed with the fact's type as the item embeddings are."""
    thetas = [round(x, 2) for x in np.arange(0.35, 0.91, 0.05)]
    units, unit_labels = [], []
    for fact in scenario["facts"]:
        for user, assistant in fact["paraphrases"]:
            units.append(unit_form(user, assistant))
            unit_labels.append(fact["id"])
    for user, assistant in scenario.get("filler", []):
        units.append(unit_form(user, assistant))
        unit_labels.append("")
    statements, statement_labels = [], []
    for fact in scenario["facts"]:
        for user, _ in fact["paraphrases"]:
            if not user.rstrip().endswith("?"):
                statements.append(f"{fact['type']}: {user}")
                statement_labels.append(fact["id"])
    u = np.asarray(embed(units), dtype=np.float32)
    s = np.asarray(embed(statements), dtype=np.float32)
    curves = {"theta_sim_sessions": pair_rates(u, unit_labels, u, unit_labels, thetas, same_set=True),
              "corroborate": pair_rates(s, statement_labels, s, statement_labels, thetas, same_set=True),
              "corroborate_unit": pair_rates(s, statement_labels, u, unit_labels, thetas, same_set=False)}
    # The session rule across agents needs two such pairs (two witnesses, one of them another agent's) for one
    # false topic: it may count at twice the pair risk.
    curves["theta_sim_agents"] = curves["theta_sim_sessions"]
    risk = {k: 2 * max_false if k == "theta_sim_agents" else max_false for k in curves}
    return {"scenario": scenario.get("name", ""), "max_false": max_false, "curves": curves, "risk": risk,
            "thresholds": {k: lowest_safe(v, risk[k]) for k, v in curves.items()}}
