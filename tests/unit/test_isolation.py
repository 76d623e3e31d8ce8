"""The domain and its pure projections import no web framework and no database driver."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_domain_and_projections_import_neither_flask_nor_a_database() -> None:
    code = (
        "import sys, domain, domain.ccg, projections.views, projections.exports, "
        "projections.replay\n"
        "bad = [m for m in ('flask', 'sqlite3', 'psycopg', 'api') if m in sys.modules]\n"
        "print(','.join(bad))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""
