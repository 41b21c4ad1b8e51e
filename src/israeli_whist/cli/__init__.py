"""The terminal front end: ``whist play``, ``whist rules`` and ``whist check``."""
