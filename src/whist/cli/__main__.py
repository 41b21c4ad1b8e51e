"""``python -m whist.cli``: the same as the ``whist`` command."""

from whist.cli.main import main

main()
