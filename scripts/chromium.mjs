// How the tests, benchmarks and screenshots launch Debian's Chromium (through playwright-core).
export const CHROMIUM = '/usr/bin/chromium';

// Headless, no network of its own, no GPU. Headless Chromium also preloads its omnibox popups as
// WebUI pages, which then take about a tenth of a core all the time, and about 2.5 s of CPU at
// each new page: every browser test paid for them, so they are turned off.
export const CHROMIUM_ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup'];
