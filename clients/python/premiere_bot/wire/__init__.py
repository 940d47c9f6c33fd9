"""Generated from proto/premiere/v1 by `make proto`. Do not edit."""
