"""Operations: serving (granian or gunicorn, the processes ``munchlog serve`` starts), the
health, readiness and metrics routes, the Prometheus metrics, logs and the deadline keeper."""
