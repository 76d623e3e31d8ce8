"""The pages: the replay viewer, the table and an event's page (HTML from ``api/templates/``,
scripts and styles from ``api/static/``), over the JSON API."""
