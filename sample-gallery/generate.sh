#!/usr/bin/env bash
# Regenerates the sample photos beside this script (landscapes/, travel/, night/, and other-formats/:
# PNG, WebP, HEIC, AVIF, GIF, upper-case extensions).
# The output is deterministic: running it again rewrites the same bytes.
# Builds in its own scratch folder so it never waits on, or disturbs, a normal `swift build`.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/.."
swift run -c release --scratch-path .build-samples photogrid-samples "$here"
