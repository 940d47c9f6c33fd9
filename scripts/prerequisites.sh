#!/usr/bin/env bash
# What `make test` needs from the system besides Python: Node.js with npm (the Node bot's test),
# Chromium (the dashboard test), Prometheus with promtool (the scrape and config tests), and Go
# with protoc and Debian's Go gRPC and protobuf sources (the Go bot's test builds clients/go),
# and kubectl (the Kubernetes manifests are rendered with `kubectl kustomize`; Debian's package
# is kubernetes-client), and bubblewrap (hosted bots run in it; the hostile-bundle suite).
# Missing ones are installed with apt-get when we are root, or may sudo without a password;
# otherwise this names what to install and fails, before any test runs.
set -euo pipefail

missing=()
command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)
[ -x "${PREMIERE_CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
command -v prometheus >/dev/null && command -v promtool >/dev/null || missing+=(prometheus)
command -v go >/dev/null || missing+=(golang-go)
command -v protoc >/dev/null || missing+=(protobuf-compiler)
command -v kubectl >/dev/null || missing+=(kubernetes-client)
command -v bwrap >/dev/null || missing+=(bubblewrap)
command -v protoc-gen-go >/dev/null || missing+=(protoc-gen-go)
command -v protoc-gen-go-grpc >/dev/null || missing+=(protoc-gen-go-grpc)
# The Go sources clients/go/build.sh compiles against (GOPATH mode, nothing downloaded); gRPC's
# protobuf codec must be golang/protobuf 1.5 (1.3 cannot marshal protoc-gen-go's messages).
for package in golang-google-grpc-dev golang-google-protobuf-dev golang-github-golang-protobuf-1-5-dev; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
else
    as_root=(none)
fi

if [ "${as_root[0]:-}" = none ] || ! command -v apt-get >/dev/null; then
    echo "make test needs: ${missing[*]} (Debian/Ubuntu package names)." >&2
    echo "Install them with your package manager, e.g. 'sudo apt-get install ${missing[*]}'," >&2
    echo "or point PREMIERE_CHROMIUM at a Chromium binary; then run make test again." >&2
    exit 1
fi

echo "installing ${missing[*]} with apt-get (once) ..."
log=$(mktemp)
export DEBIAN_FRONTEND=noninteractive
if ! { "${as_root[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq \
       && "${as_root[@]}" apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${missing[@]}"; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "apt-get could not install ${missing[*]}; install them by hand and rerun make test." >&2
    exit 1
fi
rm -f "$log"
