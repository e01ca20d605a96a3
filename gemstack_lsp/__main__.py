from gemstack_lsp.cli import run

run()
