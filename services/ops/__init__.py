"""Operating the server: metrics, the observed store, the one-server-per-SQLite-file claim, archiving."""
