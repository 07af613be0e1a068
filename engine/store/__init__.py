"""The store: the one package of `engine` that does I/O. It keeps rooms in Redis, applies one
command to a room atomically, and keeps the key names, the lifetime figures, the shared clock
and the wait for replicas."""

from engine.store.rooms import (
    DAY,
    LANGUAGE_TTL,
    CorruptRoom,
    Outcome,
    Retention,
    Store,
    StoreBusy,
    parse_stored,
)

__all__ = ["DAY", "LANGUAGE_TTL", "CorruptRoom", "Outcome", "Retention", "Store", "StoreBusy",
           "parse_stored"]
