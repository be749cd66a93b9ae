const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A timestamp for people; the exact ISO value stays available to machines and on hover. */
export function formatTimestamp(iso: string): { text: string; iso: string } {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? { text: iso, iso } : { text: dateTime.format(date), iso };
}

/** "30 seconds", "1 minute", "15 minutes": how long to wait before trying again. */
export function formatWait(seconds: number): string {
  if (seconds < 60) return plural(Math.max(1, Math.ceil(seconds)), 'second');
  return plural(Math.ceil(seconds / 60), 'minute');
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
