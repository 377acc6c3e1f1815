#!/usr/bin/env bash
# Brings a fresh machine (Node 20 + npm) to a built workspace: pnpm 12.4.2, the lockfile install,
# the build, and - when run as root and missing - the Debian packages the project uses.
# Usage: scripts/setup.sh [--with-browser]   (--with-browser also installs chromium for the browser tests)
set -euo pipefail
cd "$(dirname "$0")/.."

want_browser=0
[ "${1:-}" = "--with-browser" ] && want_browser=1

log() { printf '\033[2m[setup]\033[0m %s\n' "$*" >&2; }

# 1. Debian packages (only as root, only when missing; not fatal - the tools say what is missing - except
#    chromium under --with-browser).
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  missing=()
  command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
  command -v python3 >/dev/null 2>&1 || missing+=(python3)
  if [ "$want_browser" = 1 ] && [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } >/dev/null 2>&1 \
      || log "warning: could not install ${missing[*]} (the sandbox or browser tests will say what is missing)"
  fi
  # --with-browser asked for the browser tests: without chromium they would not run, so that is an error.
  if [ "$want_browser" = 1 ] && [ ! -x /usr/bin/chromium ]; then
    log "error: --with-browser: chromium could not be installed (/usr/bin/chromium is missing)"
    exit 1
  fi
fi

# 2. pnpm, exactly 12.4.2 (another pnpm refuses this workspace's packageManager pin).
if [ "$(pnpm --version 2>/dev/null || true)" != "12.4.2" ]; then
  if [ "$(id -u)" = "0" ]; then
    log "installing pnpm 12.4.2 globally"
    npm install -g pnpm@12.4.2 >/dev/null 2>&1
  else
    log "installing pnpm 12.4.2 into .tools/"
    npm install --prefix .tools pnpm@12.4.2 >/dev/null 2>&1
    export PATH="$PWD/.tools/node_modules/.bin:$PATH"
  fi
fi
[ -d .tools/node_modules/.bin ] && export PATH="$PWD/.tools/node_modules/.bin:$PATH"

# 3. dependencies from the lockfile, then the build (turbo caches it: a second run takes well under a second).
log "installing dependencies (frozen lockfile)"
pnpm install --frozen-lockfile --reporter=silent
log "building"
pnpm turbo run build --output-logs=errors-only >&2
