"""Services (keyword-only, typed, one transaction each) and selectors of the companion's features."""
