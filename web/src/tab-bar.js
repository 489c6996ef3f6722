// The tab bar: a button and a panel per tab (#tab-<name>, #panel-<name>, made here when
// index.html has none), arrow keys between the buttons, and the shown tab kept in the link.
// A tab (tabs/index.js) is {name, label, open(session), show(), hide(), restore(view), view()},
// each part optional but the name.
import { $, h } from './dom.js';

export class TabBar {
  constructor(tabs, { links }) {
    this.tabs = tabs;
    this.links = links;
    for (const tab of tabs) this.markup(tab);
    const buttons = () => [...document.querySelectorAll(/** @type {'button'} */ ('[role=tab]'))];
    for (const button of buttons()) {
      button.addEventListener('click', () => this.select(button.dataset.tab));
      button.addEventListener('keydown', (e) => {
        const all = buttons();
        const i = all.indexOf(button);
        const next = e.key === 'ArrowRight' ? all[(i + 1) % all.length] : e.key === 'ArrowLeft' ? all[(i + all.length - 1) % all.length] : null;
        if (next) { e.preventDefault(); this.select(next.dataset.tab); next.focus(); }
      });
    }
    this.select(tabs[0].name);
  }

  markup(tab) {
    if ($(`#tab-${tab.name}`)) return;
    $('nav.tabs').append(h('button', { type: 'button', role: 'tab', id: `tab-${tab.name}`, dataset: { tab: tab.name }, 'aria-controls': `panel-${tab.name}` }, tab.label || tab.name));
    $('#workspace').append(h('div.panel', { role: 'tabpanel', id: `panel-${tab.name}`, 'aria-labelledby': `tab-${tab.name}`, hidden: true }));
  }

  get(name) { return this.tabs.find((tab) => tab.name === name); }
  get selected() { return $('[role=tab][aria-selected=true]')?.dataset.tab; }

  select(name) {
    if (!this.get(name)) return;
    for (const tab of this.tabs) {
      const on = tab.name === name;
      const button = $(`#tab-${tab.name}`);
      button.setAttribute('aria-selected', String(on));
      button.tabIndex = on ? 0 : -1;
      $(`#panel-${tab.name}`).hidden = !on;
    }
    for (const tab of this.tabs) (tab.name === name ? tab.show : tab.hide)?.call(tab);
    this.links.update({ tab: name === this.tabs[0].name ? null : name }); // the first tab is the default
  }

  // Each tab's part of a new file, and of the view a link carries.
  open(session) { for (const tab of this.tabs) tab.open?.(session); }
  async restore(view) { for (const tab of this.tabs) await tab.restore?.(view); }
  view() { return Object.assign({ tab: this.selected }, ...this.tabs.map((tab) => tab.view?.() || {})); }
}
