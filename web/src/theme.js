// The theme switch: system (follow prefers-color-scheme), light or dark, remembered across visits.
// The choice is <html data-theme>; app.css holds both palettes.
const KEY = 'logscope.theme';
const THEMES = ['system', 'light', 'dark'];

function stored() {
  try {
    const value = localStorage.getItem(KEY);
    return value !== null && THEMES.includes(value) ? value : 'system';
  } catch {
    return 'system';  // storage blocked (file://, privacy settings): the system theme
  }
}

/** @param {string} theme */
function apply(theme) {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

/** @param {HTMLSelectElement | null} select */
export function startTheme(select) {
  const theme = stored();
  apply(theme);
  if (!select) return;
  select.value = theme;
  select.addEventListener('change', () => {
    apply(select.value);
    try { localStorage.setItem(KEY, select.value); } catch { /* not remembered, still applied */ }
  });
}
