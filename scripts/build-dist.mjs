// Builds the inspector for hosting, with no server code:
//   node scripts/build-dist.mjs            (npm run build)        -> dist/: static files that work
//       under any sub-path (relative URLs only), with the offline service worker (sw.js) given a
//       version from a hash of the files and the list of files to cache.
//   node scripts/build-dist.mjs --single   (npm run build:single) -> dist/logscope-single.html:
//       one HTML file with the CSS, the script, the worker and the wasm inlined, that works from
//       file:// (the worker runs from a Blob URL, the wasm is handed to it as base64).
// Needs web/gen/logscope{,-full}.{mjs,wasm} and web/gen/folder-rules.js (bash scripts/build.sh); --single needs esbuild (npm install).
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'web');
const args = process.argv.slice(2);
const option = (name, fallback) => { const i = args.indexOf(name); return i >= 0 && args[i + 1] ? resolve(args[i + 1]) : fallback; };
const out = option('--out', join(root, 'dist'));
const SINGLE_NAME = 'logscope-single.html';

function fail(message) {
  console.error(`build-dist: ${message}`);
  process.exit(1);
}

// Loaded on first use (the job worker's first extract, repair or export), so not cached by the
// service worker on the first visit: it caches them when they are first fetched (web/sw.js).
// So are the page's view modules that run on the full module (a tab imports them when first
// shown), and code only a remote file needs (src/byteranges.js): a module says so with
// FIRST_USE_MARK in its source. No module cached at install may import one statically
// (tests/web/dist.test.mjs checks).
const FULL_MODULE = ['gen/logscope-full.mjs', 'gen/logscope-full.wasm'];
// A line of its own: "// @logscope-first-use: why" (src/tabs/first-use.js only names it).
const FIRST_USE_MARK = /^\/\/ @logscope-first-use:/m;
const markedModules = () => readdirSync(join(web, 'src'), { recursive: true }).map((f) => f.split('\\').join('/')).filter((f) => f.endsWith('.js')).sort()
  .map((f) => `src/${f}`).filter((f) => FIRST_USE_MARK.test(readFileSync(join(web, f), 'utf8')));
const ON_FIRST_USE = [...FULL_MODULE, ...markedModules()];

// The page's folder code imports the format table's folder rules (scripts/write-folder-rules.mjs).
const FOLDER_RULES = 'gen/folder-rules.js';
for (const f of ['gen/logscope.mjs', 'gen/logscope.wasm', ...FULL_MODULE, FOLDER_RULES]) {
  if (!existsSync(join(web, f))) fail(`web/${f} is missing: build the codec first (bash scripts/build.sh)`);
}

// The app's files, relative to web/ (no demos, no tests: the user brings the logs).
function appFiles() {
  const files = ['index.html', 'app.css', 'manifest.webmanifest', 'icon.svg', 'icon-maskable.svg', 'worker.js', 'gen/logscope.mjs', 'gen/logscope.wasm', FOLDER_RULES, ...FULL_MODULE];
  // The page's modules, in src/ and its folders (tabs/, data-views/).
  for (const entry of readdirSync(join(web, 'src'), { recursive: true }).sort()) if (entry.endsWith('.js')) files.push(`src/${entry.split('\\').join('/')}`);
  return files;
}

// The scripts as served: each module minified on its own (no bundling, so module and worker URLs
// stay as they are), which halves what a first visit downloads (docs/benchmarks-browser.md).
// Without esbuild (npm install not run) they are copied as written.
// The stylesheet is minified too, and the service worker (a classic script whose names the
// tests read: whitespace only).
async function scriptMinifier() {
  try {
    const esbuild = await import('esbuild');
    const common = { charset: 'ascii', legalComments: 'none', logLevel: 'error' };
    const minify = async (text, options) => (await esbuild.transform(text, { ...common, ...options })).code;
    return {
      module: (text) => minify(text, { minify: true, format: 'esm' }),
      css: (text) => minify(text, { minify: true, loader: 'css' }),
      classic: (text) => minify(text, { minifyWhitespace: true }),
    };
  } catch {
    console.warn('build-dist: esbuild is not installed (npm install): scripts are copied unminified');
    return null;
  }
}

async function buildDist() {
  const files = appFiles();
  const minify = await scriptMinifier();
  const hash = createHash('sha256');
  for (const f of [...files, 'sw.js']) hash.update(f).update(readFileSync(join(web, f)));
  const version = hash.digest('hex').slice(0, 12);
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(out)) if (name !== SINGLE_NAME) rmSync(join(out, name), { recursive: true, force: true });
  for (const f of files) {
    mkdirSync(dirname(join(out, f)), { recursive: true });
    if (minify && /\.m?js$/.test(f)) writeFileSync(join(out, f), await minify.module(readFileSync(join(web, f), 'utf8')));
    else if (minify && f.endsWith('.css')) writeFileSync(join(out, f), await minify.css(readFileSync(join(web, f), 'utf8')));
    else copyFileSync(join(web, f), join(out, f));
  }
  // index.html: the build version, which also turns on the service worker (web/src/offline.js).
  const html = readFileSync(join(web, 'index.html'), 'utf8');
  if (!html.includes('<meta charset="utf-8">')) fail('web/index.html has no <meta charset="utf-8"> to anchor the build meta');
  writeFileSync(join(out, 'index.html'), html.replace('<meta charset="utf-8">', `<meta charset="utf-8">\n  <meta name="logscope-build" content="${version}">`));
  // sw.js: the version and the files to cache ('./' is the page under its directory URL).
  const sw = readFileSync(join(web, 'sw.js'), 'utf8');
  const filled = sw.replace("const VERSION = 'dev';", `const VERSION = '${version}';`)
    .replace('const FILES = [];', `const FILES = ${JSON.stringify(['./', ...files.filter((f) => !ON_FIRST_USE.includes(f))])};`)
    .replace('const LATER = [];', `const LATER = ${JSON.stringify(ON_FIRST_USE)};`);
  if (filled === sw || !filled.includes(version) || filled.includes('const FILES = [];') || filled.includes('const LATER = [];')) fail('web/sw.js lost its VERSION/FILES/LATER placeholders');
  writeFileSync(join(out, 'sw.js'), minify ? await minify.classic(filled) : filled);
  // Apache reads this; other servers need application/wasm set by hand (see README).
  writeFileSync(join(out, '.htaccess'), 'AddType application/wasm .wasm\nAddType text/javascript .mjs\n');
  let bytes = 0;
  for (const f of [...files, 'sw.js']) bytes += statSync(join(out, f)).size;
  console.log(`build-dist: ${relative(root, out) || out}/ (${files.length + 1} files, ${(bytes / 1e6).toFixed(2)} MB), version ${version}`);
}

async function buildSingle() {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    fail('esbuild is not installed: run npm install');
  }
  const bundle = async (entry, format) => {
    const result = await esbuild.build({ entryPoints: [join(web, entry)], bundle: true, format, write: false, minify: true, charset: 'ascii', target: 'es2020', logLevel: 'error', legalComments: 'none' });
    return result.outputFiles[0].text;
  };
  const main = await bundle('src/main.js', 'esm');
  // Chromium refuses module workers from Blob URLs in a file:// page, so the worker is a classic
  // script (its dynamic import of the codec is inlined; the wasm is located by locateFile).
  const worker = await bundle('worker.js', 'iife');
  // One module inlined: the full module, which holds the view module's code too (worker.js).
  const wasm = readFileSync(join(web, 'gen/logscope-full.wasm')).toString('base64');
  const css = readFileSync(join(web, 'app.css'), 'utf8');
  for (const [name, text] of [['the page script', main], ['the worker', worker], ['app.css', css]]) {
    if (/<\/(script|style)/i.test(text) || text.includes('<!--')) fail(`${name} contains "</script", "</style" or "<!--" and cannot be inlined`);
  }
  // The worker's source and the wasm live in non-executed script elements; a small classic script
  // joins them into a Blob for the worker before the page's module script runs.
  const boot = `(function(){var t=function(id){return document.getElementById(id).textContent};` +
    `globalThis.LOGSCOPE_WORKER_TYPE='classic';globalThis.LOGSCOPE_WORKER_URL=URL.createObjectURL(new Blob(['self.LOGSCOPE_WASM_BASE64="',t('logscope-wasm').trim(),'";\\n',t('logscope-worker')],{type:'text/javascript'}));})();`;
  let html = readFileSync(join(web, 'index.html'), 'utf8');
  const replaceOnce = (from, to) => {
    if (!html.includes(from)) fail(`web/index.html no longer contains ${from}`);
    html = html.replace(from, () => to);
  };
  // A file:// page cannot be installed: no manifest (it would be a failed fetch).
  replaceOnce('<link rel="manifest" href="manifest.webmanifest">\n', '');
  replaceOnce('<link rel="stylesheet" href="app.css">', `<style>\n${css}</style>`);
  replaceOnce('<script type="module" src="src/main.js"></script>',
    `<script type="text/plain" id="logscope-worker">${worker}</script>\n` +
    `  <script type="application/octet-stream" id="logscope-wasm">${wasm}</script>\n` +
    `  <script>${boot}</script>\n` +
    `  <script type="module">${main}</script>`);
  replaceOnce('<title>logscope — robot log inspector</title>', '<title>logscope — robot log inspector (single file)</title>');
  // The page's policy names 'self', which a file:// page cannot use: here exactly the two inlined
  // scripts and the stylesheet are allowed by their hashes, so no other inline script can run.
  const sha = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  const policy = [
    "default-src 'none'", `script-src ${sha(boot)} ${sha(main)} 'wasm-unsafe-eval'`, 'worker-src blob:',
    'connect-src http: https: blob: data:', 'img-src data: blob:', `style-src ${sha(`\n${css}`)}`,
    "object-src 'none'", "base-uri 'none'", "form-action 'none'",
  ].join('; ');
  html = html.replace(/<meta http-equiv="Content-Security-Policy" content="[^"]*">/, () => `<meta http-equiv="Content-Security-Policy" content="${policy}">`);
  if (!html.includes(policy)) fail('web/index.html has no Content-Security-Policy meta to replace');
  mkdirSync(out, { recursive: true });
  const path = join(out, SINGLE_NAME);
  writeFileSync(path, html);
  console.log(`build-dist: ${relative(root, path)} (${(statSync(path).size / 1e6).toFixed(2)} MB: page ${(main.length / 1e3).toFixed(0)} KB, worker ${(worker.length / 1e3).toFixed(0)} KB, wasm ${(wasm.length / 1e6).toFixed(2)} MB base64)`);
}

if (args.includes('--single')) await buildSingle();
else await buildDist();
