"""Custom Presidio recognizers for RecMem: secrets, phone numbers, card numbers, person names.

Everything here is plain Python on top of ``presidio_analyzer`` (no Django). The recognizers live in

* :mod:`.secrets` — ``SECRET_*`` entities: API keys, tokens, passwords, private keys, credentials in URLs and
  commands (:class:`SecretRecognizer`, :data:`SECRET_RULES`, :func:`find_secrets`);
* :mod:`.numbers` — contact and identity numbers: :class:`LooseCardRecognizer` (Luhn-valid 12-19 digit
  numbers, incl. Mastercard 2-series, Maestro, JCB, Mir) and :class:`LoosePhoneRecognizer`
  (international/local layouts that ``phonenumbers`` does not accept without a region, gated by context words);
* :mod:`.national_ids` — checksummed national identifiers (UK, DE, FR, IN, ES, BR, SE, IT, NL, PL), passports,
  medical records and diagnoses, dates of birth (:class:`NationalIdRecognizer`, :class:`HealthAndBirthRecognizer`);
* :mod:`.cued_names` — lower-case and non-Latin names after a person cue in several languages
  (:class:`CuedNameRecognizer`);
* :mod:`.names` — names and places on top of the NER: :class:`PersonHeuristicRecognizer` (improves the small
  spaCy model's PERSON recall with generic cues, see its docstring) and :class:`StreetAddressRecognizer`.

This package builds the list the engine registers (:func:`build_custom_recognizers`) and re-exports the
names used elsewhere, so ``from governance.privacy.recognizers import ...`` keeps working.

tldextract
    Presidio's e-mail recognizer validates matches with ``tldextract.extract``, whose default extractor tries
    to download the public suffix list and hangs without network. :func:`ensure_offline_tldextract` installs
    an extractor that only uses tldextract's bundled snapshot (see the function).
"""

from __future__ import annotations

import threading
import types

from presidio_analyzer import EntityRecognizer

from .cued_names import CuedNameRecognizer
from .names import (
    PersonHeuristicRecognizer,
    PlaceCueRecognizer,
    ScriptNameRecognizer,
    StreetAddressRecognizer,
    determiner_led,
    is_name_token,
    name_shaped,
    trim_name_span,
)
from .national_ids import (
    ALNUM_IDS,
    DIGIT_IDS,
    NATIONAL_ID_ENTITIES,
    HealthAndBirthRecognizer,
    NationalIdRecognizer,
)
from .numbers import (
    LooseCardRecognizer,
    LoosePhoneRecognizer,
    ObfuscatedEmailRecognizer,
    deobfuscate_email,
    luhn_ok,
    national_phone_spans,
)
from .secrets import (
    PLACEHOLDER_RE,
    PSEUDONYM_HEX_CHARS,
    SECRET_ENTITIES,
    SECRET_KINDS,
    SECRET_PREFIX,
    SECRET_RULES,
    SecretFinding,
    SecretRecognizer,
    SecretRule,
    class_change_ratio,
    find_secrets,
    is_secret_entity,
    iter_placeholders,
    looks_random,
    password_like,
    plausible_secret_value,
    secret_entity,
    secret_kind,
    shannon_entropy,
)

__all__ = [
    "ALNUM_IDS",
    "CuedNameRecognizer",
    "DIGIT_IDS",
    "NATIONAL_ID_ENTITIES",
    "HealthAndBirthRecognizer",
    "NationalIdRecognizer",
    "PLACEHOLDER_RE",
    "PSEUDONYM_HEX_CHARS",
    "SECRET_ENTITIES",
    "SECRET_KINDS",
    "SECRET_PREFIX",
    "SECRET_RULES",
    "LooseCardRecognizer",
    "LoosePhoneRecognizer",
    "ObfuscatedEmailRecognizer",
    "PersonHeuristicRecognizer",
    "PlaceCueRecognizer",
    "ScriptNameRecognizer",
    "SecretFinding",
    "SecretRecognizer",
    "SecretRule",
    "StreetAddressRecognizer",
    "build_custom_recognizers",
    "class_change_ratio",
    "determiner_led",
    "deobfuscate_email",
    "ensure_offline_tldextract",
    "find_secrets",
    "is_name_token",
    "is_secret_entity",
    "iter_placeholders",
    "looks_random",
    "luhn_ok",
    "name_shaped",
    "national_phone_spans",
    "password_like",
    "plausible_secret_value",
    "secret_entity",
    "secret_kind",
    "shannon_entropy",
    "trim_name_span",
]

# --------------------------------------------------------------------------------------------------
# tldextract: bundled snapshot only
# --------------------------------------------------------------------------------------------------

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

        email_recognizer.tldextract = types.SimpleNamespace(
            extract=extractor, TLDExtract=tldextract.TLDExtract
        )
        _OFFLINE_EXTRACTOR = extractor
        return extractor


def build_custom_recognizers(supported_language: str = "en") -> list[EntityRecognizer]:
    return [
        SecretRecognizer(supported_language=supported_language),
        LooseCardRecognizer(supported_language=supported_language),
        LoosePhoneRecognizer(supported_language=supported_language),
        StreetAddressRecognizer(supported_language=supported_language),
        PersonHeuristicRecognizer(supported_language=supported_language),
        PlaceCueRecognizer(supported_language=supported_language),
        ScriptNameRecognizer(supported_language=supported_language),
        ObfuscatedEmailRecognizer(supported_language=supported_language),
        NationalIdRecognizer(supported_language=supported_language),
        HealthAndBirthRecognizer(supported_language=supported_language),
        CuedNameRecognizer(supported_language=supported_language),
    ]
