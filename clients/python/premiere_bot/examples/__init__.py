"""Example bots: `random_bot.RandomBot` plays every game; `magic_trick.MagicTrickBot` plays well."""
