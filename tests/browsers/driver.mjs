// One small driver for the cross-browser suite, with a backend per engine, so each test is written
// once: Firefox ESR over WebDriver BiDi (puppeteer-core), WebKitGTK's MiniBrowser over WebDriver
// (selenium-webdriver against WebKitWebDriver, under Xvfb), and Chromium (playwright-core, for
// the layout pictures beside the other two). One browser per engine per test file; every test
// navigates the same tab anew; a test that needs several pages at once opens more tabs
// (`b.newTab()`: a tab in Firefox and Chromium, a window of its own in WebKit), each with the
// same calls as `b` and its own close().
//   const b = await launch('firefox'); await b.open('?nodemo'); await b.setFiles('#file-input', [path]);
//   await b.waitFor(() => document.body.dataset.state === 'summary'); b.errors(); await b.close();
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, shots } from '../web/helpers.mjs';
import { serveStatic } from '../../scripts/serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../../scripts/chromium.mjs';

export const FIREFOX = '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = ['/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser', '/usr/lib/x86_64-linux-gnu/webkitgtk-6.0/MiniBrowser'].find((p) => existsSync(p));
export const XVFB = '/usr/bin/Xvfb';
export { CHROMIUM };

// The engines this machine has, with what is missing for the others (scripts/install-deps.sh).
export const engines = {
  firefox: existsSync(FIREFOX) ? null : `${FIREFOX} is not installed (firefox-esr)`,
  webkit: !existsSync(WEBKIT_DRIVER) || !MINIBROWSER ? 'WebKitWebDriver or MiniBrowser is not installed (webkit2gtk-driver)' : !existsSync(XVFB) ? 'Xvfb is not installed (xvfb)' : null,
  chromium: existsSync(CHROMIUM) ? null : `${CHROMIUM} is not installed`,
};

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const VIEWPORT = { width: 1440, height: 900 };
const HOOK = '/__test/console-hook.js';

// The page's static server (scripts/serve.mjs, with its isolation headers) behind a front that
// adds the console hook to index.html before the page's script runs. Requests for the scripts
// named in `held` (hold()) are never answered, as by a browser that never starts those workers;
// hold([]) lets them go (their requests fail).
async function pageServer() {
  /** @type {string[]} */
  let held = [];
  /** @type {import('node:http').ServerResponse[]} */
  let holding = [];
  const inner = serveStatic({ root: join(root, 'web'), port: 0, log: false });
  await new Promise((ok) => (inner.listening ? ok() : inner.once('listening', ok)));
  const hook = readFileSync(new URL('./console-hook.js', import.meta.url));
  const { request: forward } = await import('node:http');
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (held.some((name) => path.endsWith(`/${name}`))) return void holding.push(res);
    if (path === HOOK) {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cross-Origin-Resource-Policy': 'same-origin' });
      return res.end(hook);
    }
    const isPage = path === '/' || path === '/index.html';
    const upstream = forward({ host: '127.0.0.1', port: inner.address().port, path: req.url, method: req.method, headers: { ...req.headers, 'accept-encoding': 'identity' } }, (up) => {
      if (!isPage || up.statusCode !== 200) { res.writeHead(up.statusCode, up.headers); return up.pipe(res); }
      const parts = [];
      up.on('data', (c) => parts.push(c));
      up.on('end', () => {
        const html = Buffer.concat(parts).toString('utf8').replace('<link rel="stylesheet"', `<script src="${HOOK.slice(1)}"></script>\n  <link rel="stylesheet"`);
        const headers = { ...up.headers, 'content-length': Buffer.byteLength(html) };
        res.writeHead(200, headers);
        res.end(html);
      });
    });
    upstream.on('error', () => { res.writeHead(502); res.end(); });
    req.pipe(upstream);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    /** @param {string[]} names */
    hold(names) {
      held = [...names];
      if (names.length) return;
      for (const res of holding) res.destroy();
      holding = [];
    },
    close: async () => {
      for (const res of holding) res.destroy();
      server.closeAllConnections?.();
      inner.closeAllConnections?.();
      await new Promise((ok) => server.close(ok));
      await new Promise((ok) => inner.close(ok));
    },
  };
}

// `html` (a page with a hash-based Content-Security-Policy, such as the single-file build) with
// the console hook inlined as its first script and its hash added to the policy, for a page the
// suite opens from file://, where no server can add the hook (WebKitWebDriver reads no console).
export function withConsoleHook(html) {
  const hook = `\n${readFileSync(new URL('./console-hook.js', import.meta.url), 'utf8')}`;
  const sha = `'sha256-${createHash('sha256').update(hook).digest('base64')}'`;
  const policy = /(<meta http-equiv="Content-Security-Policy" content="[^"]*script-src )/;
  if (!policy.test(html) || !html.includes('<style>')) throw new Error('withConsoleHook: the page has no script-src policy or <style> to anchor the hook');
  return html.replace(policy, (m) => `${m}${sha} `).replace('<style>', () => `<script>${hook}</script>\n  <style>`);
}

const freePort = () => new Promise((ok, fail) => {
  const s = createNetServer();
  s.once('error', fail);
  s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => ok(port)); });
});

// Waits until `url` answers (a driver that has started), at most `ms`.
async function reachable(url, ms) {
  const end = Date.now() + ms;
  for (;;) {
    try { await fetch(url); return; } catch { /* not yet */ }
    if (Date.now() > end) throw new Error(`${url} did not answer in ${ms} ms`);
    await sleep(100);
  }
}

// --- Backends: each gives version, a first tab, newTab() and close(); a tab gives evaluate, goto,
// setFiles, click, png, readErrors and close ---

// downloads: a folder the browser saves downloads in (Firefox: WebDriver BiDi's download
// behavior, which is otherwise to cancel them; MiniBrowser saves under $HOME, given as it).
async function firefoxBackend({ downloads } = {}) {
  const { default: puppeteer } = await import('puppeteer-core');
  const profile = mkdtempSync(join(tmpdir(), 'logscope-firefox-'));
  // networkEnabled: false, as no test reads the network through the driver: otherwise puppeteer
  // subscribes to BiDi's network events, and Firefox's remote agent serialized one for every
  // request of every page (about 90 a page): 1.1 s of the parent process's main thread a page,
  // 0.4 s without them. The stress test's 100 pages took 202-283 s here, 116 s without.
  const browser = await puppeteer.launch({
    browser: 'firefox', executablePath: FIREFOX, headless: true, userDataDir: profile, networkEnabled: false,
    // No first-run pages, updates or telemetry in a test profile.
    extraPrefsFirefox: { 'browser.shell.checkDefaultBrowser': false, 'app.update.auto': false, 'datareporting.policy.dataSubmissionEnabled': false, 'toolkit.telemetry.enabled': false },
  });
  async function tab(page) {
    await page.setViewport(VIEWPORT);
    page.setDefaultTimeout(120_000); // (30 s by default: a busy machine's page load took longer)
    /** @type {string[]} */
    let logged = [];
    // WebDriver BiDi's log entries: the console's errors and the page's uncaught errors.
    page.on('console', (message) => { if (message.type() === 'error') logged.push(`console: ${message.text()}`); });
    page.on('pageerror', (error) => logged.push(`page error: ${error?.message ?? error}`));
    return {
      evaluate: (fn, ...args) => page.evaluate(fn, ...args),
      async goto(url) { logged = []; await page.goto(url, { waitUntil: 'load' }); },
      async setFiles(selector, paths) { const input = await page.$(selector); if (!input) throw new Error(`no ${selector}`); await input.uploadFile(...paths); },
      async click(selector) { await page.click(selector); },
      png: () => page.screenshot({ encoding: 'binary' }),
      readErrors: () => logged,
      close: () => page.close(),
    };
  }
  return {
    version: await browser.version(),
    // With a downloads folder, the first tab is in a context that saves them there.
    first: await tab(downloads
      ? await (await browser.createBrowserContext({ downloadBehavior: { policy: 'allow', downloadPath: downloads } })).newPage()
      : (await browser.pages())[0] ?? await browser.newPage()),
    // A window: a background tab is hidden, and a hidden page's timers are slowed.
    newTab: async () => tab(await browser.newPage({ type: 'window' })),
    async close() { await browser.close(); rmSync(profile, { recursive: true, force: true }); },
  };
}

// compositing: false turns WebKit's GL compositor off. This machine has no GPU: the compositor
// then runs on Mesa's llvmpipe, which took both cores for about 6 s after a 300 MB file opened
// (bench/engines.mjs), where Chromium runs with --disable-gpu. bench:engines turns it off; the
// suite keeps it on, as WebDriver's screenshots in WebKitGTK hung without it.
async function webkitBackend({ downloads, compositing = true } = {}) {
  const { Builder, By } = await import('selenium-webdriver');
  // MiniBrowser needs a display: a private Xvfb for this file's browser, on a display number
  // no X server holds (its lock file), given time to listen.
  let number = 90 + Math.floor(Math.random() * 400);
  while (existsSync(`/tmp/.X${number}-lock`)) number++;
  const display = `:${number}`;
  const xvfb = spawn(XVFB, [display, '-screen', '0', '1600x1000x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
  for (let i = 0; i < 100 && !existsSync(`/tmp/.X11-unix/X${number}`); i++) await sleep(100);
  const port = await freePort();
  const driverProcess = spawn(WEBKIT_DRIVER, [`--port=${port}`], { stdio: 'ignore', env: { ...process.env, DISPLAY: display, ...(downloads ? { HOME: downloads } : {}), ...(compositing ? {} : { WEBKIT_DISABLE_COMPOSITING_MODE: '1' }) } });
  const stop = () => { driverProcess.kill(); xvfb.kill(); };
  try {
    await reachable(`http://127.0.0.1:${port}/status`, 20_000);
    const driver = await new Builder().usingServer(`http://127.0.0.1:${port}`).withCapabilities({
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
    }).build();
    await driver.manage().window().setRect(VIEWPORT);
    const capabilities = await driver.getCapabilities();
    // One session drives every window: a window's commands wait their turn, after switching to it.
    let queue = Promise.resolve();
    const first = await driver.getWindowHandle();
    /** @type {string | null} the window the session's commands go to */
    let current = first;
    const inTurn = (fn) => { const run = queue.then(fn); queue = run.catch(() => {}); return run; };
    const tab = (handle) => {
      const within = (fn) => inTurn(async () => {
        if (current !== handle) { await driver.switchTo().window(handle); current = handle; }
        return fn();
      });
      return {
        evaluate: (fn, ...args) => within(() => driver.executeScript(`return (${fn}).apply(null, arguments)`, ...args)),
        goto: (url) => within(() => driver.get(url)),
        setFiles: (selector, paths) => within(async () => driver.findElement(By.css(selector)).sendKeys(paths.join('\n'))),
        click: (selector) => within(async () => {
          const element = await driver.findElement(By.css(selector));
          await driver.executeScript('arguments[0].scrollIntoView({block: "center"})', element);
          await element.click();
        }),
        png: () => within(async () => Buffer.from(await driver.takeScreenshot(), 'base64')),
        readErrors: () => [],
        // (The session's last window is closed by quit.)
        close: () => within(async () => { await driver.close(); current = null; }),
      };
    };
    return {
      version: `WebKitGTK ${capabilities.get('browserVersion')}`,
      first: tab(first),
      // A window, not a tab: MiniBrowser's background tabs are hidden, and a hidden page's timers
      // are slowed (a user's background tab, but not what the suite means to time).
      newTab: () => inTurn(async () => {
        // (WebDriver opens a window from a window that is open.)
        if (current === null) await driver.switchTo().window(current = first);
        await driver.switchTo().newWindow('window');
        current = await driver.getWindowHandle();
        return tab(current);
      }),
      async close() { try { await driver.quit(); } finally { stop(); } },
    };
  } catch (error) {
    stop();
    throw error;
  }
}

async function chromiumBackend() {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  const tab = (page) => {
    let logged = [];
    page.on('pageerror', (error) => logged.push(`page error: ${error}`));
    page.on('console', (message) => { if (message.type() === 'error') logged.push(`console: ${message.text()}`); });
    return {
      evaluate: (fn, ...args) => page.evaluate(`(${String(fn)})(...${JSON.stringify(args)})`),
      async goto(url) { logged = []; await page.goto(url); },
      async setFiles(selector, paths) { await page.setInputFiles(selector, paths); },
      async click(selector) { await page.click(selector); },
      png: () => page.screenshot(),
      readErrors: () => logged,
      close: () => page.close(),
    };
  };
  return {
    version: `Chromium ${browser.version()}`,
    first: tab(await context.newPage()),
    newTab: async () => tab(await context.newPage()),
    async close() { await browser.close(); },
  };
}

const backends = { firefox: firefoxBackend, webkit: webkitBackend, chromium: chromiumBackend };

// What a test does with one tab (backend: a backend's tab).
function tabCalls(engine, server, backend) {
  const calls = {
    // Loads the page (query: '?nodemo', '?url=…'; '' opens the demo) and waits for its script.
    async open(query = '?nodemo') {
      await backend.goto(server.url + query);
      await calls.waitFor(() => document.readyState === 'complete' && Boolean(window.logscope), undefined, { what: 'the page to start' });
    },
    // Loads a page by its full address (a file:// page such as the single-file build, which no
    // server of ours serves) and waits for its script.
    async openAddress(address) {
      await backend.goto(address);
      await calls.waitFor(() => document.readyState === 'complete' && Boolean(window.logscope), undefined, { what: 'the page to start' });
    },
    // Runs `fn` in the page with JSON arguments; its (awaited) JSON result.
    evaluate: (fn, ...args) => backend.evaluate(fn, ...args),
    // Polls `fn(arg)` in the page until it is truthy; returns that value. Return JSON (a boolean,
    // not an element: Firefox's BiDi hands an element back as nothing, which never ends the wait).
    async waitFor(fn, arg, { timeout = 60_000, what = String(fn) } = {}) {
      const end = Date.now() + timeout;
      for (;;) {
        const value = await backend.evaluate(fn, arg);
        if (value) return value;
        if (Date.now() > end) throw new Error(`${engine}: no ${what} within ${timeout} ms`);
        await sleep(100);
      }
    },
    setFiles: (selector, paths) => backend.setFiles(selector, paths),
    click: (selector) => backend.click(selector),
    text: (selector) => backend.evaluate((s) => document.querySelector(s)?.textContent ?? null, selector),
    attribute: (selector, name) => backend.evaluate((s, n) => document.querySelector(s)?.getAttribute(n) ?? null, selector, name),
    // Chooses an option of a <select> as a user does (its change event).
    select: (selector, value) => backend.evaluate((s, v) => {
      const select = document.querySelector(s);
      select.value = v;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    }, selector, value),
    // The console errors since the last open: the driver's log (BiDi, Chromium) and the page's hook.
    async errors() {
      const hooked = await backend.evaluate(() => [...(window.__consoleErrors ?? [])]);
      return [...new Set([...backend.readErrors(), ...hooked])];
    },
    // test-results/screenshots/<name>-<engine>.png; returns its path.
    async screenshot(name) {
      const path = join(shots, `${name}-${engine}.png`);
      writeFileSync(path, await backend.png());
      return path;
    },
  };
  return calls;
}

// A browser of `engine` with the page's server; the driver every test uses. options.downloads:
// where the browser saves downloads (Firefox and WebKit; tests/browsers/download.test.mjs).
export async function launch(engine, options = {}) {
  const server = await pageServer();
  let backend;
  try {
    backend = await backends[engine](options);
  } catch (error) {
    await server.close();
    throw error;
  }
  mkdirSync(shots, { recursive: true });
  return {
    engine,
    version: backend.version,
    url: server.url,
    ...tabCalls(engine, server, backend.first),
    // Another tab beside this one (a window in WebKit), with the same calls and its own close().
    async newTab() {
      const tab = await backend.newTab();
      return { ...tabCalls(engine, server, tab), close: () => tab.close() };
    },
    // The server holds requests for these scripts unanswered from now on (names: 'pump-worker.js'),
    // as a browser that never starts those workers; hold([]) ends that.
    hold: (names) => server.hold(names),
    async close() {
      try { await backend.close(); } finally { await server.close(); }
    },
  };
}
