"""Matches, the top floor: playing games with bots (the runner), tournaments and their
statistics and worker processes, the analysis of a saved game, and the ladder's ratings of the
levels."""
