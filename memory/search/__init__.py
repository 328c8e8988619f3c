"""Search: the three-layer retrieval behind ``POST /search``, one module per concern:

- :mod:`.query`: the query and result types;
- :mod:`.ranking`: the blended score (pure, and able to explain a score);
- :mod:`.lexical` and :mod:`.vector`: the full-text and the vector halves of a layer's retrieval;
- :mod:`.side_by_side`: independent statements run on their own connections;
- :mod:`.selectors`: the reads (``layers_nearest``, ``memory_search``);
- :mod:`.context`: the context block;
- :mod:`.services`: the writes (hit counts, search log, feedback, read audit) and ``search_run``, a whole search.
"""
