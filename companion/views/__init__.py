"""Views of the IKI companion: thin function views that parse, call a service or the pure core, render."""
