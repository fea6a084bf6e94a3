"""The live-table engine (issue 21, docs/sync.md): phones push writes, the server pokes, phones pull pieces.

- :mod:`companion.live.engine`: a write applied at most once (:func:`~companion.live.engine.once`), the poke sent
  in the write's transaction, and the pieces a write or a pull answers with (``{% piece %}``, only those whose data
  changed).
- :mod:`companion.live.stream`: the Server-Sent Events stream of one shared thing (an async view), fed by
  PostgreSQL ``LISTEN``/``NOTIFY`` or, on SQLite, by one version check per process for every open stream.
- :mod:`companion.live.pokes`: what the two share: the PostgreSQL channel, and this process's hubs of open
  streams, which a write on SQLite wakes at its commit.
- :mod:`companion.live.kinds`: the shared things (a score sheet, an Osaka game, a tracked game, a setup's ticks):
  how a token finds one and how its version is read.
"""
