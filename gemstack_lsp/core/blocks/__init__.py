"""One parser module per Gemstack fenced-block kind."""
