// Problems: the doctor's findings (the summary's, then the full check's), each linked to its
// bytes, the "Run full check" button, and the count on the tab.
import { $, h, clear } from '../dom.js';
import { renderProblems, problemCounts, recoveryCallout } from '../problems.js';

export function problemsTab(app) {
  let session = null;

  function card() {
    const recovery = recoveryCallout(session.report || {}, { onRepair: () => app.tabs.get('extract')?.repair() });
    if (recovery) recovery.id = 'recovery';
    renderProblems($('#problems-card'), {
      problems: session.report?.problems || [], checked: session.checked, recovery, checking: session.checking,
      onJump: (offset) => app.tabs.get('explore').jumpTo(offset),
      onCheck: () => session.runCheck(),
    });
  }

  function badge() {
    const counts = problemCounts(session.report?.problems);
    const total = counts.error + counts.warning + counts.info;
    const node = $('#problem-badge');
    node.textContent = total ? String(total) : '';
    node.className = `badge tone-${counts.error ? 'bad' : counts.warning ? 'warn' : 'ok'}`;
  }

  return {
    name: 'problems',
    label: 'Problems',

    open(opened) {
      session = opened;
      clear($('#problems-card'));
      $('#problem-badge').textContent = '';
      session.on('unknown', () => {
        clear($('#problems-card')).append(h('div.card-head', {}, h('h3', {}, 'Problems')),
          h('p.muted', {}, 'The format was not recognised, so there is nothing to validate. The diagnosis is on the Overview tab.'));
      });
      session.on('summary', () => { card(); badge(); });
      session.on('checking', card);
      session.on('report', () => { card(); badge(); });
    },
  };
}
