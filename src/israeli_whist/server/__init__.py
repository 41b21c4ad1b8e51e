"""The web app: tables where people and bots play together, over HTTP and WebSockets.

Layering: ``server`` depends on ``core`` and ``bots``; nothing below imports it. The engine
decides every rule; this package checks who may act, stores every action before anyone
hears of it, and sends each seat only its own view.
"""
