"""The eager (Mem0-style) baseline of the benchmarks: an LLM extraction and update on every exchange.

- :mod:`.prompts`: its prompts (``eager_extract``, ``eager_update``);
- :mod:`.extractor`: the extraction and the update decision (LLM, or the extractive rules with zero tokens);
- :mod:`.runner`: its runs through the product's consolidation run, as a planner the product knows nothing of.

RecMem's point is that this costs far more tokens than recurrence-triggered consolidation; the LoCoMo bench
(``bench_locomo --mode eager``) measures the ratio.
"""
