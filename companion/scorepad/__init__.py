"""The end-game scoring walk-through (issue 4, rebuilt in issue 12): one step per score-pad line, one player at a
time on a phone, every entry checked by the rules core (:mod:`scoring`).

In the order a tap runs through it: ``entries`` names every entry (:class:`~companion.scorepad.entries.EntryKey`)
and parses a step's form; ``services`` writes (what a tap writes: ``record_entries``); ``presenter`` says what a
step shows (``StepView``, with ``steps``, ``problems``, ``offers`` and ``player_entries``); ``reply`` picks the
pieces a tap sends back (``pieces_for``); ``views`` parse, call, render. The markup is in
``templates/scorepad_*.html``.
"""
