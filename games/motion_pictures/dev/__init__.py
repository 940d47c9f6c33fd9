"""Motion Pictures' development tools: the figures of docs/rules/motion-pictures.md. Not shipped,
and imported by nothing the engine runs."""
