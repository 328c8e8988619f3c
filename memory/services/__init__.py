"""Memory writes (HackSoft services), one module per act:

- :mod:`.ingest`: sessions, the write path (mask → embed → store → recurrence trigger);
- :mod:`.consolidation`: a consolidation run (plan with the consolidator, then one write transaction);
- :mod:`.versions`: the snapshot kept before a change, and its restore;
- :mod:`.rollback`: undo of a whole batch;
- :mod:`.review`: promotions to project scope and their decisions;
- :mod:`.scheduling`: when runs are queued (online, retries, idle-time windows);
- :mod:`.edits`: edits and deletes by agents (a search's writes are in :mod:`memory.search.services`).
"""
