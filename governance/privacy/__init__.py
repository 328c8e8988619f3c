"""PII and secret masking for RecMem (plain Python; Django optional).

``from governance.privacy import mask, mask_many, MaskingPolicy`` - names are imported lazily so that
importing the package does not load Presidio/spaCy (several seconds) until masking is first used.
See :mod:`governance.privacy.engine` for the interface, :mod:`governance.privacy.recognizers` for the
custom recognizers and :mod:`governance.privacy.vault` for the Fernet encryption of originals (the PII bench's
scoring lives in :mod:`bench.pii`).
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "MaskingPolicy": "engine",
    "MaskResult": "engine",
    "MaskedEntity": "engine",
    "PiiEngineError": "engine",
    "mask": "engine",
    "mask_many": "engine",
    "contains_pii": "engine",
    "pseudonym": "engine",
    "pseudonym_digest": "engine",
    "accepted_placeholders": "engine",
    "continue_secrets": "engine",
    "conversation_windows": "engine",
    "normalise_value": "engine",
    "get_analyzer": "engine",
    "reset_analyzer": "engine",
    "encrypt_value": "vault",
    "decrypt_value": "vault",
    "generate_vault_key": "vault",
    "Vault": "vault",
    "SECRET_ENTITIES": "recognizers",
    "SECRET_KINDS": "recognizers",
    "find_secrets": "recognizers",
    "ensure_offline_tldextract": "recognizers",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
