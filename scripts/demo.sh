#!/usr/bin/env bash
# The main job on the embedded default: the simulated-endpoint demo, with its own set-up.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec node apps/cli/dist/cli.js demo "$@"
