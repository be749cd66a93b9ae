import type { Clock } from '@uas/domain';

export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}
