"""tldextract on its bundled public-suffix snapshot only: the default extractor would fetch the list over HTTP."""

from __future__ import annotations

import threading
import types

_TLD_LOCK = threading.Lock()
_OFFLINE_EXTRACTOR = None


def ensure_offline_tldextract():
    """Make every tldextract call in this process use the bundled public-suffix snapshot (no network).

    Presidio's ``EmailRecognizer.validate_result`` calls the module-level ``tldextract.extract``, which uses
    ``tldextract.tldextract.TLD_EXTRACTOR``; that default extractor fetches the public suffix list over HTTP
    on first use and hangs when there is no network. We build ``TLDExtract(suffix_list_urls=(),
    cache_dir=None)`` (never fetches, never writes a cache, falls back to the snapshot shipped in the wheel)
    and install it

    * as ``tldextract.tldextract.TLD_EXTRACTOR`` (used by ``tldextract.extract`` for every caller), and
    * as the ``tldextract`` name inside presidio's ``email_recognizer`` module (a small namespace whose
      ``extract`` is the offline extractor), so presidio is safe even if someone rebinds the global again.

    Idempotent and thread-safe; returns the offline extractor.
    """
    global _OFFLINE_EXTRACTOR
    if _OFFLINE_EXTRACTOR is not None:
        return _OFFLINE_EXTRACTOR
    with _TLD_LOCK:
        if _OFFLINE_EXTRACTOR is not None:
            return _OFFLINE_EXTRACTOR
        import tldextract
        import tldextract.tldextract as tld_module

        extractor = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, fallback_to_snapshot=True)
        extractor("warm.example.com")  # load the snapshot now, not inside the first analysis
        tld_module.TLD_EXTRACTOR = extractor

        from presidio_analyzer.predefined_recognizers.generic import email_recognizer

        email_recognizer.tldextract = types.SimpleNamespace(extract=extractor, TLDExtract=tldextract.TLDExtract)
        _OFFLINE_EXTRACTOR = extractor
        return extractor
