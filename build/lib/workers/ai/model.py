"""The meaning model of the AI players: static word embeddings that ship inside a package.

`wordllama` (MIT) keeps its 256-dimension embeddings (16 MB) and its tokenizer inside its
wheel. Its `load()` looks for the tokenizer under `tokenizer/` while the wheel has
`tokenizers/`, and would then try a download: loading from the package's own folder with
`disable_download=True` finds both and never touches the network.

The model is loaded once per process, on first use, under a lock (a worker's threads may ask
at once). Texts are embedded once and kept (a few thousand short texts at most: the hint
vocabulary, the cards' descriptions and the hints of the games being played).
"""

from __future__ import annotations

import threading
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import emoji
import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]

_lock = threading.Lock()
_model: Any = None


def load() -> Any:
    """Return the process's model, loading it on first use (offline: never a download)."""
    global _model
    if _model is None:
        with _lock:
            if _model is None:
                import wordllama  # type: ignore[import-untyped]

                _model = wordllama.WordLlama.load(
                    cache_dir=Path(wordllama.__file__).parent, disable_download=True
                )
    return _model


@lru_cache(maxsize=8192)
def embed(text: str) -> Vector:
    """Return the unit-length embedding of a text (kept: the same text is embedded once);
    a text without a single token means nothing (all zeros)."""
    vector = np.asarray(load().embed([text], norm=False)[0], dtype=np.float32)
    length = float(np.linalg.norm(vector))
    vector = vector / length if length > 0 else np.zeros_like(vector)
    vector.setflags(write=False)
    return vector


def emoji_list(scene: str) -> list[str]:
    """Split a scene (emoji written one after another) into its emoji."""
    return [match["emoji"] for match in emoji.emoji_list(scene)]


@cache
def _load_language(language: str) -> None:
    """Load the `emoji` package's names in a language (it loads them on demand)."""
    if language in emoji.LANGUAGES:
        emoji.config.load_language(language)


def _data(symbol: str) -> dict[str, Any]:
    data = emoji.EMOJI_DATA.get(symbol) or emoji.EMOJI_DATA.get(symbol.replace("\ufe0f", ""))
    if data is None:
        data = emoji.EMOJI_DATA.get(symbol + "\ufe0f", {})
    return dict(data)


def _clean(name: str) -> str:
    return name.strip(":").replace("_", " ").strip()


@lru_cache(maxsize=4096)
def emoji_name(symbol: str, language: str = "en") -> str:
    """Name one emoji in a language: the `emoji` package's name in it, else its English name
    (else the empty string, for a symbol it does not know)."""
    with _lock:
        _load_language(language)
    data = _data(symbol)
    name = data.get(language) or data.get("en") or ""
    return _clean(str(name))


def describe(scene: str, language: str = "en") -> str:
    """Describe a scene by its emoji names, e.g. `crescent moon, whale, violin`."""
    return ", ".join(name for name in (emoji_name(s, language) for s in emoji_list(scene)) if name)
