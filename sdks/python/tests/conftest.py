from __future__ import annotations

import json
from pathlib import Path
from typing import Any

VECTORS = Path(__file__).resolve().parents[2] / "test-vectors"


def vectors(name: str) -> list[dict[str, Any]]:
    """The cases of one file of sdks/test-vectors, the contract every SDK runs."""
    cases: list[dict[str, Any]] = json.loads((VECTORS / f"{name}.json").read_text("utf-8"))["cases"]
    return cases
