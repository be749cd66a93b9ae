import { token } from './token.ts';

export interface Clock {
  now(): Date;
}
export const Clock = token<Clock>('Clock');

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}

/** Whole seconds since the Unix epoch, as a JWT's `iat` and `exp` write an instant. */
export function epochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

/** The instant an ISO 8601 UTC timestamp (`2026-11-21T10:05:12.345Z`) names, or null for anything else. */
export function isoTimestamp(value: unknown): Date | null {
  if (typeof value !== 'string' || !ISO_UTC.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
