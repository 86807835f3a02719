from __future__ import annotations

import json
from pathlib import Path
from typing import Any

VECTORS = Path(__file__).resolve().parents[2] / "test-vectors"


def vectors(name: str) -> list[dict[str, Any]]:
    """The cases of one file of sdks/test-vectors, the contract every SDK runs."""
    cases: list[dict[str, Any]] = json.loads((VECTORS / f"{name}.json").read_text("utf-8"))["cases"]
    return cases


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The contract test's route count, printed in the run's log whatever pytest captured."""
    from test_contract import SUMMARY

    for line in SUMMARY:
        terminalreporter.write_line(line)
