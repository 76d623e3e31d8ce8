"""The JSON API (``/api/...``): its routes (``routes/``), schemas, the recording hot path,
authentication and the one error shape. Parse, call the GameLog, dump; no rules here."""
