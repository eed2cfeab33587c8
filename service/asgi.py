"""The app for an ASGI server started by name (`uvicorn service.asgi:app`), on $UMPIRE_DB."""

import logging
import logging.config

from service.app import create_app
from service.logs import log_config
from service.settings import Settings

# the server's log lines as `umpire serve` writes them (UMPIRE_LOG_FORMAT: text or json), each stamped with its
# request id and cleaned of tickets and tokens; the levels uvicorn was started with (--log-level) are kept
_levels = {name: logging.getLogger(name).level for name in ("uvicorn", "uvicorn.error", "uvicorn.access")}
_access = logging.getLogger("uvicorn.access")
_access_off = not _access.handlers and not _access.propagate  # how `uvicorn --no-access-log` leaves it, before the app
logging.config.dictConfig(log_config(Settings.from_env().log_format))
for _name, _level in _levels.items():
    if _level:
        logging.getLogger(_name).setLevel(_level)
if _access_off:  # uvicorn logs access when the logger has a handler: the one the config above gave it goes again
    _access.handlers = []

app = create_app()
