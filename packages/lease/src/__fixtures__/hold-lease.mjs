// Child process for signals.test.ts: takes a lease with the BUILT package, holds it until a signal.
// Usage: node hold-lease.mjs remote <server-url> | local <lock-dir>
import { acquireLease, acquireLocalLease, releaseOnSignals } from '../../dist/index.js';

const [mode, target] = process.argv.slice(2);
const lease =
  mode === 'remote'
    ? await acquireLease({ server: target, devices: [0], holder: 'crucibleforge-child', reason: 'signal test', idleTtlS: 600 })
    : await acquireLocalLease({ devices: [0], cacheDir: target, reason: 'signal test' });
releaseOnSignals(lease, { process });
process.stdout.write(`HELD ${lease.id}\n`);
setInterval(() => {}, 60_000); // the heartbeat timer is unref'd: keep the process alive until a signal
