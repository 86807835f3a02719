"""Packaging: `python -m build` makes a wheel of the API's version, and it installs and imports in a fresh virtualenv."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

import vaultline

ROOT = Path(__file__).resolve().parents[1]
WHEELHOUSE = Path(os.environ.get("VAULTLINE_SDK_WHEELHOUSE") or Path(sys.prefix) / "wheelhouse")


def test_a_wheel_built_with_python_m_build_installs_and_imports_in_a_fresh_virtualenv(tmp_path: Path) -> None:
    # --no-isolation: the backend (hatchling) of this environment, so that the build needs no network.
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--sdist", "--no-isolation", "--outdir", str(tmp_path / "dist"), str(ROOT)], check=True, capture_output=True)
    wheels = list((tmp_path / "dist").glob("*.whl"))
    assert [wheel.name for wheel in wheels] == [f"vaultline-{vaultline.__version__}-py3-none-any.whl"]
    assert "vaultline/py.typed" in zipfile.ZipFile(wheels[0]).namelist()
    assert list((tmp_path / "dist").glob(f"vaultline-{vaultline.__version__}.tar.gz"))

    venv.create(tmp_path / "fresh", with_pip=True)
    python = tmp_path / "fresh" / "bin" / "python"
    assert WHEELHOUSE.is_dir(), f"{WHEELHOUSE}: run sdks/install-test-deps"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-index", "--find-links", str(WHEELHOUSE), str(wheels[0])], check=True, capture_output=True)
    script = "import vaultline; c = vaultline.Vaultline('sk_live_x'); print(vaultline.__version__, c.mode, len(vaultline.OPERATIONS), vaultline.__file__)"
    out = subprocess.run([str(python), "-c", script], check=True, capture_output=True, text=True, cwd=tmp_path).stdout.split()
    assert out[:3] == [vaultline.__version__, "live", str(len(vaultline.OPERATIONS))]
    assert out[3].startswith(str(tmp_path / "fresh")), "imported from the fresh virtualenv, not the source tree"


@pytest.mark.skipif(not os.environ.get("VAULTLINE_API_VERSION"), reason="VAULTLINE_API_VERSION: the OpenAPI document's info.version")
def test_the_version_is_the_api_version_of_the_openapi_document() -> None:
    assert vaultline.__version__ == os.environ["VAULTLINE_API_VERSION"]
    assert 'path = "src/vaultline/_version.py"' in (ROOT / "pyproject.toml").read_text("utf-8")
