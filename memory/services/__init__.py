"""Memory writes (HackSoft services), one module per act:

- :mod:`.ingest`: sessions, the write path (mask → embed → store → recurrence trigger);
- :mod:`.consolidation`: a consolidation run (plan with the consolidator, then one write transaction);
- :mod:`.scheduling`: when runs are queued (online, retries, idle-time windows);
- :mod:`.edits`: edits and deletes by agents.

A search's reads and writes are in :mod:`memory.search`; the review queue's decisions, the versions kept before a
change and the rollback of a batch are in :mod:`memory.review`.
"""
