"""The SDK is typed: mypy --strict accepts the SDK, the README's example and a merchant's usage, and refuses a wrong one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def mypy(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-version", "3.10", *map(str, paths)], capture_output=True, text=True, cwd=ROOT, env={"MYPYPATH": str(ROOT / "src"), "PATH": ""})


def test_mypy_strict_accepts_the_sdk_the_example_and_a_merchants_usage() -> None:
    result = mypy(ROOT / "src" / "vaultline", ROOT / "examples" / "flask_webhook.py", ROOT / "tests" / "typed_usage.py")
    assert result.returncode == 0, result.stdout


def test_mypy_refuses_an_amount_given_as_text_and_an_unknown_filter(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.py"
    wrong.write_text(
        "import vaultline\n"
        "client = vaultline.Vaultline('sk_test_x')\n"
        "client.payments.create_one_off(amount='19.99', currency_code='EUR', source={'type': 'vaultline'})\n"
        "client.payments.list(colour='red')\n"
        "client.payments.list(status='paid')\n"
    )
    result = mypy(wrong)
    assert result.returncode == 1
    assert 'Argument "amount" to "create_one_off" of "PaymentsResource" has incompatible type "str"' in result.stdout
    assert 'Unexpected keyword argument "colour"' in result.stdout
    assert '"status"' in result.stdout and "Literal" in result.stdout
