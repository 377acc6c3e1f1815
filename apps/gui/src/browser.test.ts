/**
 * End to end in real headless Chromium (Debian /usr/bin/chromium via playwright-core) against the sim endpoint
 * and a small cases directory: log in with the printed ?token= URL (off loopback), look at the models, start a
 * run from the page, watch it finish live, open the results and a failed case and read its reason, then compare
 * two selected runs.
 * Screenshots go to test-artifacts/gui-*.png at the repository root.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SpeedSummary } from '@crucibleforge/core';
import { writeRunSpeed } from '@crucibleforge/runner';
import type { SimEndpoint } from '@crucibleforge/sim-endpoint';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGuiServer, type GuiServer } from './index';
import { DECOY_KEY, KEY_ENV, readEvents, startTestSim, tempDir, testConfig, writeCasesDir } from './test-support';
import { speedReportOf } from '@crucibleforge/testkit';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'test-artifacts');
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const hasChromium = existsSync(CHROMIUM);

if (!hasChromium) {
  describe('GUI in Chromium', () => {
    // On CI (CI set) a missing browser is a failure, so the pipeline cannot pass without these tests.
    if (process.env['CI']) it(`${CHROMIUM} is installed (required when CI is set)`, () => expect.fail(`${CHROMIUM} is missing: scripts/setup.sh --with-browser`));
    else it.skip(`skipped: ${CHROMIUM} is not installed (apt-get install -y chromium, or scripts/setup.sh --with-browser)`, () => {});
  });
}

describe.skipIf(!hasChromium)('GUI in Chromium', { timeout: 60_000 }, () => {
  let sim: SimEndpoint;
  let gui: GuiServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const foreign: string[] = [];
  const results = tempDir('cf-gui-browser-results-');
  const cases = tempDir('cf-gui-browser-cases-');
  const shot = (name: string, fullPage = false) => page.screenshot({ path: join(ARTIFACTS, `gui-${name}.png`), fullPage });

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    sim = await startTestSim();
    writeCasesDir(cases.dir);
    // Off loopback, so the browser has to come in through the printed ?token= URL and the cookie.
    gui = await startGuiServer({
      host: '127.0.0.2',
      port: 0,
      resultsDir: results.dir,
      casesDir: cases.dir,
      config: testConfig(sim.url),
      env: { [KEY_ENV]: DECOY_KEY },
      toolVersion: '0.1.0',
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console ${msg.type()}: ${msg.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => {
      if (!request.url().startsWith(gui.url)) foreign.push(request.url());
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gui?.close();
    await sim?.close();
    results.remove();
    cases.remove();
  });

  it('refuses the page without the token', async () => {
    const response = await page.goto(gui.url);
    expect(response?.status()).toBe(401);
    await expect(page.textContent('body')).resolves.toContain('needs its token');
  });

  it('logs in with the printed URL: the token becomes a cookie and leaves the address bar', async () => {
    await page.goto(gui.openUrl);
    expect(page.url()).not.toContain('token=');
    await page.waitForSelector('text=No runs yet');
    const cookies = await page.context().cookies();
    expect(cookies).toEqual([expect.objectContaining({ name: 'crucibleforge_gui', httpOnly: true, sameSite: 'Strict' })]);
    expect(await page.evaluate(() => document.cookie)).toBe('');
  });

  it('shows the configured models with their endpoint status', async () => {
    await page.click('nav >> text=Models');
    await page.waitForSelector('text=Configured models');
    const rows = await page.locator('table').nth(1).locator('tbody tr').allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('strong');
    expect(rows[0]).toContain('listed');
    expect(await page.locator('table').first().textContent()).toContain(KEY_ENV);
    await shot('models');
  });

  it('starts a run from the page and watches it finish live', async () => {
    await page.click('nav >> text=New run');
    await page.waitForSelector('#profile');
    await page.selectOption('#profile', 'quick');
    await page.check('input[name=model][value=strong]');
    await page.check('input[name=model][value=weak]');
    await page.fill('#seed', '7');
    await page.press('#seed', 'Tab');
    await page.waitForSelector('#estimate-total');
    expect(await page.textContent('#estimate-total')).toMatch(/^\$\d/);
    expect(await page.isDisabled('#start-run')).toBe(true); // a priced run waits for the cost to be accepted
    await page.check('#confirm-cost');
    await shot('new-run');
    await page.click('#start-run');
    await page.waitForURL(/#\/live\//);
    await page.waitForSelector('#live-status .badge.finished', { timeout: 30_000 });
    expect(await page.locator('#feed .item').count()).toBe(8);
    expect(await page.textContent('#log')).toContain('FAIL');
    expect(await page.textContent('.stat:has-text("Passed so far") .value')).toBe('5');
    await page.evaluate(() => document.getElementById('log')?.scrollTo(0, 0));
    await shot('live');
  });

  it('shows the results: table with intervals, category and speed charts, failed rows', async () => {
    await page.click('#open-results');
    await page.waitForSelector('#summary-table');
    const summary = await page.textContent('#summary-table');
    expect(summary).toContain('strong');
    expect(summary).toMatch(/25%\s*1\/4/);
    expect(summary).toContain('95% CI');
    expect(await page.locator('#category-chart svg rect').count()).toBe(4);
    expect(await page.locator('#speed-chart svg rect').count()).toBe(2);
    expect(await page.locator('#rows-table tbody tr').count()).toBe(3);
    await shot('results', true);
  });

  it('opens a failed case and shows the grader reason, prompt and response', async () => {
    await page.click('#rows-table tbody tr[data-case="math-product"] a');
    await page.waitForSelector('#grade-reason');
    expect(await page.textContent('#grade-reason')).toMatch(/156/);
    expect(await page.textContent('#prompt')).toContain('What is 12 times 13?');
    expect(await page.textContent('#response')).toContain('Answer: 7');
    await shot('case', true);
  });

  it('shows model output as text, never as markup', async () => {
    await page.goBack();
    await page.waitForSelector('#rows-table');
    await page.click('#rows-table tbody tr[data-case="reasoning-clock-hands"] a');
    await page.waitForSelector('#response pre');
    expect(await page.textContent('#response pre')).toContain('<img src=x onerror=');
    expect(await page.locator('#response img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  it('lists the run, with no console errors, no outside requests and no key anywhere in the page', async () => {
    await page.click('nav >> text=Runs');
    await page.waitForSelector('#runs-table');
    expect(await page.locator('#runs-table tbody tr').count()).toBe(1);
    expect(await page.textContent('#runs-table')).toContain('complete');
    await shot('runs');
    expect(await page.content()).not.toContain(DECOY_KEY);
    expect(foreign).toEqual([]);
    expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
  });

  it('compares two selected runs: ability with the flipped cases, speed against its noise, the gate', async () => {
    // A second run (weak alone, the same cases and seed), started over the API with the token.
    const auth = { authorization: `Bearer ${gui.token}` };
    const started = await fetch(`${gui.url}api/runs`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ profile: 'quick', models: ['weak'], categories: null, seed: 7, accept_cost_usd: 1 }) });
    expect(started.status).toBe(202);
    const second: string = ((await started.json()) as { run: { run_id: string } }).run.run_id;
    await readEvents(`${gui.url}api/runs/${second}/events`, auth);
    const runs = ((await (await fetch(`${gui.url}api/runs`, { headers: auth })).json()) as { runs: { run_id: string }[] }).runs;
    const first = runs.find((r) => r.run_id !== second)!.run_id;
    // Speed runs stored with the runs: strong decodes 4000 T/s, weak 3000, two rounds per prompt 1 % apart.
    await writeRunSpeed(results.dir, first, 'strong', speedReportOf(speedOf('strong', 4000)));
    await writeRunSpeed(results.dir, first, 'weak', speedReportOf(speedOf('weak', 3000)));
    await writeRunSpeed(results.dir, second, 'weak', speedReportOf(speedOf('weak', 3000)));

    await page.reload(); // the Runs page is open: show the new run
    await page.waitForSelector('#runs-table tbody tr:nth-child(2)');
    expect(await page.locator('#runs-table tbody tr').count()).toBe(2);
    expect(await page.isDisabled('#compare-selected')).toBe(true);
    await page.check(`input[name=pick][value="${first}"]`);
    await page.check(`input[name=pick][value="${second}"]`);
    expect(page.url()).toMatch(/#\/runs$/); // ticking a box does not open the run
    await page.click('#compare-selected');
    await page.waitForSelector('#compare-ability');
    // The older run is the baseline (its first model, strong); the newer the candidate (weak).
    expect(await page.locator('#compare-baseline option:checked').textContent()).toBe(`${first} · strong (quick)`);
    expect(await page.locator('#compare-candidate option:checked').textContent()).toBe(`${second} · weak (quick)`);
    // 3 pass → fail, 0 fail → pass: exact McNemar p = 2/8 = 0.25, no detectable change on 4 cases
    const all = await page.textContent('#compare-ability tr[data-scope="overall"]');
    expect(all).toMatch(/100\.0% \(4\/4\).*25\.0% \(1\/4\).*−75\.0 pp.*3.*0.*p=0\.25.*no detectable change/);
    expect(await page.locator('#compare-flipped tbody tr[data-direction="regression"]').count()).toBe(3);
    expect(await page.getAttribute('#compare-flipped tr[data-case="math-product"] a', 'href')).toBe(`#/runs/${second}/case?model=weak&case=math-product`);
    // decode ×0.75 is far outside the ±1 % rounds: worse, and the gate fails on it
    expect(await page.textContent('#compare-speed tr[data-metric="decode_tps"]')).toMatch(/4000 T\/s ±1\.0%.*3000 T\/s ±1\.0%.*×0\.75.*worse/);
    expect(await page.textContent('#compare-headline')).toMatch(/^Gate failed: Decode T\/s, Prefill T\/s, TTFT worse/);
    expect(await page.textContent('#compare-gate [data-metric="ability"]')).toContain('no detectable change');
    await shot('compare', true);

    // The same model across the two runs: nothing flipped, the same speed, the gate passes.
    await page.selectOption('#compare-baseline', { label: `${first} · weak (quick)` });
    await page.click('#compare-run');
    await page.waitForSelector('#compare-headline:has-text("Gate passed")');
    expect(await page.textContent('#compare-flipped')).toBe('No case flipped.');
    expect(await page.textContent('#compare-speed tr[data-metric="decode_tps"]')).toMatch(/×1\.00.*no detectable change/);
    expect(page.url()).toContain(`baseline_model=weak`);
    expect(foreign).toEqual([]);
    expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
  });
});

/** A stored speed summary: two rounds per prompt at `decode` ± 1 %, prefill 10× decode, TTFT 10 / decode. */
function speedOf(model: string, decode: number): SpeedSummary {
  const rounds = ['short_50', 'long_800'].flatMap((prompt) => [0.99, 1.01].map((f) => ({ prompt, decode_tps: decode * f, prefill_tps: 10 * decode * f, ttft_s: 10 / (decode * f) })));
  return { model, decode_tps: decode, prefill_tps: 10 * decode, ttft_s: 10 / decode, rounds };
}
