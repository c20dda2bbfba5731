"""Repository-level contracts: CI runs the README's test command; layering holds."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import packages_loaded_by

ROOT = Path(__file__).resolve().parents[1]


def _readme_test_command() -> str:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Run the tests", 1)[1]
    return re.search(r"```bash\n(.+?)\n```", section, re.S).group(1).strip()


def test_ci_runs_exactly_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert ci[-1].strip() == _readme_test_command()


def test_backend_packages_do_not_import_streamlit():
    code = "import clustering, datasets, clustering.metrics, clustering.registry"
    assert "streamlit" not in packages_loaded_by(code)


def test_readme_names_every_page_the_python_version_and_how_to_skip_the_browser():
    text = (ROOT / "README.md").read_text()
    pages = re.search(r"\| the lab \|(.+)\|", text).group(1)
    for page in sorted((ROOT / "pages").glob("[0-9]*_*.py")):
        title = page.stem.split("_", 1)[1].replace("_", " ")
        assert title in pages, f"the README's page list leaves out {title}"
    pyproject = (ROOT / "pyproject.toml").read_text()
    low = re.search(r'requires-python = ">=([0-9.]+)"', pyproject).group(1)
    assert f"Python {low} or newer" in text
    assert "PNG and SVG" in text and "Chromium" in text.split("## Run the tests")[0]
    assert "Debian" in text.split("## Run the tests", 1)[1]
    assert '-m "not browser"' in text
