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
