"""Pure analysis: no pygls, no lsprotocol, no I/O of its own (files come through a Reader)."""
