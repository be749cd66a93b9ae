/**
 * A timestamp for people, in local time as `2026-11-21 10:00`: short, unambiguous and
 * sortable by eye. The exact ISO value stays available to machines and on hover.
 */
export function formatTimestamp(iso: string): { text: string; iso: string } {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return { text: iso, iso };
  const day = `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
  return { text: `${day} ${two(date.getHours())}:${two(date.getMinutes())}`, iso };
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}

/** "30 seconds", "1 minute", "15 minutes": how long to wait before trying again. */
export function formatWait(seconds: number): string {
  if (seconds < 60) return plural(Math.max(1, Math.ceil(seconds)), 'second');
  return plural(Math.ceil(seconds / 60), 'minute');
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
