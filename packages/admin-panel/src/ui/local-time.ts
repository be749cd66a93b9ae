/** `datetime-local` shows local time without a zone: these convert to and from the API's UTC. */
export const toLocalInput = (iso: string): string => {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return '';
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

export const fromLocalInput = (value: string): string => (value ? new Date(value).toISOString() : '');
