import { isJsonObject, type JsonObject } from '@uas/domain';
import * as v from 'valibot';
import { resourceConflict } from '../errors/http-problem';

/** Wire types with messages of our own (valibot's defaults quote the input). */
export const text = () => v.string('must be a string');
export const numeric = () => v.number('must be a number');
export const jsonObject = () => v.custom<JsonObject>(isJsonObject, 'must be a JSON object (not an array or null)');

/** A JSON object, not an array (valibot's object schemas would take `[]` for `{}`). */
const anObject = () => v.custom<Record<string, unknown>>(isJsonObject, 'must be an object');

/** An object with the listed entries; others are ignored. */
export const openObject = <E extends v.ObjectEntries>(entries: E) => v.pipe(anObject(), v.object(entries));

/** Keys valibot's object schemas skip without a word, which must still count as unknown. */
const SKIPPED_KEYS = ['__proto__', 'constructor', 'prototype'];

/** An object whose every key not listed is one 422 of its own. */
export const closedObject = <E extends v.ObjectEntries>(entries: E, what: string) =>
  v.pipe(
    anObject(),
    v.rawCheck<Record<string, unknown>>(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const input = dataset.value;
      for (const key of SKIPPED_KEYS.filter((name) => Object.hasOwn(input, name) && !Object.hasOwn(entries, name))) {
        const path = [{ type: 'object', origin: 'value', input, key, value: input[key] }] as const;
        addIssue({ message: `${key} is not an allowed ${what}`, path: [...path] });
      }
    }),
    v.objectWithRest(entries, v.never(`is not an allowed ${what}`)),
  );

/** The resource type a document names unless told otherwise. */
const RESOURCE_TYPE = 'users';

/** Any string passes the shape check; the document names the one type that is not a conflict. */
const resourceType = (type: string) => v.pipe(text(), v.metadata({ enum: [type] }));

/**
 * `{ data: { type, id?, attributes } }`. Only the shape is checked here; a `type` other than
 * `type` (`users` unless told) or an `id` other than the path's is a conflict (409), found before
 * validation.
 */
export const resourceDocument = <A extends v.GenericSchema>(attributes: A, type = RESOURCE_TYPE) =>
  openObject({ data: closedObject({ type: resourceType(type), attributes }, 'member of data') });

/** The same, for an existing resource: `data.id` may repeat the path's id. */
export const identifiedResourceDocument = <A extends v.GenericSchema>(attributes: A, type = RESOURCE_TYPE) =>
  openObject({
    data: closedObject({ type: resourceType(type), id: v.optional(text()), attributes }, 'member of data'),
  });

/** 409 when the document names another type than `type`, or another resource than the path does. */
export function assertResourceIdentity(body: unknown, pathId?: string, type = RESOURCE_TYPE): void {
  const data = isJsonObject(body) ? body.data : undefined;
  if (!isJsonObject(data)) return;
  if (typeof data.type === 'string' && data.type !== type) {
    throw resourceConflict('/data/type', `data.type must be "${type}"`);
  }
  if (pathId !== undefined && typeof data.id === 'string' && data.id !== pathId) {
    throw resourceConflict('/data/id', 'data.id must equal the id in the path');
  }
}
