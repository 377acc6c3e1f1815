import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../main';
import { FIXTURE_CASES_DIR, memoryIO } from '@crucibleforge/testkit';

const dir = mkdtempSync(join(tmpdir(), 'cf-sim-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `crucibleforge sim ...args` in-process; resolves once it printed its URL. */
async function startSim(args: string[]) {
  const t = memoryIO({ cwd: dir });
  const controller = new AbortController();
  const io = { ...t.io, signal: controller.signal };
  const exit = main(['sim', ...args], io);
  let url: string | undefined;
  for (let i = 0; i < 200 && !url; i++) {
    url = /listening on (http:\/\/\S+\/v1)/.exec(t.stdout())?.[1];
    if (!url) {
      const done = await Promise.race([exit.then(() => true), new Promise((r) => setTimeout(r, 25, false))]);
      if (done) break;
    }
  }
  return { url, exit, stop: () => controller.abort(), stdout: t.stdout, stderr: t.stderr };
}

describe('crucibleforge sim', () => {
  it('serves the default demo models on --port 0 until the signal aborts', async () => {
    const run = await startSim(['--port', '0']);
    expect(run.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const list = await (await fetch(`${run.url}/models`)).json();
    expect(list.data.map((m: { id: string }) => m.id)).toEqual(['sim-fast', 'sim-plain']);
    const reply = await (
      await fetch(`${run.url}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'sim-fast', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 }),
      })
    ).json();
    expect(reply.choices[0].finish_reason).toBe('length');
    expect(run.stdout()).toContain('models: sim-fast, sim-plain');
    expect(run.stdout()).toContain(`curl -sN ${run.url}/chat/completions`);
    run.stop();
    expect(await run.exit).toBe(0);
    expect(run.stdout()).toContain('stopped after 1 request(s)');
    await expect(fetch(`${run.url}/models`)).rejects.toThrow();
  });

  it('loads models from a YAML config; --port overrides the config', async () => {
    const file = join(dir, 'ok.yaml');
    writeFileSync(
      file,
      ['port: 1', 'api_key: k1', 'models:', '  - id: tiny', '    decode_tps: 500', '    answer: { content: "from yaml" }', '    faults: [~, {kind: status, status: 429}]', ''].join('\n'),
    );
    const run = await startSim(['--port', '0', '--config', 'ok.yaml']);
    expect(run.url).toBeDefined();
    expect(run.stdout()).toContain("-H 'authorization: Bearer k1'");
    const headers = { authorization: 'Bearer k1' };
    const list = await (await fetch(`${run.url}/models`, { headers })).json();
    expect(list.data.map((m: { id: string }) => m.id)).toEqual(['tiny']);
    const ask = () =>
      fetch(`${run.url}/chat/completions`, { method: 'POST', headers, body: JSON.stringify({ model: 'tiny', messages: [{ role: 'user', content: 'x' }] }) });
    expect((await (await ask()).json()).choices[0].message.content).toBe('from yaml');
    expect((await ask()).status).toBe(429);
    run.stop();
    expect(await run.exit).toBe(0);
  });

  it('names file:line:col for a YAML syntax error', async () => {
    writeFileSync(join(dir, 'broken.yaml'), 'models:\n  - id: a\n    answer: { content: "x"\n');
    const t = memoryIO({ cwd: dir });
    expect(await main(['sim', '--port', '0', '--config', 'broken.yaml'], t.io)).toBe(1);
    expect(t.stderr()).toMatch(/broken\.yaml:\d+:\d+: YAML syntax error/);
  });

  it('names the file and the field for a schema error, and a missing file', async () => {
    writeFileSync(join(dir, 'bad.yaml'), 'models:\n  - id: a\n    decode_tps: fast\n');
    const t = memoryIO({ cwd: dir });
    expect(await main(['sim', '--config', 'bad.yaml'], t.io)).toBe(1);
    expect(t.stderr()).toContain(join(dir, 'bad.yaml'));
    expect(t.stderr()).toContain('models[0].decode_tps');
    const missing = memoryIO({ cwd: dir });
    expect(await main(['sim', '--config', 'nope.yaml'], missing.io)).toBe(1);
    expect(missing.stderr()).toContain('nope.yaml: cannot read the sim config');
  });

  it('--relay DIR serves one model whose answers are files; the runner preflight passes without a request folder', async () => {
    const relayDir = join(dir, 'relay');
    const run = await startSim(['--relay', 'relay', '--port', '0', '--model', 'blind']);
    expect(run.url).toBeDefined();
    expect(run.stdout()).toContain('models: blind');
    expect(run.stdout()).toContain(`${relayDir}/req-N/conversation.txt`);
    const list = await (await fetch(`${run.url}/models`)).json();
    expect(list.data.map((m: { id: string }) => m.id)).toEqual(['blind']);
    const config = join(dir, 'relay-models.yaml');
    writeFileSync(config, `providers:\n  relay: { kind: generic, base_url: "${run.url}" }\nmodels:\n  solver: { provider: relay, id: blind }\n`);
    const status = memoryIO({ cwd: dir, env: {} });
    expect(await main(['status', '--config', config, '--results', join(dir, 'results'), '--cases', FIXTURE_CASES_DIR], status.io)).toBe(0);
    expect(status.stdout()).toMatch(/solver → relay\/blind .*preflight ok/);
    expect(readdirSync(relayDir).filter((n) => n.startsWith('req-'))).toEqual([]);
    expect(readFileSync(join(relayDir, 'relay.log'), 'utf8')).toMatch(/relay started: model blind\n.* preflight answered: ready\n$/);
    run.stop();
    expect(await run.exit).toBe(0);
    expect(run.stdout()).toContain('relay stopped after 1 request(s)');
  });

  it('--relay usage errors: no DIR, an empty one, with --config; --model without --relay (exit 2, nothing started)', async () => {
    for (const argv of [['--relay'], ['--relay', '', '--port', '0'], ['--relay', 'r2', '--config', 'ok.yaml'], ['--model', 'blind']]) {
      const t = memoryIO({ cwd: dir });
      expect(await main(['sim', ...argv], t.io)).toBe(2);
      expect(t.stderr()).toMatch(/^crucibleforge sim: .*(--relay|--model)/);
      expect(t.stderr()).toContain('Usage: crucibleforge sim');
      expect(t.stdout()).toBe('');
    }
    expect(existsSync(join(dir, 'r2'))).toBe(false);
  });

  it('rejects a bad --port with usage (exit 2) and prints help', async () => {
    const t = memoryIO();
    expect(await main(['sim', '--port', 'abc'], t.io)).toBe(2);
    expect(t.stderr()).toContain('--port');
    expect(t.stderr()).toContain('Usage: crucibleforge sim');
    const big = memoryIO();
    expect(await main(['sim', '--port', '70000'], big.io)).toBe(2);
    const help = memoryIO();
    expect(await main(['sim', '--help'], help.io)).toBe(0);
    expect(help.stdout()).toContain('--config FILE');
    expect(help.stdout()).toContain('--relay DIR');
  });
});
