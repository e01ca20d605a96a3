from gemstack_lsp.cli import main

raise SystemExit(main())
