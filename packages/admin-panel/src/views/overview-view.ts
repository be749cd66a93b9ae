import { isAbort } from '@uas/client';
import type { Overview } from '../api/account-api';
import { dailyChart, type DailyChart } from '../ui/daily-chart';
import { h } from '../ui/dom';
import { errorState } from '../ui/error-state';
import { appHeader } from './app-header';
import type { ScreenContext, View } from './view';
import { webhooksNotice } from './webhooks-notice';

const SERIES = [
  ['Sign-ups', 'signups', '--accent'],
  ['Successful logins', 'logins', '--ok'],
  ['Failed logins', 'failed_logins', '--danger'],
] as const;

/** The landing page: how many users there are, and the last 30 days at a glance. */
export function overviewView(context: ScreenContext): View {
  const heading = h('h1', { tabindex: -1 }, 'Overview');
  const body = h('div', { class: 'overview', 'aria-busy': 'true' }, h('p', { class: 'loading' }, 'Loading…'));
  const abort = new AbortController();
  let charts: DailyChart[] = [];
  const notice = h('div', { class: 'notice-slot' });

  /** An owner is told here, where they land, when the service disabled a webhook endpoint. */
  async function checkWebhooks(): Promise<void> {
    if (!context.can('settings.manage')) return;
    try {
      notice.replaceChildren(webhooksNotice(await context.webhooks.list(abort.signal), context.navigate) ?? '');
    } catch {
      // The Webhooks page says what failed; the overview stands without the notice.
    }
  }

  async function load(): Promise<void> {
    body.setAttribute('aria-busy', 'true');
    try {
      show(await context.accounts.overview(abort.signal));
    } catch (error) {
      if (isAbort(error)) return;
      body.replaceChildren(errorState('Could not load the overview', error, () => void load()));
    } finally {
      body.setAttribute('aria-busy', 'false');
    }
  }

  function show({ users, days }: Overview): void {
    for (const chart of charts) chart.destroy();
    const dayNames = days.map((entry) => entry.day);
    charts = SERIES.map(([title, key, color]) =>
      dailyChart(
        title,
        dayNames,
        days.map((entry) => entry[key]),
        color,
      ),
    );
    body.replaceChildren(
      h(
        'section',
        { class: 'stat-cards', 'aria-label': 'Users' },
        statCard('Users', users.total, 'total'),
        statCard('Active', users.active, 'on'),
        statCard('Deactivated', users.deactivated, 'off'),
      ),
      h(
        'section',
        { class: 'charts', 'aria-labelledby': 'activity-title' },
        h('h2', { id: 'activity-title' }, 'Last 30 days'),
        h('div', { class: 'chart-grid' }, ...charts.map((chart) => chart.element)),
      ),
    );
  }

  void load();
  void checkWebhooks();
  return {
    element: h(
      'div',
      { class: 'shell' },
      appHeader(context, 'overview'),
      h('main', { class: 'page' }, heading, notice, body),
    ),
    destroy() {
      abort.abort();
      for (const chart of charts) chart.destroy();
    },
  };
}

function statCard(label: string, value: number, tone: string): HTMLElement {
  return h(
    'div',
    { class: `stat-card ${tone}` },
    h('span', { class: 'stat-label' }, label),
    h('span', { class: 'stat-value' }, value.toLocaleString('en')),
  );
}
