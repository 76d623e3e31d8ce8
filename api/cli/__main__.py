"""``python -m api.cli``: the ``munchlog`` command (:func:`api.cli.main.main`)."""

import sys

from api.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
