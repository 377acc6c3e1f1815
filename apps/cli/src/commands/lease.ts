import { resolve } from 'node:path';
import {
  acquireLease,
  acquireLocalLease,
  describeLeaseProgress,
  fetchServerStatus,
  holdLease,
  leaseDetachedNote,
  leaseHeldLine,
  leaseReleasedLine,
  leaseStatusText,
  parseDeviceList,
  isLeaseError,
  leaseAuth,
  listGpuIndices,
  listLeases,
  listLocalLocks,
  releaseLeaseById,
  validIdleTtl,
  DEFAULT_IDLE_TTL_S,
  type Lease,
  type LeaseServerOptions,
} from '@crucibleforge/lease';
import { envSecretFlag, intFlag, listFlag, parseCommandArgs, stringFlags } from '../args';
import { leaseCacheOption } from '../runner-context';
import { EXIT, UsageError, type CliIO, type CommandModule } from '../io';

const usage = `Usage: crucibleforge lease status|acquire|release [options]

Rents GPUs from a StudioForge server (POST /api/leases) and gives them back; without --server,
"acquire" takes a local lock file per GPU instead, so two runs on this machine never share a card.

  lease status   [--server URL]           leases and resident models (or the local GPU locks)
  lease acquire  [--server URL]           hold a lease until Ctrl-C (prints its id); --detach: print the id and exit
  lease release  --server URL --id ID     release a lease (an unknown id counts as released)

Options:
  --server URL          StudioForge gateway, e.g. http://gpu-box:1234 (a trailing /v1 is fine)
  --api-key-env VAR     read the server's API key from environment variable VAR
  --api-key-header H    bearer (default) or x-api-key
  --pin-env VAR         read the MCP pairing PIN from VAR (needed for lease calls from another machine)
  --devices 0,1         GPU indices (default: every GPU the server reports; locally: 0)
  --model ID            a model allowed on the cards and loaded by the lease (repeatable)
  --holder NAME         lease holder shown on the server (default crucibleforge)
  --reason TEXT         free text shown with the lease
  --ttl-s N             idle seconds before the server drops an untouched lease (5–86400, default 300; 0 = never)
  --priority 1|2|3      1 chat, 2 agent/benchmark (default), 3 background
  --wait-s N            keep asking this long while the cards are taken (default 600; 0 = ask once)
  --force               allow evicting a pinned idle model (never a standing lease)
  --detach              acquire, print the id and exit; the lease then lives until its TTL or "lease release"
  --id LEASE_ID         the lease to release
  --lock-dir DIR        local lock directory (default $XDG_CACHE_HOME/crucibleforge/locks or ~/.cache/...)
  --json                machine-readable output (one JSON object per line)
`;

const options = {
  ...stringFlags('server', 'api-key-env', 'api-key-header', 'pin-env', 'devices', 'holder', 'reason', 'ttl-s', 'priority', 'wait-s', 'id', 'lock-dir'),
  model: { type: 'string', multiple: true },
  force: { type: 'boolean' },
  detach: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseCommandArgs<typeof options>>['values'];

function connection(values: Values, io: CliIO): LeaseServerOptions {
  if (values.server === undefined) throw new UsageError('--server URL is required here');
  const apiKey = envSecretFlag(io.env, 'api-key-env', values['api-key-env']);
  const pin = envSecretFlag(io.env, 'pin-env', values['pin-env']);
  return { server: values.server, auth: leaseAuth({ apiKey, apiKeyHeader: values['api-key-header'], pin }, '--api-key-header') };
}

function devicesFlag(value: string | undefined): number[] | undefined {
  const items = listFlag(value);
  return items === undefined ? undefined : parseDeviceList(items, '--devices');
}

function lockDir(values: Values, io: CliIO): string {
  if (values['lock-dir'] !== undefined) return resolve(io.cwd, values['lock-dir']);
  const dir = leaseCacheOption(io.env).leaseCacheDir;
  if (!dir) throw new UsageError('cannot find a cache directory (HOME and XDG_CACHE_HOME are unset); pass --lock-dir DIR');
  return dir;
}

async function status(values: Values, io: CliIO): Promise<number> {
  if (values.server === undefined) {
    const dir = lockDir(values, io);
    const locks = await listLocalLocks({ cacheDir: dir });
    io.stdout.write(values.json ? `${JSON.stringify({ lock_dir: dir, locks })}\n` : leaseStatusText({ dir, locks }));
    return EXIT.ok;
  }
  const conn = connection(values, io);
  const [leases, server] = await Promise.all([listLeases(conn), fetchServerStatus(conn)]);
  const json = JSON.stringify({ server: values.server, leases, loaded: server.loaded });
  io.stdout.write(values.json ? `${json}\n` : leaseStatusText({ server: values.server, leases, loaded: server.loaded, nowS: Date.now() / 1000 }));
  return EXIT.ok;
}

/** Waits until Ctrl-C (io.signal) releases the lease, or it is lost. */
async function hold(lease: Lease, values: Values, io: CliIO): Promise<number> {
  const ended = await holdLease(lease, io.signal);
  const say = (json: object, text: string) => io.stdout.write(values.json ? `${JSON.stringify(json)}\n` : text);
  if (ended.kind === 'lost') {
    io.stderr.write(`crucibleforge lease: lease ${lease.id} was lost: ${ended.message}\n`);
    if (values.json) say({ event: 'lost', id: lease.id, message: ended.message }, '');
    return EXIT.failed;
  }
  if (ended.kind === 'release-failed') {
    io.stderr.write(`crucibleforge lease: could not release ${lease.id}: ${ended.error.message}\n`);
    return EXIT.failed;
  }
  say({ event: 'released', id: lease.id, outcome: ended.result.outcome }, leaseReleasedLine(ended.result, true));
  return EXIT.ok;
}

async function acquire(values: Values, io: CliIO): Promise<number> {
  const devices = devicesFlag(values.devices);
  const ttl = intFlag('ttl-s', values['ttl-s'], DEFAULT_IDLE_TTL_S, 0);
  // out of range: LEASE_CONFIG naming --ttl-s, a usage error (run)
  if (ttl !== 0) validIdleTtl(ttl, '--ttl-s');
  const waitS = intFlag('wait-s', values['wait-s'], 600, 0);
  const priority = intFlag('priority', values.priority, 2, 1);
  if (priority > 3) throw new UsageError(`--priority must be 1, 2 or 3, got "${values.priority}"`);
  const common = { ...(values.holder !== undefined ? { holder: values.holder } : {}), ...(values.reason !== undefined ? { reason: values.reason } : {}) };
  let lease: Lease;
  if (values.server === undefined) {
    if (values.detach) throw new UsageError('--detach needs --server: a local lock lives only as long as the process holding it');
    if (values.model) throw new UsageError('--model needs --server: a local lock loads no models');
    lease = await acquireLocalLease({ devices: devices ?? [0], cacheDir: lockDir(values, io), ...common });
  } else {
    const conn = connection(values, io);
    const wanted = devices ?? (await listGpuIndices(conn));
    if (wanted.length === 0) throw new UsageError(`${values.server} reports no GPUs; pass --devices`);
    lease = await acquireLease({
      ...conn,
      ...common,
      devices: wanted,
      modelIds: values.model ?? [],
      idleTtlS: ttl === 0 ? null : ttl,
      priority: priority as 1 | 2 | 3,
      force: values.force ?? false,
      waitMs: waitS * 1000,
      // a detached lease outlives this process on purpose: keep it out of the exit handlers' release
      ...(values.detach ? { registry: null } : {}),
      signal: io.signal,
      onProgress: (event) => {
        const line = describeLeaseProgress(event);
        if (line) io.stderr.write(`${line}\n`);
      },
    });
  }
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ event: 'held', id: lease.id, kind: lease.kind, devices: lease.devices, ...(values.server ? { server: values.server } : {}) })}\n`);
  } else if (values.detach) {
    io.stdout.write(`${lease.id}\n`);
    io.stderr.write(leaseDetachedNote(lease, values.server, ttl));
  } else {
    io.stdout.write(leaseHeldLine(lease, values.server));
  }
  return values.detach ? EXIT.ok : hold(lease, values, io);
}

async function release(values: Values, io: CliIO): Promise<number> {
  if (values.id === undefined) throw new UsageError('lease release needs --id LEASE_ID');
  if (values.server === undefined) throw new UsageError('lease release needs --server URL (a local lock is released when its process ends)');
  const result = await releaseLeaseById({ ...connection(values, io), id: values.id });
  if (values.json) io.stdout.write(`${JSON.stringify({ event: 'released', id: result.leaseId, outcome: result.outcome })}\n`);
  else io.stdout.write(leaseReleasedLine(result, false));
  return EXIT.ok;
}

export const command: CommandModule = {
  usage,
  // `lease acquire` holds the lease until Ctrl-C: that is its normal end, not an interruption
  servesUntilSignal: true,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseCommandArgs(args, options);
    const [action, extra] = positionals;
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
    const run = action === 'status' ? status : action === 'acquire' ? acquire : action === 'release' ? release : undefined;
    if (!run) throw new UsageError(action === undefined ? 'say status, acquire or release' : `unknown lease action "${action}" (status, acquire or release)`);
    try {
      return await run(values, io);
    } catch (error) {
      if (!isLeaseError(error)) throw error;
      if (error.code === 'LEASE_CONFIG') throw new UsageError(error.message);
      if (error.code === 'LEASE_ABORTED') {
        io.stderr.write('crucibleforge lease: stopped\n');
        return EXIT.failed;
      }
      io.stderr.write(`crucibleforge lease: ${error.message}\n`);
      return EXIT.failed;
    }
  },
};
