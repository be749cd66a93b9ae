import * as v from 'valibot';
import { closedObject } from './json-api.schemas';
import { parseWith } from './validation';

export const replaySinceBodySchema = closedObject(
  {
    since: v.pipe(
      v.number('must be a whole number'),
      v.integer('must be a whole number'),
      v.minValue(1, 'must be 1 or more'),
      v.description("The first event's number (`data.sequence`): every event from it on is delivered again."),
    ),
  },
  'member',
);
export const parseReplaySince = (body: unknown): { since: number } => parseWith(replaySinceBodySchema, body);
