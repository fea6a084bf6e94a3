"""PDFs drawn with reportlab: score pads (blank and filled) and setup sheets."""
