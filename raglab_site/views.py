"""The build-time view table: Python's view of every state the ranking panel's sliders reach from
the scenario's defaults, so that the page answers those moves before Python has loaded.

The states: k × umbral × rerank over their whole ranges, everything else as the page starts
(``total`` following umbral, the scenario's grades, the chunking panel at its defaults), each the
exact state lab.js would send to the worker, and each view made by ``raglab_core.compute``. They
differ in little, so the table stores one whole view (``base``) and, for each leaf of it that is
not the same in every state (``paths``), its distinct values and which one each state has. A leaf's
value usually depends on fewer than all three sliders (a precision on k and umbral only): its
column of value numbers runs over only the axes it depends on (``columns``). Where the views'
shapes differ (a list that changes length, a key not always there), the smallest subtree holding
the difference is one leaf. A long text whose values share sentences (the reading of the metrics)
is stored as the numbers of its pieces in ``texts`` (the path's third field is 1), joined back
whole by the lookup: 232 kB for the 468 views (35 kB gzip), where they take 7.7 MB as JSON.

Lookup (lab.js ``viewFromTable``, and :func:`view_at` here): the state's position on each axis
(``axes``: the raw values lab.js holds, as strings), then for each path, its column's entry at
those positions (mixed radix over the column's axes, the first axis most significant), the value
with that number (its pieces joined, for a text kept in pieces), written into a copy of ``base``.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from pathlib import Path

from raglab_core import compute, words
from raglab_core.lab import form

from . import ROOT
from .assets import short_hash, subresource_integrity
from .cache import CACHE, load, store
from .compression import gzip_copy

CORE = ROOT / "raglab_core"
FORMAT = 1
# The sliders the table covers, in the order of its axes.
AXES = ("k", "umbral", "rerank")


def page_state(scenario: dict) -> dict:
    """The state lab.js sends before any change, without the scenario: every control but those that
    follow the others until set (``total``, ``posicion``), as its input's default text."""
    controls = form.table(len(scenario["documents"]))["controls"]
    return {row["name"]: str(scenario["defaults"][row["name"]]) for row in controls if not row["follows"]}


def axes_of(scenario: dict) -> list[list]:
    """``[[name, [raw value, …]], …]``: each covered slider and the values its range holds."""
    rows = {row["name"]: row for row in form.table(len(scenario["documents"]))["controls"]}
    return [[name, [str(v) for v in range(rows[name]["min"], rows[name]["max"] + 1)]] for name in AXES]


def all_views(scenario: dict) -> list[dict]:
    """The view of every state of the table, the last axis varying fastest."""
    state, axes = page_state(scenario), axes_of(scenario)
    return [compute({"scenario": scenario, **state, **dict(zip(AXES, values))})
            for values in itertools.product(*(values for _, values in axes))]


def _leaves(views: list, path: tuple, out: list) -> None:
    """Collect into ``out`` the ``(path, [value per view])`` of every smallest subtree that is not
    the same in all ``views``, descending only where all of them have the same shape there."""
    first = views[0]
    if all(view == first for view in views[1:]):
        return
    if isinstance(first, dict) and all(isinstance(v, dict) and v.keys() == first.keys() for v in views):
        for key in first:
            _leaves([view[key] for view in views], path + (key,), out)
    elif isinstance(first, list) and all(isinstance(v, list) and len(v) == len(first) for v in views):
        for index in range(len(first)):
            _leaves([view[index] for view in views], path + (index,), out)
    else:
        out.append((path, views))


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=False)


def encode(views: list[dict], axes: list[list], state: dict) -> dict:
    """The table: ``{"format", "state", "axes", "base", "paths", "values", "columns"}``; ``columns``
    holds, per distinct column, ``[[axis numbers it runs over], [value numbers]]``, and
    ``paths[i] = [path, column number]``."""
    sizes = [len(values) for _, values in axes]
    leaves: list = []
    _leaves(views, (), leaves)
    paths, values, columns, column_ids, texts = [], [], [], {}, {}
    for path, per_view in leaves:
        distinct, numbers = {}, []
        for value in per_view:
            numbers.append(distinct.setdefault(_identity(value), (len(distinct), value))[0])
        distinct_values = [value for _, value in distinct.values()]
        pieces = _pieces(distinct_values, texts)
        used = [axis for axis in range(len(sizes)) if _depends_on(numbers, sizes, axis)]
        column = [numbers[_flat(point, used, sizes)] for point in itertools.product(*(range(sizes[a]) for a in used))]
        column_key = _canonical([used, column])
        if column_key not in column_ids:
            column_ids[column_key] = len(columns)
            columns.append([used, column])
        paths.append([list(path), column_ids[column_key]] + ([1] if pieces else []))
        values.append(pieces or distinct_values)
    return {"format": FORMAT, "state": state, "axes": axes, "base": views[0], "paths": paths, "values": values,
            "columns": columns, "texts": list(texts)}


def _pieces(distinct: list, texts: dict) -> list | None:
    """Long texts that share sentences (a reading: one sentence per metric, each depending on fewer
    sliders than the whole): each as the numbers of its pieces in ``texts``, split after a sentence's
    end, when that is smaller than the texts themselves; else None. Joined, the pieces give the
    text back exactly."""
    if len(distinct) < 8 or not all(isinstance(text, str) for text in distinct):
        return None
    split = [[piece for piece in re.split(r"(?<=[.:;] )", text) if piece] for text in distinct]
    new = {piece for pieces in split for piece in pieces if piece not in texts}
    cost = sum(len(piece) + 3 for piece in new) + sum(4 * len(pieces) for pieces in split)
    if cost >= sum(len(text) for text in distinct):
        return None
    for pieces in split:
        for piece in pieces:
            texts.setdefault(piece, len(texts))
    return [[texts[piece] for piece in pieces] for pieces in split]


def _identity(value):
    """A key equal for equal JSON values only (``1``, ``1.0`` and ``True`` apart, as JSON keeps them)."""
    if isinstance(value, float):
        return float, repr(value)
    if value is None or isinstance(value, (str, int)):
        return type(value), value
    return _canonical(value)


def _depends_on(numbers: list[int], sizes: list[int], axis: int) -> bool:
    """Does the value (``numbers``: one per state, the last axis varying fastest) change along ``axis``?"""
    stride = 1
    for size in sizes[axis + 1:]:
        stride *= size
    size = sizes[axis]
    return any(numbers[i] != numbers[i - (i // stride % size) * stride] for i in range(len(numbers)) if i // stride % size)


def _flat(point_on_used: tuple, used: list[int], sizes: list[int]) -> int:
    """The index, in the full product, of the point with ``point_on_used`` on ``used`` and 0 elsewhere."""
    full = [0] * len(sizes)
    for axis, position in zip(used, point_on_used):
        full[axis] = position
    index = 0
    for axis, size in enumerate(sizes):
        index = index * size + full[axis]
    return index


def view_at(table: dict, positions: list[int]) -> dict:
    """The view of the state at ``positions`` (one per axis), rebuilt from ``table`` as lab.js does."""
    view = json.loads(json.dumps(table["base"]))
    for (path, column_number, *joined), values in zip(table["paths"], table["values"]):
        used, column = table["columns"][column_number]
        index = 0
        for axis in used:
            index = index * len(table["axes"][axis][1]) + positions[axis]
        value = values[column[index]]
        if joined:
            value = "".join(table["texts"][piece] for piece in value)
        node = view
        for key in path[:-1]:
            node = node[key]
        if path:
            node[path[-1]] = value
        else:
            view = value
    return view


def view_table_assets(scenario: dict) -> tuple[dict[str, bytes], dict]:
    """The table's file for dist/, ``{path: bytes}``, and the page configuration's ``views`` entry:
    its URL, its integrity (boot.js fetches it with it, as SRI) and the status line while it is
    the only thing answering.

    The file is the table gzip-compressed, whatever the host sends: boot.js decodes it
    (DecompressionStream), so that a host that does not compress sends 35 kB, not 232
    (docs/performance.md, «The runtime's wasm, decoded by the page»). Gzip inside, but named
    ``.bin``, as the snapshot is: no host labels it Content-Encoding and decodes it on the way.
    """
    data = table_bytes(scenario)
    path = f"assets/views.{short_hash(data)}.bin"
    gzipped = gzip_copy(data)
    return {path: gzipped}, {"url": path, "integrity": subresource_integrity(gzipped), "loading": words.TABLE_ANSWERS}


def cache_key(scenario: dict, core: Path = CORE) -> str:
    """The table's cache key: a hash of the scenario, of every module of raglab_core (its subpackages'
    too, each named by its path inside the package) and of this file."""
    key = hashlib.sha256(_canonical(scenario).encode())
    for path in sorted(core.rglob("*.py")):
        key.update(path.relative_to(core).as_posix().encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    key.update(b"views.py\0" + hashlib.sha256(Path(__file__).read_bytes()).digest())
    return key.hexdigest()[:24]


def table_bytes(scenario: dict) -> bytes:
    """The table as the page downloads it (compact JSON), cached (raglab_site/cache.py) by the hash
    of its inputs: the scenario, raglab_core's sources and this file. (That every state's view, rebuilt
    from it, is compute()'s is tests/test_views.py's check: here it would double the time.)"""
    cached = CACHE / "views" / f"{cache_key(scenario)}.json"
    hit = load(cached)
    if hit is not None:
        return hit
    table = encode(all_views(scenario), axes_of(scenario), page_state(scenario))
    data = json.dumps(table, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")
    store(cached, data)
    return data
