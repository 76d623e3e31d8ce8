"""Record the legacy fixture database: games stored by munchlog as of commit 60b5cde.

Run once, with that commit checked out, from the repository root::

    python tests/data/legacy/make_legacy_db.py

It writes ``legacy.sqlite`` (the store) and ``legacy.json`` (what a later version must read back
from it: per game its version, head hash, judge's state, summary and exports) beside this file.
``tests/test_legacy_store.py`` opens the store with today's code and checks every game against
``legacy.json``. Re-running it with newer code would defeat its purpose: the file is the past.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from api.app import create_app  # noqa: E402
from api.cli.demo import FlaskTransport, demo_spec, file_demo_dispute, record_demo_game  # noqa: E402

ORGANIZER = "legacy-organizer-token"


def main() -> None:
    db = HERE / "legacy.sqlite"
    for path in (db, HERE / "legacy.sqlite.lock"):
        path.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as instance:
        app = create_app(
            {
                "TESTING": True,
                "INSTANCE_PATH": instance,
                "MUNCHLOG_DATABASE_URL": f"sqlite:///{db}",
                "MUNCHLOG_ORGANIZER_TOKEN": ORGANIZER,
            }
        )
        transport = FlaskTransport(app)
        client = app.test_client()
        games = []
        # 1. a finished strict game with snapshots, a dispute and a ruling (the demo's)
        finished = record_demo_game(transport, ORGANIZER, seed=1)
        file_demo_dispute(transport, finished)
        games.append(("finished-with-ruling", finished.game_id, finished.tokens))
        # 2. a finished game, then a judge's corrections and a backup
        judged = record_demo_game(transport, ORGANIZER, seed=2)
        judge = {"Authorization": f"Bearer {judged.tokens['judge']}"}
        opened = client.post(
            f"/api/games/{judged.game_id}/disputes",
            json={"from_version": 20, "statement": "back up to 20"},
            headers=judge,
        )
        assert opened.status_code == 201, opened.get_json()
        did = opened.get_json()["dispute"]["dispute_id"]
        ruled = client.post(
            f"/api/games/{judged.game_id}/disputes/{did}/ruling",
            json={
                "ruling": "backed up and corrected",
                "penalty": {"kind": "warning", "seat": "A"},
                "backup_to": 19,
                "corrections": [
                    {"type": "take_gold", "player": "A", "amount": 2, "corrects": 5},
                    {"type": "set_level", "player": "B", "level": 3, "corrects": 6},
                ],
            },
            headers=judge,
        )
        assert ruled.status_code == 201, ruled.get_json()
        games.append(("backed-up", judged.game_id, judged.tokens))
        # 3. a record-mode game left in setup
        body = {**demo_spec(seed=3), "mode": "record", "labels": {"event": "legacy-cup"}}
        created = client.post(
            "/api/games", json=body, headers={"Authorization": f"Bearer {ORGANIZER}"}
        )
        assert created.status_code == 201, created.get_json()
        data = created.get_json()
        tokens = {
            "A": data["seats"]["A"]["token"],
            "B": data["seats"]["B"]["token"],
            "table": data["table_token"],
            "judge": data["judge_token"],
        }
        games.append(("record-mode-in-setup", data["game_id"], tokens))

        expected = {"organizer_token": ORGANIZER, "recorded_with": "60b5cde", "games": []}
        for name, game_id, toks in games:
            judge = {"Authorization": f"Bearer {toks['judge']}"}
            state = client.get(f"/api/games/{game_id}/state", headers=judge).get_json()
            summary = client.get(f"/api/games/{game_id}", headers=judge).get_json()
            verify = client.get(f"/api/games/{game_id}/verify", headers=judge).get_json()
            export = client.get(f"/api/games/{game_id}/export?format=json", headers=judge)
            transcript = client.get(f"/api/games/{game_id}/export?format=text", headers=judge)
            seat_b = client.get(
                f"/api/games/{game_id}/state",
                headers={"Authorization": f"Bearer {toks['B']}"},
            ).get_json()
            expected["games"].append(
                {
                    "name": name,
                    "game_id": game_id,
                    "tokens": toks,
                    "version": summary["version"],
                    "summary": summary,
                    "verify": verify,
                    "judge_state": state,
                    "seat_b_state": seat_b,
                    "export_json_sha256": export_digest(export.get_json()),
                    "transcript_sha256": hashlib.sha256(transcript.data).hexdigest(),
                }
            )
        history = client.get(
            f"/api/players/{finished_player(client, finished.game_id, finished.tokens)}/games",
            headers={"Authorization": f"Bearer {ORGANIZER}"},
        ).get_json()
        expected["history"] = history
        app.extensions["munchlog"].close()
    (HERE / "legacy.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
    (HERE / "legacy.sqlite.lock").unlink(missing_ok=True)
    con = sqlite3.connect(db)
    con.execute("VACUUM")
    con.close()
    print(f"wrote {db} ({db.stat().st_size} bytes) and legacy.json")


def export_digest(body: dict) -> str:  # type: ignore[type-arg]
    """SHA-256 of the JSON export without its ``exported_at`` (the time of the export)."""
    body = {k: v for k, v in body.items() if k != "exported_at"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def finished_player(client, game_id, tokens):  # type: ignore[no-untyped-def]
    summary = client.get(
        f"/api/games/{game_id}", headers={"Authorization": f"Bearer {tokens['judge']}"}
    ).get_json()
    return summary["players"]["A"]


if __name__ == "__main__":
    main()
