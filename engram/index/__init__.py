"""The persisted, incremental index of one scope: the read path's only storage.

What other modules may use is listed in `__all__`: opening and refreshing a scope's index
(`ScopeIndex.open`, `refresh`, `invalidate`, `close`, `discard`), pausing the cyclic collector
while a process holds many decoded rows (`collector_paused`), and its typed reads (postings
for anchors, record heads, full records, restrictions, path globs, stored problems and safety
verdicts) and the one write a read may make: keeping a print-time safety verdict
(`remember_verdict`). Everything else lives in private modules and may change with the schema:

- `_schema`: the SQLite tables, opening the file, damaged files.
- `_encoding`: how a memory is stored (bit-packed per-field counts and lengths, the record as
  JSON, its routing head).
- `_blocks`: posting blocks with their checksums.
- `_build`: parsing and encoding files (in worker processes for many) and the first build,
  made aside and linked into place.
- `_derive`: duplicate-id winners and what a refresh changed.
- `_dedupe`: near-duplicate sketches and groups.
- `_scope`: `ScopeIndex`, which refreshes and reads.
- `_types`: the values the reads return.

tests/test_index_wall.py fails when a module outside this package imports anything else.
"""

from engram.index._build import collector_paused
from engram.index._encoding import field_texts
from engram.index._schema import INDEX_FILE, discard, is_corrupt
from engram.index._scope import Pending, Restrictions, ScopeIndex, check_later
from engram.index._types import (
    FIELDS,
    SCORING_FIELDS,
    Corpus,
    FieldCounts,
    Head,
    PathRule,
    Postings,
    Record,
    Restriction,
)

__all__ = [
    "FIELDS",
    "INDEX_FILE",
    "SCORING_FIELDS",
    "Corpus",
    "FieldCounts",
    "Head",
    "PathRule",
    "Pending",
    "Postings",
    "Record",
    "Restriction",
    "Restrictions",
    "ScopeIndex",
    "check_later",
    "collector_paused",
    "discard",
    "field_texts",
    "is_corrupt",
]
