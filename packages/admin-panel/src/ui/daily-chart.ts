import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { h } from './dom';

export interface DailyChart {
  element: HTMLElement;
  destroy(): void;
}

const HEIGHT = 180;
const DAY_SECONDS = 86_400;

/** A colour of the stylesheet (canvas cannot read CSS variables), so charts follow light and dark mode. */
function cssColor(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#3451d1';
}

/**
 * One count per UTC day drawn as bars by uPlot, with the same numbers in a table for screen
 * readers. uPlot styles its elements through the CSSOM (`element.style.x = …`), which the
 * panel's `style-src 'self'` does not govern, and its stylesheet is bundled into the panel's own.
 */
export function dailyChart(
  title: string,
  days: readonly string[],
  values: readonly number[],
  color: string,
): DailyChart {
  const plot = h('div', { class: 'chart-plot', 'aria-hidden': 'true' });
  const total = values.reduce((sum, value) => sum + value, 0);
  const table = h(
    'table',
    { class: 'visually-hidden' },
    h('caption', {}, `${title} per day`),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Day'), h('th', { scope: 'col' }, title))),
    h(
      'tbody',
      {},
      ...days.map((day, index) => h('tr', {}, h('th', { scope: 'row' }, day), h('td', {}, values[index]))),
    ),
  );
  const element = h(
    'figure',
    { class: 'chart' },
    h(
      'figcaption',
      {},
      h('span', { class: 'chart-title' }, title),
      h('span', { class: 'chart-total' }, `${total} in 30 days`),
    ),
    plot,
    table,
  );
  const stroke = cssColor(color);
  const chart = new uPlot(
    {
      width: 320,
      height: HEIGHT,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      // The days are UTC days: label them as such whatever the browser's time zone.
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
      scales: {
        // Half a day on either side, so the first and the last bar are drawn whole.
        x: { time: true, range: (_u, min, max) => [min - DAY_SECONDS / 2, max + DAY_SECONDS / 2] },
        y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
      },
      axes: [
        { stroke: cssColor('--muted'), grid: { show: false }, ticks: { show: false }, space: 60 },
        { stroke: cssColor('--muted'), grid: { stroke: cssColor('--border') }, ticks: { show: false }, size: 40 },
      ],
      series: [
        {},
        {
          label: title,
          stroke,
          fill: `${stroke}55`,
          width: 1,
          paths: uPlot.paths.bars?.({ size: [0.7, 24] }),
          points: { show: false },
        },
      ],
    },
    [days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000 + DAY_SECONDS / 2), [...values]],
    plot,
  );
  // The chart takes the width its column gives it, now and whenever that changes.
  const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(200, plot.clientWidth), height: HEIGHT }));
  resize.observe(plot);
  return {
    element,
    destroy() {
      resize.disconnect();
      chart.destroy();
    },
  };
}
