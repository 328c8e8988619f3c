"""Governance writes, one module per concern: :mod:`.audit` (the append-only trail), :mod:`.privacy` (masking,
the vault, the project's policy), :mod:`.batches` (the ConsolidationBatch record: start, calls, succeed, fail)."""
