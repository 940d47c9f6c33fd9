"""League workers: the Celery app, its tasks and the pairing formats they schedule with.

The pairing formats live in `workers.formats` and are pure functions; everything that touches
Postgres, Redis or the arbiter lives beside them and only calls into them.
"""
