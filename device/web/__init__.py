"""The live pages: score page, referee console, stream overlay and their JSON API (FastAPI).

Entry point: `device.web.app.create_app(store, health, config, referee_pin=...)`.
"""
