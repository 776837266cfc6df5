"""Backtracking over candidate bitmasks: singles, locked candidates, cage tuples, probing, MRV branching.

The readable half. A puzzle's shape (order, units, cages) is compiled once to one flat int64 array,
the structure (`st`, header S_*, named arrays STRUCTURE: the layout is defined in backtrack_kernel.py,
importable without numba), and its cage tuples to one uint64 array;
every puzzle of that shape reuses them (found by content: equal units and cages, not the same tuple
objects). The native kernel (backtrack_kernel.py) searches them with a workspace each thread keeps:
`ws` (int64: the search state, then its regions, header W_*) and `wm` (uint64: masks, trail), the
givens written straight into a uint8 row. The kernel is one C function taking the address of an
int64 argument block (A_*); it runs in chunks of nodes and keeps its state in the workspace between
calls, so this module reads the clock between calls and honours the time limit.

Loading the kernel (native_search): the first process compiles it with numba (seconds) and saves its
object code beside numba's cache (NUMBA_CACHE_DIR, else __pycache__ here, else the user's cache);
later processes load that object with llvmlite and call it through ctypes, without importing numba
(a warm start). The object is keyed by the kernel's source, the layout constants below and the CPU.

Propagation (chosen by measurement: benchmarks/RESULTS.md, "Native speed"): naked and hidden singles,
locked candidates over intersecting units (found in the same scan of a unit as its hidden singles),
cage tuples (cages.allowed_tuples, so `/` is exact and hidden operators need nothing special); MRV
branching with the most undecided peers among bivalue cells. Optional probing (`probe` cells, off by
default: it cuts the values tried 2-4x on hard 9x9 sets but costs more time than it saves there; it
pays on Mathdoku): at each branching point up to `probe` of the cells with the fewest candidates
have each value tried with propagation and undone; a value that fails is removed, and the search
branches on the probed cell whose worst value places the most cells.

stats: "nodes" (values tried in the search tree), "backtracks" (values whose propagation failed, or
whose node failed its probes), "build_s" (the shape compiled or found, the givens loaded), "search_s"
(base.STAT_NAMES), and the backend's own "probes" (values tried and undone while choosing a cell) and
"guesses" (values tried while another value of their cell was left: one per binary branch, as tdoku counts).
"""

from __future__ import annotations

import ctypes
import hashlib
import itertools
import os
import struct
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np

from .. import cages as cage_rules
from ..errors import PuzzleError
from ..grid import Cage, GridPuzzle, explain_violation, givens_bytes, grids_hold
from .backtrack_kernel import (  # the layout the kernel reads: numba is imported only to compile it
    A_BUFFER,
    A_GIVENS,
    A_KEEP,
    A_LIMIT,
    A_MAX_NODES,
    A_OPTIONS,
    A_PUZZLES,
    A_RESULTS,
    A_ROWS,
    A_ST,
    A_TUPLES,
    A_WM,
    A_WS,
    ARGS_SIZE,
    BACKTRACKS,
    BUFFER_ROWS,
    BUFFERED,
    COUNT,
    FINISHED,
    GUESSES,
    LAYOUT,
    NODES,
    OPT_LOCKED,
    PAUSED,
    PROBE_CELLS_SHIFT,
    PROBE_DEPTH_SHIFT,
    PROBES,
    PUZZLE,
    R_BACKTRACKS,
    R_COLUMNS,
    R_COMPLETE,
    R_COUNT,
    R_GUESSES,
    R_NODES,
    R_PROBES,
    S_ARRAYS,
    S_INTERS,
    S_N,
    SMALL_UNITS,
    STRUCTURE,
    W_REGIONS,
    WM_REGIONS,
    WS_REGIONS,
)
from .base import (
    MAX_COUNT,
    Capabilities,
    SolveResult,
    SolveTimer,
    capability_problem,
    kept,
    status_for,
    time_limit_or_none,
    unreachable_cage,
)

PROBE_CELLS = 0
"""Cells probed at each branching point by default: none (probing cuts the values tried 2-8x but costs more
time than it saves on every set measured: benchmarks/RESULTS.md, "Native speed"); BacktrackBackend(probe=3)."""


def options(probe: int = PROBE_CELLS) -> int:
    """The kernel's options: locked candidates, and `probe` cells probed at each branching point (0: none)."""
    if not 0 <= probe <= 255:
        raise ValueError(f"probe must lie in 0..255, not {probe}")
    return OPT_LOCKED | (probe << PROBE_CELLS_SHIFT) | (0xFFFF << PROBE_DEPTH_SHIFT)


MAX_CAGE_TUPLES = 1_000_000
"""A cage allowing more tuples than this is refused by can_solve (its table would be too large to filter)."""
CHUNK_SECONDS = 0.02
"""The time one kernel call aims to take, so that the clock is read (and Ctrl-C heard) often enough."""
BLOCK = 32
"""Puzzles a batch worker takes at a time (workers take blocks in turn, so one hard block does not hold up another)."""

# ---- the native kernel ----------------------------------------------------------------------------

Search = Callable[[int], int]
_NATIVE: list[tuple[Search, Any]] = []
_NATIVE_LOCK = threading.Lock()
_OBJECT_MAGIC = b"cpmodels backtrack kernel 1\n"
NATIVE_SYMBOL = "cpmodels_backtrack_search"


def native_search() -> Search:
    """The kernel's C function `search(address of the argument block) -> code`, loaded or compiled once per process."""
    if not _NATIVE:
        with _NATIVE_LOCK:
            if not _NATIVE:
                _NATIVE.append(_load_or_build())
    return _NATIVE[0][0]


def _kernel_key() -> str:
    """The cache key of the kernel's object code: its source, LAYOUT, and the CPU (the code uses its features)."""
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    digest = hashlib.sha256()
    digest.update(Path(__file__).with_name("backtrack_kernel.py").read_bytes())
    digest.update(repr(LAYOUT).encode())
    digest.update(f"{llvm.get_process_triple()} {llvm.get_host_cpu_name()}".encode())
    digest.update(llvm.get_host_cpu_features().flatten().encode())
    return digest.hexdigest()[:24]


def _cache_dirs() -> list[Path]:
    """Where the kernel's object may be kept, first choice first: NUMBA_CACHE_DIR, __pycache__ here, the user's cache.

    Never a shared temporary folder: whoever can write the object there chooses the code this process runs.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return [Path(os.environ["NUMBA_CACHE_DIR"]) / "cpmodels"]
    found = [Path(__file__).parent / "__pycache__"]
    try:
        found.append(Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cpmodels")
    except RuntimeError:  # no home folder
        pass
    return found


def _load_or_build() -> tuple[Search, Any]:
    """The kernel from its cached object code if one is found, else compiled with numba (and its object saved)."""
    key = _kernel_key()
    name = f"backtrack_kernel.{key}.o"
    for folder in _cache_dirs():
        try:
            data = (folder / name).read_bytes()
        except OSError:
            continue
        if data.startswith(_OBJECT_MAGIC):
            stored, _, cached = data[len(_OBJECT_MAGIC) :].partition(b"\n")
            return _from_object(cached, stored.decode())
    code, symbol, compiled = _build()
    for folder in _cache_dirs():
        if _save(folder / name, _OBJECT_MAGIC + symbol.encode() + b"\n" + code):
            break
    try:
        return _from_object(code, symbol)
    except Exception:  # noqa: BLE001 - llvmlite could not load it: numba's own copy serves this process
        return ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p)(compiled.address), compiled


def _build() -> tuple[bytes, str, Any]:
    """Compile the kernel with numba: its object code, its symbol, and the numba cfunc itself.

    numba wraps the kernel in a C function that reports exceptions through Python (which a process
    without numba could not link); the object keeps the kernel alone, under a wrapper of ours that
    returns -1 if it ever reported one (it raises none).
    """
    from . import backtrack_kernel

    compiled = backtrack_kernel.compile_search()
    library = compiled._library
    inner = compiled.native_name.removeprefix("cfunc.")
    kept_lines: list[str] = []
    skipping = False
    for line in str(library._final_module).splitlines():
        if line.startswith(f"define i64 @{compiled.native_name}(") or line.startswith(
            f'define i64 @"{compiled.native_name}"('
        ):
            skipping = True
        elif skipping:
            skipping = line != "}"
        elif not (line.startswith("declare") and "@llvm." not in line) and " = external global " not in line:
            kept_lines.append(line)
    kept_lines += [
        f"define i64 @{NATIVE_SYMBOL}(ptr %args) {{",
        "entry:",
        "  %ret = alloca i64, align 8",
        "  store i64 -1, ptr %ret, align 8",
        "  %exc = alloca ptr, align 8",
        "  store ptr null, ptr %exc, align 8",
        f'  %status = call i32 @"{inner}"(ptr %ret, ptr %exc, ptr %args)',
        "  %value = load i64, ptr %ret, align 8",
        "  %ok = icmp eq i32 %status, 0",
        "  %result = select i1 %ok, i64 %value, i64 -1",
        "  ret i64 %result",
        "}",
    ]
    import llvmlite.binding as llvm

    module = llvm.parse_assembly("\n".join(kept_lines))
    module.verify()
    return bytes(library._codegen._tm.emit_object(module)), NATIVE_SYMBOL, compiled


def _save(path: Path, data: bytes) -> bool:
    """Write `data` to `path` atomically; False if the folder is not writable."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError:
        return False
    return True


def _from_object(code: bytes, symbol: str) -> tuple[Search, Any]:
    """The C function `symbol` of object code `code`, linked by llvmlite's MCJIT in this process."""
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    machine = llvm.Target.from_default_triple().create_target_machine()
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), machine)
    engine.add_object_file(llvm.ObjectFileRef.from_data(code))
    engine.finalize_object()
    address = engine.get_function_address(symbol)
    if not address:
        raise RuntimeError(f"the backtrack kernel's object has no {symbol}")
    return ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p)(address), engine


def warm_up() -> float:
    """Load (or compile) the kernel and solve a tiny caged puzzle; returns the seconds it took."""
    start = time.perf_counter()
    tiny = GridPuzzle(2, ((0, 1), (2, 3), (0, 2), (1, 3)), (0, 0, 0, 0), (Cage(((0, 0), (0, 1)), "+", 3),))
    BacktrackBackend().solve(tiny, limit=2)
    return time.perf_counter() - start


# ---- compiling a shape ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CompiledPuzzle:
    """A puzzle shape as the kernel sees it: the structure array (header S_*) and the cage tuple bits."""

    n: int
    st: np.ndarray  # int64
    tuple_bits: np.ndarray  # uint64, one bit per cage cell per allowed tuple
    nunits: int
    ncages: int
    ninters: int
    largest_cage: int
    nparts: int

    def part(self, name: str) -> np.ndarray:
        """The named structure array (STRUCTURE), a view of `st`."""
        k = STRUCTURE.index(name)
        return self.st[self.st[S_ARRAYS + k] : self.st[S_ARRAYS + k + 1]]


def compile_puzzle(puzzle: GridPuzzle) -> CompiledPuzzle:
    """The structure the kernel searches for the puzzle's shape: units and peers, cages and their tuples.

    Candidate hints (puzzle.domains) are part of the shape, compiled afresh for each puzzle that has
    them: a hinted cell's cage keeps only the tuples its hints allow, and a hinted cell outside every
    cage becomes a one-cell cage whose tuples are its allowed values.
    """
    if puzzle.domains:
        return _compile_shape(puzzle.n, puzzle.units, puzzle.cages, puzzle.domains)
    return _shape(puzzle.n, puzzle.units, puzzle.cages)


_SHAPES: dict[tuple, tuple] = {}
_CAGED: dict[tuple, tuple] = {}
"""Compiled shapes without cages by content (n, units); with cages by (n, id(units), id(cages)), each kept
with its units and cages so that the ids stay theirs (hashing a Mathdoku's cages would cost more than
compiling them). The oldest is dropped past MAX_SHAPES (MAX_CAGED_SHAPES for shapes with cages)."""
MAX_SHAPES = 64
MAX_CAGED_SHAPES = 1024
_LAST_SHAPE = threading.local()
"""Per thread, the last shape found with its key: a run of same-shaped puzzles compares, never hashes."""


def _shape(n: int, units: tuple, cages: tuple) -> CompiledPuzzle:
    """The compiled shape of these units and cages: the last one if equal (identity first), else from _SHAPES."""
    last = getattr(_LAST_SHAPE, "entry", None)
    if last is not None:
        if last[1] is units and last[2] is cages and last[0] == n:
            return last[3]
        if last[0] == n and last[1] == units and last[2] == cages:
            _LAST_SHAPE.entry = (n, units, cages, last[3])
            return last[3]
    key: tuple = (n, id(units), id(cages)) if cages else (n, units)
    hit = (_CAGED if cages else _SHAPES).get(key)
    if hit is not None and (not cages or (hit[0] is units and hit[1] is cages)):
        shape = hit[2]
    else:
        shape = _compile_shape(n, units, cages)
        kept = _CAGED if cages else _SHAPES
        if len(kept) >= (MAX_CAGED_SHAPES if cages else MAX_SHAPES):
            del kept[next(iter(kept))]
        kept[key] = (units, cages, shape)
    _LAST_SHAPE.entry = (n, units, cages, shape)
    return shape


def _compile_shape(n: int, units: tuple, cages: tuple, domains: tuple[int, ...] = ()) -> CompiledPuzzle:
    """Build the structure array: header, then the unit, cage and intersection arrays in STRUCTURE order."""
    if n > 64:
        raise PuzzleError(f"the backtrack kernel holds orders up to 64, not {n}")
    cage_arrays = _cage_arrays(n, cages, domains)
    ncages = len(cage_arrays[1]) - 1  # the cages, and the one-cell cages of hinted cells
    unit_part = _unit_arrays(n, units)
    inter_part = _intersection_arrays(n, units)
    arrays = (*unit_part, *cage_arrays[:-1], *inter_part, _cell_unit_bits(n, units))
    header = np.zeros(S_ARRAYS + len(arrays) + 1, np.int64)
    header[S_N : S_INTERS + 1] = (n, n * n, len(units), ncages, len(inter_part[0]) - 1)
    header[S_ARRAYS:] = len(header) + np.concatenate(([0], np.cumsum([len(a) for a in arrays])))
    st = np.concatenate((header, *arrays)).astype(np.int64)
    largest = max((len(cage.cells) for cage in cages), default=1 if ncages else 0)
    nparts = len(inter_part[-3])
    return CompiledPuzzle(n, st, cage_arrays[-1], len(units), ncages, len(inter_part[0]) - 1, largest, nparts)


def _cell_unit_bits(n: int, units: tuple) -> np.ndarray:
    """Per cell, the bits of the units holding it (int64), if the shape has at most SMALL_UNITS units; else zeros."""
    bits = np.zeros(n * n, np.int64)
    if len(units) <= SMALL_UNITS:
        for u, unit in enumerate(units):
            bits[list(unit)] |= 1 << u
    return bits


def given_masks(givens: np.ndarray, n: int) -> np.ndarray:
    """Candidate masks for givens 0..n of any shape: every value 1..n where 0, else the given's bit alone."""
    return _mask_table(n)[givens]


@lru_cache(maxsize=64)
def _mask_table(n: int) -> np.ndarray:
    """The candidate mask of each given 0..n: the full mask for 0, bit v-1 for v."""
    return np.array([(1 << n) - 1] + [1 << (v - 1) for v in range(1, n + 1)], np.uint64)


def _flat(groups: list[list[int]] | tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, np.ndarray]:
    """Groups of ints as (offsets, flat values): group k is values[offsets[k]:offsets[k + 1]]."""
    offsets = np.fromiter(itertools.accumulate((len(g) for g in groups), initial=0), np.int64, count=len(groups) + 1)
    values = np.fromiter(itertools.chain.from_iterable(groups), np.int64, count=int(offsets[-1]))
    return offsets, values


@lru_cache(maxsize=16)
def _unit_arrays(n: int, units: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, ...]:
    """unit_start, unit_cells, peer_start, peers, cell_unit_start, cell_units for these units (remembered)."""
    cell_units: list[list[int]] = [[] for _ in range(n * n)]
    for u, unit in enumerate(units):
        for cell in unit:
            cell_units[cell].append(u)
    peers = [sorted({p for u in cell_units[cell] for p in units[u]} - {cell}) for cell in range(n * n)]
    return (*_flat(units), *_flat(peers), *_flat(cell_units))


@lru_cache(maxsize=16)
def _intersection_arrays(n: int, units: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, ...]:
    """The intersection and part arrays of STRUCTURE, from inter_start on, for these units (remembered).

    An intersection is two units sharing 2+ cells where a full unit (n cells) could lock a value
    inside it and so remove it from cells of the other unit: the locked candidates rule. Each unit's
    intersections are put in groups of disjoint ones (a box's row segments, its column segments);
    in a group every cell of the unit belongs to one part, an intersection or the rest, so that one
    scan of the unit finds the values confined to one part.
    """
    sets = [frozenset(unit) for unit in units]
    cell_units: list[list[int]] = [[] for _ in range(n * n)]
    for u, unit in enumerate(units):
        for cell in unit:
            cell_units[cell].append(u)
    pairs = sorted({(a, b) for us in cell_units for a in us for b in us if a < b})
    inters: list[list[int]] = []
    pair_units: list[tuple[int, int]] = []
    rests: list[list[int]] = []
    unit_inters: list[list[tuple[int, int]]] = [[] for _ in units]  # (intersection, side of the unit in it)
    for a, b in pairs:
        shared = sets[a] & sets[b]
        rest_a = [c for c in units[a] if c not in shared]
        rest_b = [c for c in units[b] if c not in shared]
        useful = (len(units[a]) == n and rest_b) or (len(units[b]) == n and rest_a)
        if len(shared) < 2 or not useful:
            continue
        unit_inters[a].append((len(inters), 0))
        unit_inters[b].append((len(inters), 1))
        inters.append(sorted(shared))
        pair_units.append((a, b))
        rests += [rest_a, rest_b]
    unit_group_start = [0]
    group_part_start = [0]
    part_inter: list[int] = []
    part_side: list[int] = []
    part_cells: list[list[int]] = []
    for u, unit in enumerate(units):
        groups: list[list[tuple[int, int]]] = []
        if len(unit) == n:  # only a full unit locks a value inside one of its parts
            for x, side in unit_inters[u]:
                for group in groups:
                    if all(not set(inters[x]) & set(inters[y]) for y, _ in group):
                        group.append((x, side))
                        break
                else:
                    groups.append([(x, side)])
        for group in groups:
            covered = {cell for x, _ in group for cell in inters[x]}
            rest = [cell for cell in unit if cell not in covered]
            part_inter += [x for x, _ in group] + ([-1] if rest else [])
            part_side += [side for _, side in group] + ([0] if rest else [])
            part_cells += [inters[x] for x, _ in group] + ([rest] if rest else [])
            group_part_start.append(len(part_inter))
        unit_group_start.append(len(group_part_start) - 1)
    inter_units = np.array(pair_units, np.int64).reshape(-1)
    ints = (unit_group_start, group_part_start, part_inter, part_side)
    return (*_flat(inters), inter_units, *_flat(rests), *(np.array(a, np.int64) for a in ints), *_flat(part_cells))


def _cage_arrays(n: int, cages: tuple[Cage, ...], domains: tuple[int, ...] = ()) -> tuple[np.ndarray, ...]:
    """cell_cage, cage_start, cage_cells, tuple_start (int64) and tuple_bits (uint64) for these cages.

    With candidate hints (`domains`), each cage keeps the tuples they allow, and each hinted cell outside
    the cages is a cage of its own whose tuples are its allowed values.
    """
    cell_cage = np.full(n * n, -1, np.int64)
    groups = [[r * n + c for r, c in cage.cells] for cage in cages]
    bits = [_tuple_bits(_clash_pattern(cage.cells), cage.op, cage.target, n) for cage in cages]
    if domains:
        bits = [_hinted(b, cells, domains) for b, cells in zip(bits, groups, strict=True)]
        caged = {i for cells in groups for i in cells}
        full = (1 << n) - 1
        alone = [i for i, mask in enumerate(domains) if mask != full and i not in caged]
        groups += [[i] for i in alone]
        bits += [_value_bits(domains[i], n) for i in alone]
    for g, cells in enumerate(groups):
        cell_cage[cells] = g
    cage_start, cage_cells = _flat(groups)
    tuple_start = np.zeros(len(bits) + 1, np.int64)
    tuple_start[1:] = np.cumsum([b.size for b in bits])
    tuple_bits = np.concatenate(bits) if bits else np.zeros(1, np.uint64)
    if not tuple_bits.size:  # every cage's tuples forbidden by hints: still an array with an address
        tuple_bits = np.zeros(1, np.uint64)
    return cell_cage, cage_start, cage_cells, tuple_start, tuple_bits


def _hinted(bits: np.ndarray, cells: list[int], domains: tuple[int, ...]) -> np.ndarray:
    """A cage's tuple bits (tuples x cells, flattened) without the tuples its cells' candidate hints forbid."""
    table = bits.reshape(-1, len(cells))
    allowed = np.array([domains[i] for i in cells], np.uint64)
    return table[((table & allowed) != 0).all(axis=1)].ravel()


def _value_bits(mask: int, n: int) -> np.ndarray:
    """The one-cell tuples of the values in a candidate mask, as tuple bits."""
    return np.array([1 << v for v in range(n) if mask >> v & 1], np.uint64)


def _clash_pattern(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The cells relabelled by first appearance of their row and column: equal patterns allow equal tuples."""
    rows: dict[int, int] = {}
    cols: dict[int, int] = {}
    return tuple((rows.setdefault(r, len(rows)), cols.setdefault(c, len(cols))) for r, c in cells)


@lru_cache(maxsize=4096)
def _tuple_table(cells: tuple[tuple[int, int], ...], op: str | None, target: int, n: int) -> np.ndarray:
    """The cage's allowed tuples as a 2-D int array, one row per tuple (remembered per clash pattern)."""
    tuples = cage_rules.allowed_tuples(cells, op, target, n)
    return np.array(tuples, np.int64).reshape(len(tuples), len(cells))


@lru_cache(maxsize=4096)
def _tuple_bits(cells: tuple[tuple[int, int], ...], op: str | None, target: int, n: int) -> np.ndarray:
    """The allowed tuples flattened row by row, each value v as the mask bit v-1 (remembered)."""
    table = _tuple_table(cells, op, target, n)
    return np.left_shift(np.uint64(1), (table.ravel() - 1).astype(np.uint64))


def _too_many_tuples(cage: Cage, n: int) -> bool:
    """Whether the cage allows more than MAX_CAGE_TUPLES tuples (counting stops just past the limit)."""
    if n ** len(cage.cells) <= MAX_CAGE_TUPLES:  # n**k bounds the tuples of any k-cell cage
        return False
    found = cage_rules.iter_allowed_tuples(_clash_pattern(cage.cells), cage.op, cage.target, n)
    return sum(1 for _ in islice(found, MAX_CAGE_TUPLES + 1)) > MAX_CAGE_TUPLES


# ---- workspaces -----------------------------------------------------------------------------------


class Workspace:
    """The arrays one thread searches a shape with, and the argument block that addresses them.

    Sized by the shape's order and unit counts, whatever its cages (any shape with the same sizes_of can
    use it: `aim` points it at one)
    and by `rows`, the solution buffer's height. For a one-puzzle search it holds its own givens row
    and results row; a batch points it at slices of the caller's arrays instead (`point`).
    """

    def __init__(self, shape: CompiledPuzzle, rows: int) -> None:
        ncells, n = shape.n * shape.n, shape.n
        trail = ncells * n + 1  # along one path every trail entry removes at least one candidate
        ws_sizes = (
            ncells + 1,
            ncells + 1,
            trail,
            ncells + 1,
            shape.nunits + 1,  # dirty_units: one more, written past the end without a branch
            shape.nunits,
            ncells,
            ncells,
            rows,
            min(ncells, 255) + 1,
            2 * shape.ninters + 1,
            ncells,  # changed: a cell's peers
        )  # fmt: skip  (a shape has at most ncells cages, of at most ncells cells)
        wm_sizes = (ncells, trail, ncells + 1, ncells, max(shape.nparts, 1), 2 * shape.ninters + 1)
        self.sizes = sizes_of(shape, rows)
        ws_offsets = W_REGIONS + len(WS_REGIONS) + len(WM_REGIONS) + np.cumsum((0, *ws_sizes))
        wm_offsets = np.cumsum((0, *wm_sizes))
        self.ws = np.zeros(int(ws_offsets[-1]), np.int64)
        self.ws[W_REGIONS : ws_offsets[0]] = (*ws_offsets[:-1], *wm_offsets[:-1])
        self.wm = np.zeros(int(wm_offsets[-1]), np.uint64)
        self.buffer = np.zeros((max(1, rows), ncells), np.uint8)
        self.buffer_bytes = self.buffer.data.cast("B")  # flat: the kernel's rows of solutions, read without numpy
        self.grid = _grid_struct(ncells)
        self.buffer_puzzle = self.ws[self.ws[W_REGIONS + WS_REGIONS.index("buffer_puzzle")] :][:rows]
        self.givens = np.zeros((1, ncells), np.uint8)
        self.givens_bytes = self.givens.data.cast("B")
        self.results = np.zeros((1, R_COLUMNS), np.int64)
        self.args = np.zeros(ARGS_SIZE, np.int64)
        self.args[[A_WS, A_WM, A_BUFFER]] = (self.ws.ctypes.data, self.wm.ctypes.data, self.buffer.ctypes.data)
        self.args[A_ROWS] = max(1, rows)
        self.address = self.args.ctypes.data
        self.own = (self.givens.ctypes.data, self.results.ctypes.data)
        # Item access through memoryviews costs a fraction of numpy's for single ints.
        self.a = self.args.data.cast("B").cast("q")
        self.w = self.ws.data.cast("B").cast("q")
        self.r = self.results.data.cast("B").cast("q")
        self.shape: CompiledPuzzle | None = None
        self.chunk = 16  # nodes of the first kernel call: enough for a hard puzzle of the shape (aim sets it)

    def aim(self, shape: CompiledPuzzle) -> None:
        """Search `shape` (of the counts this workspace was sized for) from its first puzzle on."""
        if shape is not self.shape:
            self.a[A_ST] = shape.st.ctypes.data
            self.a[A_TUPLES] = shape.tuple_bits.ctypes.data
            self.shape = shape
            self.chunk = max(16, (1 << 21) // (shape.n**3))
        self.w[:W_REGIONS] = _ZERO_STATE

    def point(self, givens: np.ndarray, results: np.ndarray) -> None:
        """Search the rows of `givens` (uint8, C-contiguous), reporting into the rows of `results` (int64)."""
        self.a[A_GIVENS] = givens.ctypes.data
        self.a[A_PUZZLES] = givens.shape[0]
        self.a[A_RESULTS] = results.ctypes.data
        self.w[:W_REGIONS] = _ZERO_STATE


def sizes_of(shape: CompiledPuzzle, rows: int) -> tuple[int, ...]:
    """What a workspace's size depends on."""
    return (shape.n, shape.nunits, shape.nparts, shape.ninters, rows)


_ZERO_RESULTS = np.zeros(R_COLUMNS, np.int64).data.cast("B").cast("q")
_ZERO_STATE = np.zeros(W_REGIONS, np.int64).data.cast("B").cast("q")
_WORK = threading.local()
"""Per thread, the workspace of the last one-puzzle search: solve() reuses it for the next of the same sizes."""


def _one_puzzle_workspace(shape: CompiledPuzzle) -> Workspace:
    """This thread's workspace for one puzzle of `shape`, with its own givens and results rows, its state zeroed."""
    work = getattr(_WORK, "work", None)
    if work is None or (work.shape is not shape and work.sizes != sizes_of(shape, BUFFER_ROWS)):
        work = Workspace(shape, BUFFER_ROWS)
        work.a[A_GIVENS], work.a[A_RESULTS] = work.own
        work.a[A_PUZZLES] = 1
        _WORK.work = work
    work.aim(shape)
    return work


@lru_cache(maxsize=64)
def _grid_struct(ncells: int) -> struct.Struct:
    """The struct of one solution row: `iter_unpack` turns rows of bytes into grid tuples in one C loop."""
    return struct.Struct(f"{ncells}B")


Take = Callable[[memoryview, int, np.ndarray], None]
"""Receives buffered solutions: their bytes (rows of ncells values; a view of the workspace's buffer, valid only
during the call), how many rows, and the workspace's buffer_puzzle (row k's puzzle index is which[k])."""


def _drive(work: Workspace, results: np.ndarray, limit: int, keep: int, deadline: float | None, take: Take) -> None:
    """Run the kernel on the workspace's puzzles until done or past `deadline`, filling `results`.

    Each call gets a node budget (values tried and probes) sized to last about CHUNK_SECONDS (never
    past the deadline) at the rate of the call before, so that the clock is read and Ctrl-C heard
    between calls; the first budget covers a hard 9x9 puzzle in one call. A puzzle cut short by the
    deadline gets its partial counts in `results` and complete 0; the puzzles after it stay zero.
    """
    search = _NATIVE[0][0] if _NATIVE else native_search()
    a, w = work.a, work.w
    ncells = work.buffer.shape[1]
    a[A_LIMIT] = min(limit, MAX_COUNT)
    a[A_KEEP] = min(keep, MAX_COUNT)
    chunk = work.chunk
    a[A_MAX_NODES] = chunk
    while True:
        began = time.perf_counter()
        code = search(work.address)
        buffered = w[BUFFERED]
        if buffered:
            take(work.buffer_bytes[: buffered * ncells], buffered, work.buffer_puzzle)
            w[BUFFERED] = 0
        if code == FINISHED:
            return
        if code < 0:
            raise RuntimeError("the backtrack kernel failed")
        now = time.perf_counter()
        if deadline is not None and now >= deadline:
            p = w[PUZZLE]
            if p < len(results):
                results[p] = (w[COUNT], w[NODES], w[BACKTRACKS], 0, w[PROBES], w[GUESSES])
            return
        if code == PAUSED:
            chunk = _next_chunk(chunk, now - began, None if deadline is None else deadline - now)
            a[A_MAX_NODES] = chunk


def _next_chunk(chunk: int, elapsed: float, left: float | None) -> int:
    """Nodes for the next kernel call: about CHUNK_SECONDS (or the time left) at the last call's rate, at most 4x."""
    target = CHUNK_SECONDS if left is None else min(CHUNK_SECONDS, left)
    wanted = chunk * target / max(elapsed, 1e-6)
    return int(min(max(wanted, 16), 4 * chunk, 1 << 24))


# ---- the backend ----------------------------------------------------------------------------------


class BacktrackBackend:
    """The native backtracking backend; `keep` caps how many solutions are returned as grids (None: all)."""

    name = "backtrack"
    capabilities = Capabilities(cages=True, max_order=64, counting=True, time_limit=True)

    def __init__(self, keep: int | None = None, probe: int = PROBE_CELLS) -> None:
        self.keep = keep
        self.options = options(probe)

    def can_solve(self, puzzle: GridPuzzle) -> str | None:
        """None if the puzzle fits: order at most 64 (a 64-bit mask per cell), no cage above MAX_CAGE_TUPLES tuples."""
        problem = capability_problem(self.capabilities, puzzle)
        if problem or not puzzle.cages or unreachable_cage(puzzle):  # an unreachable target is answered "none"
            return problem
        for k, cage in enumerate(puzzle.cages, start=1):
            if _too_many_tuples(cage, puzzle.n):
                return f"cage {k} ({cage.label()}) allows more than {MAX_CAGE_TUPLES} tuples"
        return None

    def solve(
        self, puzzle: GridPuzzle, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> SolveResult:
        """Up to `limit` solutions by propagation, probing and MRV branching, stopping at `time_limit` seconds.

        The first `keep` are kept (None: all), and never more than the backend's own `keep`.
        """
        timer = SolveTimer()
        if puzzle.cages and unreachable_cage(puzzle):
            return timer.finish(self.name, [], limit, True, {"nodes": 0, "backtracks": 0, "probes": 0, "guesses": 0})
        shape = compile_puzzle(puzzle)
        work = _one_puzzle_workspace(shape)
        work.givens_bytes[:] = givens_bytes(puzzle)
        work.a[A_OPTIONS] = self.options
        timer.built()
        keep = kept(limit, keep) if self.keep is None else min(self.keep, kept(limit, keep))
        work.r[R_COUNT:R_COLUMNS] = _ZERO_RESULTS
        solutions: list[tuple[int, ...]] = []
        unpack = work.grid.iter_unpack

        def take(data: memoryview, rows: int, _: np.ndarray) -> None:
            solutions.extend(unpack(data))

        _drive(work, work.results, limit, keep, timer.deadline(time_limit), take)
        count, nodes, backtracks, complete, probes, guesses = work.r.tolist()
        stats = {"nodes": nodes, "backtracks": backtracks, "probes": probes, "guesses": guesses}
        return timer.finish(self.name, solutions, limit, bool(complete), stats, count)

    def warm_up(self) -> float:
        """Load the kernel (compiling it with numba on first use); returns the seconds it took."""
        return warm_up()


# ---- batches --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BatchResult:
    """Per puzzle of a batch, in input order: solutions counted up to the limit, the first one, statistics."""

    counts: np.ndarray  # int64
    firsts: np.ndarray  # uint8, the first solution found as a row-major grid; zeros if none
    nodes: np.ndarray  # int64
    backtracks: np.ndarray  # int64
    complete: np.ndarray  # bool: the count is exact (for counts below the limit)
    wall_s: float
    probes: np.ndarray | None = None  # int64
    guesses: np.ndarray | None = None  # int64: values tried while another of their cell was left (tdoku's count)

    def statuses(self, limit: int) -> list[str]:
        """Each puzzle's status word for a search up to `limit` solutions, as SolveResult.status says it."""
        return [status_for(int(c), limit, bool(done)) for c, done in zip(self.counts, self.complete, strict=True)]


def solve_many(
    puzzles: Sequence[GridPuzzle],
    *,
    limit: int = 2,
    time_limit: float | None = None,
    jobs: int = 1,
    probe: int = PROBE_CELLS,
) -> BatchResult:
    """Count each puzzle up to `limit`, in one kernel call per block of puzzles, on `jobs` threads.

    The puzzles must share one shape (order, units and cages, as a file of Sudokus does); results
    come in input order and do not depend on `jobs`. Every first solution found is checked, as
    cpmodels.solve checks every grid: all at once by grid.grids_hold, and any it cannot vouch for
    by grid.explain_violation; a wrong one raises RuntimeError.
    Puzzles the time limit (for the whole batch) cuts short, or never reaches, have complete False.
    """
    if not puzzles:
        return solve_givens(_empty_batch_template(), np.zeros((0, 1), np.int64), limit=limit)
    template = puzzles[0]
    for k, puzzle in enumerate(puzzles):
        same = puzzle.n == template.n and puzzle.units == template.units and puzzle.cages == template.cages
        if not same or puzzle.domains != template.domains:
            raise PuzzleError(f"solve_many takes puzzles of one shape: puzzle {k + 1} differs from the first")
    ncells = template.n * template.n
    givens = np.frombuffer(b"".join(bytes(puzzle.givens) for puzzle in puzzles), np.uint8).reshape(-1, ncells)
    result = solve_givens(template, givens, limit=limit, time_limit=time_limit, jobs=jobs, probe=probe)
    found = result.counts > 0
    doubtful = found & ~grids_hold(template, givens, result.firsts)
    for row in np.flatnonzero(doubtful).tolist():  # grids_hold could not vouch for them: read each
        problem = explain_violation(puzzles[row], tuple(result.firsts[row].tobytes()))
        if problem:
            raise RuntimeError(f"backend 'backtrack' returned a wrong solution: {problem}")
    return result


def _empty_batch_template() -> GridPuzzle:
    """A 1x1 grid: the template of an empty batch."""
    return GridPuzzle(1, ((0,),), (0,))


def solve_givens(
    template: GridPuzzle,
    givens: np.ndarray | Sequence[Sequence[int]],
    *,
    limit: int = 2,
    time_limit: float | None = None,
    jobs: int = 1,
    probe: int = PROBE_CELLS,
) -> BatchResult:
    """Count each row of `givens` (0 = empty) with the units and cages of `template`, up to `limit`.

    `jobs` worker threads take blocks of BLOCK puzzles in turn, each block one kernel call (the
    kernel runs without the GIL); the results are in input order and do not depend on `jobs`.
    `probe`: cells probed at each branching point (see PROBE_CELLS). Givens are checked for range
    only (a repeated given has no solution) and solutions are not checked: solve_many does both.
    Puzzles the time limit (for the whole batch) cuts short, or never reaches, have complete False.
    """
    start = time.perf_counter()
    seconds = time_limit_or_none(time_limit)
    deadline = None if seconds is None else start + seconds
    n = template.n
    rows = np.asarray(givens).reshape(-1, n * n)
    if rows.size and (rows.min() < 0 or rows.max() > n):
        raise PuzzleError(f"givens of an order-{n} batch must lie in 0..{n}")
    if template.cages and unreachable_cage(template):
        empty = np.zeros(len(rows), np.int64)
        zeros = np.zeros(rows.shape, np.uint8)
        return BatchResult(
            empty, zeros, empty, empty, np.ones(len(rows), bool), time.perf_counter() - start, empty, empty
        )
    shape = compile_puzzle(template)
    puzzles = np.ascontiguousarray(rows, np.uint8)
    results = np.zeros((len(rows), R_COLUMNS), np.int64)
    firsts = np.zeros(puzzles.shape, np.uint8)
    chosen = options(probe)
    blocks = itertools.count()  # next() is atomic under the GIL: each block goes to one worker
    native_search()

    def worker() -> None:
        work = Workspace(shape, BLOCK)
        work.args[A_OPTIONS] = chosen
        work.aim(shape)
        while True:
            lo = next(blocks) * BLOCK
            if lo >= len(puzzles) or (deadline is not None and time.perf_counter() >= deadline):
                return
            hi = min(lo + BLOCK, len(puzzles))
            work.point(puzzles[lo:hi], results[lo:hi])

            def take(data: memoryview, count: int, which: np.ndarray, lo: int = lo) -> None:
                firsts[lo + which[:count]] = np.frombuffer(data, np.uint8).reshape(count, -1)

            _drive(work, results[lo:hi], limit, 1, deadline, take)

    jobs = max(1, min(jobs, -(-len(puzzles) // BLOCK)))
    if jobs == 1:
        worker()
    else:
        with ThreadPoolExecutor(jobs) as pool:
            for done in [pool.submit(worker) for _ in range(jobs)]:
                done.result()
    complete = results[:, R_COMPLETE].astype(bool)
    return BatchResult(
        results[:, R_COUNT], firsts, results[:, R_NODES], results[:, R_BACKTRACKS], complete,
        time.perf_counter() - start, results[:, R_PROBES], results[:, R_GUESSES],
    )  # fmt: skip


def solve_batch(
    template: GridPuzzle,
    givens: np.ndarray,
    *,
    limit: int = 2,
    time_limit: float | None = None,
    threads: int | None = None,
) -> BatchResult:
    """solve_givens with `threads` workers (None: one per CPU), as the benchmarks have called it."""
    return solve_givens(template, givens, limit=limit, time_limit=time_limit, jobs=threads or os.cpu_count() or 1)
