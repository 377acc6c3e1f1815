#!/usr/bin/env bash
# The whole test suite, with its own set-up. Its last line is a plain "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --with-browser || { echo "setup failed (install or build): see above"; echo "0 passed, 1 failed"; exit 1; }
[ -d .tools/node_modules/.bin ] && export PATH="$PWD/.tools/node_modules/.bin:$PATH"

typecheck_failed=0
echo "== typecheck"
pnpm turbo run typecheck --output-logs=errors-only || typecheck_failed=1

echo "== tests"
mkdir -p .tmp
rm -f .tmp/vitest.json
tests_status=0
pnpm vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest.json || tests_status=1

echo "== pack and install (scripts/pack-test.mjs)"
rm -f .tmp/pack-test.json
pack_status=0
node scripts/pack-test.mjs --json .tmp/pack-test.json || pack_status=1

if [ ! -f .tmp/vitest.json ]; then
  echo "the test runner wrote no report"
  echo "0 passed, $((1 + typecheck_failed)) failed"
  exit 1
fi
# Counts: failed tests, plus test files that failed without a failing test (an import error), plus 1 for a
# failed typecheck, plus the pack test's checks (1 failed when it wrote no report). Skips are printed on their own line so the last line stays exactly "N passed, N failed".
summary=$(TYPECHECK_FAILED="$typecheck_failed" node -e '
  const r = JSON.parse(require("fs").readFileSync(".tmp/vitest.json", "utf8"));
  const brokenFiles = r.testResults.filter((f) => f.status === "failed" && f.assertionResults.every((a) => a.status !== "failed")).length;
  const fs = require("fs");
  const pack = fs.existsSync(".tmp/pack-test.json") ? JSON.parse(fs.readFileSync(".tmp/pack-test.json", "utf8")) : { passed: 0, failed: 1 };
  const failed = r.numFailedTests + brokenFiles + Number(process.env.TYPECHECK_FAILED) + pack.failed;
  if (r.numPendingTests) console.log(`${r.numPendingTests} skipped`);
  console.log(`${r.numPassedTests + pack.passed} passed, ${failed} failed`);')
[ "$typecheck_failed" = 1 ] && echo "typecheck failed (see above)"
[ "$tests_status" = 1 ] && echo "tests failed (see above)"
[ "$pack_status" = 1 ] && echo "the pack-and-install test failed (see above)"
echo "$summary"
[ "$typecheck_failed" = 0 ] && [ "$tests_status" = 0 ] && [ "$pack_status" = 0 ]
