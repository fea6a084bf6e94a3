"""The tracked IKI game's writes and reads (issue 5; issue 22: one shape per feature), keyword-only where they
write, one transaction each:

- :mod:`~companion.services.tracker.games`: ``create_game`` and the reads (a token's game, its seats and last
  changes, the setup's steps, the order of play).
- :mod:`~companion.services.tracker.changes`: ``hold`` (a write's one read) and ``apply_change`` (one change, at
  most once, in one transaction); the op codes and what a set change is made against (``seen_value``).
- :mod:`~companion.services.tracker.ops`: what each change does to the rows (tracks, record, reveal, tick, next,
  undo).
- :mod:`~companion.services.tracker.records`: what the table records of each player (issue 13, item 5; issue 19),
  its fields and reads; :mod:`~companion.services.tracker.record_add` adds an entry (supply, costs, immediate IKI),
  :mod:`~companion.services.tracker.record_removals` takes one out (a removal, a loss);
  :mod:`~companion.services.tracker.record_flags`: what the validator says of it.
- :mod:`~companion.services.tracker.errors`: what a change answers instead of applying.

The rows are in :mod:`companion.models.games`; the pages in :mod:`companion.views.tracker`.
"""
