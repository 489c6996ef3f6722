// One small driver for the cross-browser suite, with a backend per engine, so each test is written
// once: Firefox ESR over WebDriver BiDi (puppeteer-core), WebKitGTK's MiniBrowser over WebDriver
// (selenium-webdriver against WebKitWebDriver, under Xvfb), and Chromium (playwright-core, for
// the layout pictures beside the other two). One browser per engine per test file; every test
// navigates the same tab anew.
//   const b = await launch('firefox'); await b.open('?nodemo'); await b.setFiles('#file-input', [path]);
//   await b.waitFor(() => document.body.dataset.state === 'summary'); b.errors(); await b.close();
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, shots } from '../web/helpers.mjs';
import { serveStatic } from '../../scripts/serve.mjs';

export const FIREFOX = '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = ['/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser', '/usr/lib/x86_64-linux-gnu/webkitgtk-6.0/MiniBrowser'].find((p) => existsSync(p));
export const XVFB = '/usr/bin/Xvfb';
export const CHROMIUM = '/usr/bin/chromium';

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
// adds the console hook to index.html before the page's script runs.
async function pageServer() {
  const inner = serveStatic({ root: join(root, 'web'), port: 0, log: false });
  await new Promise((ok) => (inner.listening ? ok() : inner.once('listening', ok)));
  const hook = readFileSync(new URL('./console-hook.js', import.meta.url));
  const { request: forward } = await import('node:http');
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
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
    close: async () => {
      server.closeAllConnections?.();
      inner.closeAllConnections?.();
      await new Promise((ok) => server.close(ok));
      await new Promise((ok) => inner.close(ok));
    },
  };
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

// --- Backends: each gives evaluate, goto, setFiles, click, png, readErrors, close ---

// downloads: a folder the browser saves downloads in (Firefox: WebDriver BiDi's download
// behavior, which is otherwise to cancel them; MiniBrowser saves under $HOME, given as it).
async function firefoxBackend({ downloads } = {}) {
  const { default: puppeteer } = await import('puppeteer-core');
  const profile = mkdtempSync(join(tmpdir(), 'logscope-firefox-'));
  const browser = await puppeteer.launch({
    browser: 'firefox', executablePath: FIREFOX, headless: true, userDataDir: profile,
    // No first-run pages, updates or telemetry in a test profile.
    extraPrefsFirefox: { 'browser.shell.checkDefaultBrowser': false, 'app.update.auto': false, 'datareporting.policy.dataSubmissionEnabled': false, 'toolkit.telemetry.enabled': false },
  });
  const page = downloads
    ? await (await browser.createBrowserContext({ downloadBehavior: { policy: 'allow', downloadPath: downloads } })).newPage()
    : (await browser.pages())[0] ?? await browser.newPage();
  await page.setViewport(VIEWPORT);
  /** @type {string[]} */
  let logged = [];
  // WebDriver BiDi's log entries: the console's errors and the page's uncaught errors.
  page.on('console', (message) => { if (message.type() === 'error') logged.push(`console: ${message.text()}`); });
  page.on('pageerror', (error) => logged.push(`page error: ${error?.message ?? error}`));
  return {
    version: await browser.version(),
    evaluate: (fn, ...args) => page.evaluate(fn, ...args),
    async goto(url) { logged = []; await page.goto(url, { waitUntil: 'load' }); },
    async setFiles(selector, paths) { const input = await page.$(selector); if (!input) throw new Error(`no ${selector}`); await input.uploadFile(...paths); },
    async click(selector) { await page.click(selector); },
    png: () => page.screenshot({ encoding: 'binary' }),
    readErrors: () => logged,
    async close() { await browser.close(); rmSync(profile, { recursive: true, force: true }); },
  };
}

async function webkitBackend({ downloads } = {}) {
  const { Builder, By } = await import('selenium-webdriver');
  // MiniBrowser needs a display: a private Xvfb for this file's browser, on a display number
  // no X server holds (its lock file), given time to listen.
  let number = 90 + Math.floor(Math.random() * 400);
  while (existsSync(`/tmp/.X${number}-lock`)) number++;
  const display = `:${number}`;
  const xvfb = spawn(XVFB, [display, '-screen', '0', '1600x1000x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
  for (let i = 0; i < 100 && !existsSync(`/tmp/.X11-unix/X${number}`); i++) await sleep(100);
  const port = await freePort();
  const driverProcess = spawn(WEBKIT_DRIVER, [`--port=${port}`], { stdio: 'ignore', env: { ...process.env, DISPLAY: display, ...(downloads ? { HOME: downloads } : {}) } });
  const stop = () => { driverProcess.kill(); xvfb.kill(); };
  try {
    await reachable(`http://127.0.0.1:${port}/status`, 20_000);
    const driver = await new Builder().usingServer(`http://127.0.0.1:${port}`).withCapabilities({
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
    }).build();
    await driver.manage().window().setRect(VIEWPORT);
    const capabilities = await driver.getCapabilities();
    const run = (fn, args) => driver.executeScript(`return (${fn}).apply(null, arguments)`, ...args);
    return {
      version: `WebKitGTK ${capabilities.get('browserVersion')}`,
      evaluate: (fn, ...args) => run(fn, args),
      async goto(url) { await driver.get(url); },
      async setFiles(selector, paths) { await driver.findElement(By.css(selector)).sendKeys(paths.join('\n')); },
      async click(selector) {
        const element = await driver.findElement(By.css(selector));
        await driver.executeScript('arguments[0].scrollIntoView({block: "center"})', element);
        await element.click();
      },
      png: async () => Buffer.from(await driver.takeScreenshot(), 'base64'),
      readErrors: () => [],
      async close() { try { await driver.quit(); } finally { stop(); } },
    };
  } catch (error) {
    stop();
    throw error;
  }
}

async function chromiumBackend() {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  const page = await context.newPage();
  let logged = [];
  page.on('pageerror', (error) => logged.push(`page error: ${error}`));
  page.on('console', (message) => { if (message.type() === 'error') logged.push(`console: ${message.text()}`); });
  return {
    version: `Chromium ${browser.version()}`,
    evaluate: (fn, ...args) => page.evaluate(`(${String(fn)})(...${JSON.stringify(args)})`),
    async goto(url) { logged = []; await page.goto(url); },
    async setFiles(selector, paths) { await page.setInputFiles(selector, paths); },
    async click(selector) { await page.click(selector); },
    png: () => page.screenshot(),
    readErrors: () => logged,
    async close() { await browser.close(); },
  };
}

const backends = { firefox: firefoxBackend, webkit: webkitBackend, chromium: chromiumBackend };

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
    // Loads the page (query: '?nodemo', '?url=…'; '' opens the demo) and waits for its script.
    async open(query = '?nodemo') {
      await backend.goto(server.url + query);
      await this.waitFor(() => document.readyState === 'complete' && Boolean(window.logscope), undefined, { what: 'the page to start' });
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
    async close() {
      try { await backend.close(); } finally { await server.close(); }
    },
  };
}
