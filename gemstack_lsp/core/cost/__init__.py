"""Cost and provider safety (Upgrade C): ledger, registry, gates, static checks."""
