"""The command line (``munchlog``, :func:`api.cli.main.main`): serve, worker, demo and the
history commands (export, import, verify, rebuild)."""
