"""The backend registry: name -> backend. Each declares what it can take (`can_solve`).

cpsat       OR-Tools CP-SAT, the declarative model
dlx         exact cover with dancing links (Knuth's Algorithm X), numba kernel
backtrack   candidate bitmasks, singles and cage filtering, MRV branching, numba kernel
constraint  python-constraint2's BacktrackingSolver (no time limit of its own: run in a child process)
"""

from __future__ import annotations

from ..errors import UnknownBackendError
from .backtrack import BacktrackBackend
from .base import Backend, SolveResult, status_for
from .constraint import ConstraintBackend
from .cpsat import CpsatBackend
from .dlx import DlxBackend

BACKENDS: dict[str, Backend] = {
    "cpsat": CpsatBackend(),
    "dlx": DlxBackend(),
    "backtrack": BacktrackBackend(),
    "constraint": ConstraintBackend(),
}


def get_backend(name: str) -> Backend:
    """The registered backend called `name`; the error lists the valid names."""
    try:
        return BACKENDS[name]
    except KeyError:
        raise UnknownBackendError(f"unknown backend {name!r}; choose one of: {', '.join(BACKENDS)}") from None


__all__ = ["BACKENDS", "Backend", "SolveResult", "get_backend", "status_for"]
