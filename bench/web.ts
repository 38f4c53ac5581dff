/**
 * Web client benchmark (issue 8): page weight of web/dist and time to the
 * first rendered message in headless Chromium, for a 1,000-message session
 * against a 30-message one (the ratio shows whether the first paint depends
 * on history length: it should not, only the newest page is loaded).
 *
 *   npx tsx bench/web.ts            (builds web/dist if stale; needs /usr/bin/chromium + playwright-core)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { Worker } from 'node:worker_threads';
import { inlineScripts } from '../src/web/serve.js';
import { CHROMIUM, CHROMIUM_ARGS, distDir, ensureWebBuild } from '../test/support/e2e.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
/** BENCH_ONLY=chat: only the 1,000-message chat page (for quick comparisons). */
const ONLY = process.env.BENCH_ONLY;

function pageWeight(): void {
  const assets = join(distDir, 'assets');
  const rows = readdirSync(assets)
    .filter((f) => /\.(js|css)$/.test(f))
    .map((file) => {
      const raw = readFileSync(join(assets, file));
      return { file, raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
    });
  const html = readFileSync(join(distDir, 'index.html'));
  rows.push({ file: 'index.html', raw: html.length, gzip: gzipSync(html, { level: 9 }).length });
  // The inline boot script is JavaScript too: counted in the JS total (it also travels inside index.html).
  const inline = inlineScripts(html.toString('utf8')).map((code) => Buffer.from(code));
  inline.forEach((code, i) =>
    rows.push({
      file: `index.html inline script ${i}.js`,
      raw: code.length,
      gzip: gzipSync(code, { level: 9 }).length,
    }),
  );
  console.log('\nPage weight (web/dist)');
  console.table(
    rows.map((r) => ({ file: r.file, 'raw KB': (r.raw / 1024).toFixed(2), 'gzip KB': (r.gzip / 1024).toFixed(2) })),
  );
  for (const ext of ['js', 'css']) {
    const of = rows.filter((r) => r.file.endsWith(`.${ext}`));
    const raw = of.reduce((n, r) => n + r.raw, 0);
    const gz = of.reduce((n, r) => n + r.gzip, 0);
    console.log(
      `${ext.toUpperCase()} total: ${(raw / 1024).toFixed(2)} KB raw, ${(gz / 1024).toFixed(2)}` +
        ` KB gzip${ext === 'js' ? ` (budget 150 KB: ${((gz / (150 * 1024)) * 100).toFixed(1)}%)` : ''}`,
    );
  }
}

/**
 * ms from navigation start to the `first-message` mark the client sets when
 * the first page is in the DOM. The page reports the mark itself, through an
 * init script's PerformanceObserver and a console message: Playwright's
 * `waitForFunction` / `evaluate` would inject and run Playwright's own script
 * in the page while it loads (measured at 28–64 ms of the page's main thread
 * in a Chromium trace), which a user's browser never runs.
 */
async function firstMessage(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    new PerformanceObserver((list, observer) => {
      const mark = list.getEntriesByName('first-message')[0];
      if (!mark) return;
      observer.disconnect();
      console.debug(`first-message ${mark.startTime}`);
    }).observe({ type: 'mark', buffered: true });
  });
  const page = await context.newPage();
  const reported = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no first-message mark within 15 s: ${url}`)), 15_000);
    page.on('console', (message) => {
      const text = message.text();
      if (!text.startsWith('first-message ')) return;
      clearTimeout(timer);
      resolve(Number(text.slice('first-message '.length)));
    });
  });
  // The page's later requests (session list, meter, files, viewer) are
  // counted so the next run starts on an idle server, as a user's first load
  // does, instead of queueing behind the previous page's tail.
  let inFlight = 0;
  let lastActivity = performance.now();
  const settle = () => {
    lastActivity = performance.now();
  };
  page.on('request', () => (inFlight++, settle()));
  page.on('requestfinished', () => (inFlight--, settle()));
  page.on('requestfailed', () => (inFlight--, settle()));
  await page.goto(url, { waitUntil: 'commit' });
  const ms = await reported;
  while (inFlight > 0 || performance.now() - lastActivity < 300) await new Promise((r) => setTimeout(r, 50));
  await context.close();
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timings(browser: Browser, label: string, url: string): Promise<number> {
  await firstMessage(browser, url); // warm-up: server caches, JIT
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await firstMessage(browser, url));
  const m = median(runs);
  console.log(
    `${label.padEnd(34)} median ${m.toFixed(0).padStart(4)} ms ` +
      ` (min ${Math.min(...runs).toFixed(0)}, max ${Math.max(...runs).toFixed(0)}, ${RUNS} runs)`,
  );
  return m;
}

async function main(): Promise<void> {
  await ensureWebBuild();
  pageWeight();
  if (!existsSync(CHROMIUM)) {
    console.log(`\n${CHROMIUM} not found: timing skipped`);
    return;
  }
  // The server runs in a worker thread (bench/web-server.ts): this thread is Playwright's.
  const entry = new URL('./web-server.ts', import.meta.url).href;
  const worker = new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`,
    { eval: true },
  );
  const ready = await new Promise<{
    url: string;
    big: string;
    small: string;
    shareUrl: string | null;
    shareError: string | null;
  }>((resolve, reject) => {
    worker.on('message', (m) => m.type === 'ready' && resolve(m));
    worker.on('error', reject);
  });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    console.log('\nTime to first rendered message (headless Chromium; the server in its own thread)');
    const chatBig = await timings(
      browser,
      'chat page, 1,000 messages',
      `${ready.url}/#session=${encodeURIComponent(ready.big)}`,
    );
    // The same load with the least possible page (bench/web-server.ts): what this machine's
    // browser and server cost before any of the app's own work.
    const floor = await timings(
      browser,
      'browser floor (no app), 1,000',
      `${ready.url}/bench-floor#session=${encodeURIComponent(ready.big)}`,
    );
    console.log(`chat page over the floor: +${(chatBig - floor).toFixed(0)} ms`);
    if (ONLY === 'chat') return;
    const chatSmall = await timings(
      browser,
      'chat page, 30 messages',
      `${ready.url}/#session=${encodeURIComponent(ready.small)}`,
    );
    console.log(
      `ratio 1,000 / 30 messages: ${(chatBig / chatSmall).toFixed(2)}` +
        `  (≈1: first paint independent of history length; target < 300 ms)`,
    );
    if (!ready.shareUrl) console.log(`share viewer: skipped (${ready.shareError})`);
    else await timings(browser, 'share viewer, 1,000 messages', `${ready.url}${ready.shareUrl}`);
  } finally {
    await browser.close();
    worker.postMessage('close');
    await new Promise<void>((resolve) => worker.on('message', (m) => m.type === 'closed' && resolve()));
    await worker.terminate();
  }
}

await main();
