"""The backend registry: name -> backend. Later backends (dlx, backtrack, constraint) join it here."""

from __future__ import annotations

from ..errors import UnknownBackendError
from .base import Backend, SolveResult, status_for
from .cpsat import CpsatBackend

BACKENDS: dict[str, Backend] = {
    "cpsat": CpsatBackend(),
}


def get_backend(name: str) -> Backend:
    """The registered backend called `name`; the error lists the valid names."""
    try:
        return BACKENDS[name]
    except KeyError:
        raise UnknownBackendError(f"unknown backend {name!r}; choose one of: {', '.join(BACKENDS)}") from None


__all__ = ["BACKENDS", "Backend", "SolveResult", "get_backend", "status_for"]
