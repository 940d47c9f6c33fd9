#!/usr/bin/env bash
# Build the Go bot from the protocol's .proto files with Debian's Go toolchain and gRPC:
#   clients/go/build.sh [OUT]        # OUT defaults to clients/go/build; the binary is OUT/premiere-bot-go
# Needs: golang-go golang-google-grpc-dev golang-google-protobuf-dev protobuf-compiler
#        protoc-gen-go protoc-gen-go-grpc (scripts/prerequisites.sh installs them for make test).
# It builds in GOPATH mode against Debian's Go sources (/usr/share/gocode), so it downloads nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
protos=${PREMIERE_PROTO:-$here/../../proto}
out=$(mkdir -p "${1:-$here/build}" && cd "${1:-$here/build}" && pwd)

mkdir -p "$out/src/premiere/v1" "$out/src/premierebot"
mapping=""
for proto in "$protos"/premiere/v1/*.proto; do
    mapping="$mapping,Mpremiere/v1/$(basename "$proto")=premiere/v1"
done
protoc -I "$protos" \
    --go_out="$out/src" --go_opt="paths=import${mapping}" \
    --go-grpc_out="$out/src" --go-grpc_opt="paths=import${mapping}" \
    "$protos"/premiere/v1/*.proto
cp "$here"/*.go "$out/src/premierebot/"
cd "$out/src/premierebot"
# A static binary (no cgo), so it runs as a hosted bot in a sandbox with nothing but itself.
CGO_ENABLED=${CGO_ENABLED:-0} GO111MODULE=off GOPATH="$out:/usr/share/gocode" GOFLAGS= go build -o "$out/premiere-bot-go" .
echo "$out/premiere-bot-go"
