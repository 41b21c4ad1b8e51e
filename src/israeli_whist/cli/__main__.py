"""``python -m israeli_whist.cli``: the same as the ``whist`` command."""

from israeli_whist.cli.main import main

main()
