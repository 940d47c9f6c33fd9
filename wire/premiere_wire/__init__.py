"""Premiere's wire: the protobuf messages and gRPC stubs generated from `proto/premiere/v1`
(`make proto`), and `convert`, the field-by-name codec between those messages and plain values.

Both the arbiter and the bot SDK (`premiere-bot`) stand on this package; neither imports the
other. The `*_pb2*` modules are generated: do not edit them.
"""
