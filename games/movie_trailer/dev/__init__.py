"""Movie Trailer's development tools: the catalog's source and its generator, and the figures
of docs/rules/movie-trailer.md. Not shipped, and imported by nothing the engine runs."""
