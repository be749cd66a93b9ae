import * as v from 'valibot';
import { closedObject } from './json-api.schemas';
import { parseWith } from './validation';

export const replaySinceBodySchema = closedObject(
  {
    since: v.pipe(
      v.number('must be a whole number'),
      // Validation details are shown as they are, so they name their attribute.
      v.integer('since must be a whole number'),
      v.minValue(1, 'since must be 1 or more'),
      // Beyond this a number is no longer exact, and no event sequence gets there.
      v.maxValue(Number.MAX_SAFE_INTEGER, `since must be at most ${Number.MAX_SAFE_INTEGER}`),
      v.description("The first event's number (`data.sequence`): every event from it on is delivered again."),
    ),
  },
  'member',
);
export const parseReplaySince = (body: unknown): { since: number } => parseWith(replaySinceBodySchema, body);
