"""The end-game scoring walk-through (issue 4, rebuilt in issue 12): one step per score-pad line, one player at a
time on a phone, every entry checked by the rules core (:mod:`scoring`).

``entries`` names every entry (:class:`~companion.scorepad.entries.EntryKey`) and parses a step's form;
``services`` writes; ``presenter`` says what a step shows; ``reply`` picks the pieces a tap sends back;
``views`` parse, call, render. The markup is in ``templates/scorepad_*.html``.
"""
