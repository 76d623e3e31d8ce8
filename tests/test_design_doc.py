"""docs/DESIGN.md's path of one recorded action stays true: at most six stops, and each
``file:line`` it names is the definition of the function it names."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DESIGN = (ROOT / "docs" / "DESIGN.md").read_text(encoding="utf-8")
STOP = re.compile(r"^\| (\d+) \| `([\w/]+\.py):(\d+)` `([\w.]+)", re.M)


def test_a_recorded_action_passes_at_most_six_stops() -> None:
    stops = STOP.findall(DESIGN)
    assert 1 <= len(stops) <= 6, stops
    assert [int(n) for n, *_ in stops] == list(range(1, len(stops) + 1))


def test_each_stop_points_at_the_function_it_names() -> None:
    for _, path, line, name in STOP.findall(DESIGN):
        source = (ROOT / path).read_text(encoding="utf-8").splitlines()
        function = name.rsplit(".", 1)[-1]
        assert re.match(rf"\s*def {function}\(", source[int(line) - 1]), (path, line, name)
