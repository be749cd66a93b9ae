import { randomUUID } from 'node:crypto';
import type { IdGenerator } from '@uas/domain';

/** Random (v4) UUIDs: unguessable, so an id reveals nothing about other accounts. */
export class RandomIdGenerator implements IdGenerator {
  next(): string {
    return randomUUID();
  }
}
