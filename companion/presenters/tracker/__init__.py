"""What a tracked IKI game's pages show: :mod:`.state` (the state partial, the page around it, its pieces) and
:mod:`.record_picker` (the record section)."""
