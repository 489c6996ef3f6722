// The Overview's line about the diagnostics: how many components reached each bad level ("2 of 14
// components reached ERROR, 1 WARN") with a link to the first ERROR, which moves the timeline's
// cursor there and shows the Diagnostics tab. The count asks the diagnostics query for each
// component's worst level only (no runs, no key/values); views/overview-line.js says when.
// @logscope-first-use: its count runs on the full module, so it is fetched when a file has
// diagnostics, as that module is (build-dist.mjs).
import { h, formatCount } from '../dom.js';
import { renderOverviewLine } from './overview-line.js';

const BAD_LEVELS = ['ERROR', 'STALE', 'WARN'];

/**
 * "2 of 14 components reached ERROR, 1 STALE, 3 WARN" from the components' worst levels; null when all were OK.
 * @param {{worst: string, had_unknown: boolean}[]} components
 */
export function worstSummary(components) {
  const parts = BAD_LEVELS.map((level) => [level, components.filter((c) => c.worst === level).length])
    .filter(([, n]) => n).map(([level, n], i) => (i ? `${formatCount(Number(n))} ${level}` : `${formatCount(Number(n))} of ${formatCount(components.length)} ${components.length === 1 ? 'component' : 'components'} reached ${level}`));
  const unknown = components.filter((c) => c.had_unknown).length;
  if (unknown) parts.push(`${formatCount(unknown)} gave a level no name fits`);
  return parts.length ? parts.join(', ') : null;
}

/**
 * @param {HTMLElement} slot
 * @param {import('../session.js').Session} session
 * @param {{topic: string}[]} topics the diagnostics topics, from the index
 * @param {{onShow: (time: bigint | null) => void}} options
 */
export function renderDiagnosticsLine(slot, session, topics, { onShow }) {
  const names = topics.map((t) => t.topic).join(', ');
  return renderOverviewLine(slot, session, {
    id: 'diag-line', title: 'Diagnostics', counting: `reading ${names}…`,
    ask: { id: 'diag-count', label: 'Read the diagnostics', note: `${names} (reads every diagnostics message of this big or remote file)` },
    count: async () => {
      await session.result(session.ensureJobs(undefined, { full: true }));
      const result = /** @type {import('./diagnostics.js').DiagnosticsResult} */ (await session.result(session.jobs.call('fullQuery', { name: 'diagnostics', args: { max_runs: 0, no_values: true } })));
      if (result.error) throw new Error(result.error);
      if (result.cancelled) throw new Error('cancelled');
      const summary = worstSummary(result.components);
      const errors = result.findings.filter((f) => f.code === 'diagnostics.component.error' && f.time_ns !== null).map((f) => BigInt(/** @type {string} */ (f.time_ns)));
      const first = errors.length ? errors.reduce((a, b) => (b < a ? b : a)) : null;
      const all = result.component_count;
      return {
        data: { components: String(all), messages: String(result.messages) },
        nodes: [h('span', {}, summary ?? (all ? `all ${formatCount(all)} ${all === 1 ? 'component' : 'components'} stayed OK` : 'no component statuses')),
          h('span.muted', {}, ` in ${formatCount(result.messages)} ${result.messages === 1 ? 'message' : 'messages'} (${names})${result.undecoded ? `; ${formatCount(result.undecoded)} not read (damaged)` : ''}. `),
          first !== null ? h('button.link#diag-first-error', { type: 'button', onclick: () => onShow(first) }, 'First ERROR ›')
            : h('button.link#diag-open', { type: 'button', onclick: () => onShow(null) }, 'Show the diagnostics ›')],
      };
    },
  });
}
