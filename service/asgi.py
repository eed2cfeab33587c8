"""The app for an ASGI server started by name (`uvicorn service.asgi:app`), on $UMPIRE_DB."""

from service.app import create_app

app = create_app()
