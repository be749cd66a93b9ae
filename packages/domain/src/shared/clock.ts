import { token } from './token.ts';

export interface Clock {
  now(): Date;
}
export const Clock = token<Clock>('Clock');

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}
