import { token } from './token.ts';

/** Produces new resource ids: lowercase UUID strings. */
export interface IdGenerator {
  next(): string;
}
export const IdGenerator = token<IdGenerator>('IdGenerator');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
