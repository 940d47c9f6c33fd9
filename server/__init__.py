"""The arbiter: hosts authoritative matches for bots connected over gRPC."""
