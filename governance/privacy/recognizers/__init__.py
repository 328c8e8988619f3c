"""Custom Presidio recognizers for RecMem: secrets, phone numbers, card numbers, person names.

Everything here is plain Python on top of ``presidio_analyzer`` (no Django). The recognizers live in

* :mod:`.secrets` — ``SECRET_*`` entities: API keys, tokens, passwords, private keys, credentials in URLs and
  commands (:class:`SecretRecognizer`, :data:`SECRET_RULES`, :func:`find_secrets`). Its rules come from
  :mod:`.secret_rules` (English syntax) and :mod:`.secret_shapes` (other languages, markup, disguised shapes),
  both built on :mod:`.secret_base` (the rule model and the shared tests);
* :mod:`.numbers` — contact and identity numbers: :class:`LooseCardRecognizer` (Luhn-valid 12-19 digit
  numbers, incl. Mastercard 2-series, Maestro, JCB, Mir) and :class:`LoosePhoneRecognizer`
  (international/local layouts that ``phonenumbers`` does not accept without a region, gated by context words),
  :class:`WrittenLanguagePhoneRecognizer` (a national layout of the language the text is written in) and
  :class:`NamedMobileRecognizer` (a mobile number in its owner's country's layout, right after a name);
* :mod:`.national_ids` — checksummed national identifiers (UK, DE, FR, IN, ES, BR, SE, IT, NL, PL), passports,
  medical records and diagnoses, dates of birth (:class:`NationalIdRecognizer`, :class:`HealthAndBirthRecognizer`);
* :mod:`.world_ids` — any country's personal identifier after its cue, and the shaped ones of Asia, the Americas
  and the rest of Europe (:class:`WorldIdRecognizer`);
* :mod:`.cued_names` — lower-case and non-Latin names after a person cue in several languages
  (:class:`CuedNameRecognizer`);
* :mod:`.names` — names and places on top of the NER: :class:`PersonHeuristicRecognizer` (improves the small
  spaCy model's PERSON recall with generic cues, see its docstring) and :class:`StreetAddressRecognizer`, which
  reads the rest of an address on its line with :mod:`.addresses` (the parts after a street in each country's order,
  CJK addresses, the recipient before one).

This package builds the list the engine registers (:func:`build_custom_recognizers`) and re-exports the
names used elsewhere, so ``from governance.privacy.recognizers import ...`` keeps working.

tldextract
    Presidio's e-mail recognizer validates matches with ``tldextract.extract``, whose default extractor tries
    to download the public suffix list and hangs without network. :func:`ensure_offline_tldextract` installs
    an extractor that only uses tldextract's bundled snapshot (:mod:`.offline_tld`).
"""

from __future__ import annotations

from presidio_analyzer import EntityRecognizer

from ._common import CUED_NAME_SCORE, foreign_script, written_languages
from .cued_names import CuedNameRecognizer
from .names import (
    HANDLE_KEY,
    INTERJECTIONS,
    PersonHeuristicRecognizer,
    PlaceCueRecognizer,
    ScriptNameRecognizer,
    StreetAddressRecognizer,
    a_determiner_alone,
    acts_as_a_person,
    calls_no_one,
    determiner_led,
    dotted_name_handle,
    grow_name_span,
    handle_of_a_person,
    is_name_token,
    name_in_guess,
    name_shaped,
    trim_name_span,
)
from .national_ids import ALNUM_IDS as _EU_ALNUM_IDS
from .national_ids import (
    DIGIT_IDS,
    HealthAndBirthRecognizer,
    NationalIdRecognizer,
)
from .national_ids import NATIONAL_ID_ENTITIES as _EU_NATIONAL_ID_ENTITIES
from .numbers import (
    BrokenIbanRecognizer,
    EncodedEmailRecognizer,
    LooseCardRecognizer,
    LoosePhoneRecognizer,
    NamedMobileRecognizer,
    ObfuscatedEmailRecognizer,
    WrittenLanguagePhoneRecognizer,
    deobfuscate_email,
    longest_valid_iban,
    luhn_ok,
    national_phone_spans,
)
from .offline_tld import ensure_offline_tldextract
from .secret_base import (
    PLACEHOLDER_RE,
    PSEUDONYM_HEX_CHARS,
    SECRET_ENTITIES,
    SECRET_KINDS,
    SECRET_PREFIX,
    SecretRule,
    class_change_ratio,
    is_secret_entity,
    looks_random,
    password_like,
    plausible_secret_value,
    secret_entity,
    secret_kind,
    shannon_entropy,
)
from .secrets import (
    SECRET_RULES,
    SecretFinding,
    SecretRecognizer,
    decoded_runs,
    find_secrets,
    find_secrets_as_written,
    iter_placeholders,
)
from .world_ids import WORLD_ALNUM_IDS, WORLD_ID_ENTITIES, WorldIdRecognizer

#: every identifier type the two identifier modules find (all masked by default)
NATIONAL_ID_ENTITIES: dict[str, str] = {**_EU_NATIONAL_ID_ENTITIES, **WORLD_ID_ENTITIES}
ALNUM_IDS = _EU_ALNUM_IDS | WORLD_ALNUM_IDS

__all__ = [
    "a_determiner_alone",
    "ALNUM_IDS",
    "CUED_NAME_SCORE",
    "BrokenIbanRecognizer",
    "EncodedEmailRecognizer",
    "CuedNameRecognizer",
    "acts_as_a_person",
    "dotted_name_handle",
    "calls_no_one",
    "written_languages",
    "HANDLE_KEY",
    "handle_of_a_person",
    "DIGIT_IDS",
    "INTERJECTIONS",
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
    "WrittenLanguagePhoneRecognizer",
    "NamedMobileRecognizer",
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
    "decoded_runs",
    "find_secrets_as_written",
    "foreign_script",
    "is_name_token",
    "is_secret_entity",
    "iter_placeholders",
    "looks_random",
    "longest_valid_iban",
    "luhn_ok",
    "name_shaped",
    "national_phone_spans",
    "password_like",
    "plausible_secret_value",
    "secret_entity",
    "secret_kind",
    "shannon_entropy",
    "grow_name_span",
    "name_in_guess",
    "trim_name_span",
    "WorldIdRecognizer",
]


def build_custom_recognizers(supported_language: str = "en") -> list[EntityRecognizer]:
    return [
        SecretRecognizer(supported_language=supported_language),
        LooseCardRecognizer(supported_language=supported_language),
        LoosePhoneRecognizer(supported_language=supported_language),
        WrittenLanguagePhoneRecognizer(supported_language=supported_language),
        NamedMobileRecognizer(supported_language=supported_language),
        StreetAddressRecognizer(supported_language=supported_language),
        PersonHeuristicRecognizer(supported_language=supported_language),
        PlaceCueRecognizer(supported_language=supported_language),
        ScriptNameRecognizer(supported_language=supported_language),
        ObfuscatedEmailRecognizer(supported_language=supported_language),
        BrokenIbanRecognizer(supported_language=supported_language),
        EncodedEmailRecognizer(supported_language=supported_language),
        NationalIdRecognizer(supported_language=supported_language),
        HealthAndBirthRecognizer(supported_language=supported_language),
        WorldIdRecognizer(supported_language=supported_language),
        CuedNameRecognizer(supported_language=supported_language),
    ]
