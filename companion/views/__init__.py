"""Views of the IKI companion: thin function views that parse, call the pure core, render."""
