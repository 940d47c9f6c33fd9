"""Premiere's application shell: the `premiere` command and what it runs."""
