"""FastAPI app, command handling (load -> decide -> append), auth, SSE, bundles, verification, CLI.

With the store, the only place with I/O.
"""

ENGINE_VERSION = "0.1.0"
