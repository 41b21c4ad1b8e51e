"""whist: Israeli Whist, Classic Whist and Whistiti."""

__version__ = "0.1.0"
