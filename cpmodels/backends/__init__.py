"""The backend registry: name -> backend, each imported and built on first use. Each declares what it can take.

cpsat       OR-Tools CP-SAT, the declarative model
dlx         exact cover with dancing links (Knuth's Algorithm X), numba kernel
backtrack   candidate bitmasks, singles and cage filtering, MRV branching, numba kernel
constraint  python-constraint2's BacktrackingSolver (no time limit of its own: run in a child process)
sat         a PySAT solver (CaDiCaL 1.9.5 by default) on the documented CNF; DRAT certificates in certificates.py
naive       the lecture notes' plain depth-first search in row-major order, plain Python: the slow baseline

Listing the registry (`sorted(BACKENDS)`, `name in BACKENDS`) imports no solver library: OR-Tools,
numba and python-constraint load when their backend is first looked up. A new backend: copy
_template.py and add one line to BACKENDS.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from importlib import import_module

from ..errors import UnknownBackendError
from .base import Backend, Capabilities, SolveResult, Status, format_stats, refusal, status_for


class Registry(MutableMapping[str, Backend]):
    """Backends by name, each given as a backend or as "module:Class", imported and built on first lookup."""

    def __init__(self, entries: dict[str, Backend | str]) -> None:
        self._entries = dict(entries)

    def __getitem__(self, name: str) -> Backend:
        entry = self._entries[name]
        if isinstance(entry, str):
            module, _, cls = entry.partition(":")
            entry = self._entries[name] = getattr(import_module(module, __name__), cls)()
        return entry

    def __setitem__(self, name: str, backend: Backend | str) -> None:
        self._entries[name] = backend

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        """Remove every entry without building any."""
        self._entries.clear()

    def __repr__(self) -> str:
        return f"Registry({list(self._entries)})"


BACKENDS: Registry = Registry(
    {
        "cpsat": ".cpsat:CpsatBackend",
        "dlx": ".dlx:DlxBackend",
        "backtrack": ".backtrack:BacktrackBackend",
        "constraint": ".constraint:ConstraintBackend",
        "sat": ".sat:SatBackend",
        "naive": ".naive:NaiveBackend",
    }
)


def get_backend(name: str) -> Backend:
    """The registered backend called `name`; the error lists the valid names."""
    if name not in BACKENDS:
        raise UnknownBackendError(f"unknown backend {name!r}; choose one of: {', '.join(BACKENDS)}")
    return BACKENDS[name]


__all__ = [
    "BACKENDS",
    "Backend",
    "Capabilities",
    "Registry",
    "SolveResult",
    "Status",
    "format_stats",
    "get_backend",
    "refusal",
    "status_for",
]
