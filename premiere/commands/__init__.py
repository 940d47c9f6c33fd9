"""The `premiere` command's subcommands, one module per noun (`premiere.cli` gathers them)."""
