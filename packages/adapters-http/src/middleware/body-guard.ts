import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../app-env';
import { malformedJson, payloadTooLarge, unsupportedMediaType } from '../errors/http-problem';

export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_MEDIA_TYPES = new Set(['application/json', 'application/vnd.api+json']);
const WRITES = new Set(['POST', 'PATCH', 'PUT']);

/** `application/json` or `application/vnd.api+json`, with at most a UTF-8 charset parameter. */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const [mediaType = '', ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
  return JSON_MEDIA_TYPES.has(mediaType) && parameters.every((parameter) => /^(charset="?utf-8"?)?$/.test(parameter));
}

/**
 * Whether the request carries body bytes. Node hands every POST/PATCH/DELETE a body stream, even
 * an empty one, so without a Content-Length the (size-limited) body is read to find out.
 */
async function hasBody(c: Context<AppEnv>): Promise<boolean> {
  const length = c.req.header('content-length');
  if (length !== undefined && c.req.header('transfer-encoding') === undefined) return Number(length) > 0;
  if (c.req.raw.body === null) return false;
  return (await c.req.arrayBuffer()).byteLength > 0;
}

/**
 * Every request body, whatever the route: at most 1 MiB (413), JSON by content type (415) and by
 * syntax (400; an empty POST or PATCH body declared as JSON is not JSON either). The parsed document is kept
 * for the route's schema.
 */
export function bodyGuard(): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw payloadTooLarge(MAX_BODY_BYTES);
    },
  });
  return (c, next) =>
    limit(c, async () => {
      const declaredJson = isJsonContentType(c.req.header('content-type'));
      if (!(await hasBody(c))) {
        // A POST or PATCH that declares JSON must send some; clients that put the header on
        // every GET or DELETE are not punished for it.
        if (declaredJson && WRITES.has(c.req.method)) throw malformedJson();
      } else {
        if (!declaredJson) throw unsupportedMediaType();
        try {
          c.set('jsonBody', await c.req.json());
        } catch {
          throw malformedJson();
        }
      }
      await next();
    });
}
