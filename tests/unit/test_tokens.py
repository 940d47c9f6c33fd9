from server.store import hash_token, new_token


def test_tokens_are_distinct_prefixed_and_never_look_like_options() -> None:
    tokens = {new_token() for _ in range(2000)}
    assert len(tokens) == 2000
    assert all(t.startswith("pmb_") and len(t) >= 40 for t in tokens)
    assert len({hash_token(t) for t in tokens}) == 2000
