"""The CLI subcommands, one module each: add_arguments(parser) and run(args) -> exit code."""
