"""Models of the companion, one module per feature; imported here so Django finds them."""
