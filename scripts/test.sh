#!/usr/bin/env bash
# The whole test suite, with its own set-up. Ends with a plain "N passed, N failed" line.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --with-browser || { echo "setup failed"; echo "0 passed, 1 failed"; exit 1; }
[ -d .tools/node_modules/.bin ] && export PATH="$PWD/.tools/node_modules/.bin:$PATH"

status=0
echo "== typecheck"
pnpm turbo run typecheck --output-logs=errors-only || status=1

echo "== tests"
mkdir -p .tmp
rm -f .tmp/vitest.json
pnpm vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest.json || status=1

if [ -f .tmp/vitest.json ]; then
  node -e '
    const r = JSON.parse(require("fs").readFileSync(".tmp/vitest.json", "utf8"));
    const failedFiles = r.testResults.filter((f) => f.status === "failed" && f.assertionResults.every((a) => a.status !== "failed")).length;
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests + failedFiles} failed` + (r.numPendingTests ? `, ${r.numPendingTests} skipped` : ""));'
else
  echo "0 passed, 1 failed"
  status=1
fi
[ "$status" = 0 ] || echo "typecheck or tests failed (see above)"
exit "$status"
