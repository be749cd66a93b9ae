import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { incompleteBody, malformedJson, payloadTooLarge, unsupportedMediaType } from '../errors/http-problem';

/** What an HTML form posts when it works without script, and what the `/account/` pages read. */
const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_MEDIA_TYPES = new Set(['application/json', 'application/vnd.api+json']);
const FORM_MEDIA_TYPES = new Set([FORM_MEDIA_TYPE]);
const WRITES = new Set(['POST', 'PATCH', 'PUT']);

/** `header` names one of `mediaTypes`, with at most a UTF-8 charset parameter. */
function isContentType(header: string | undefined, mediaTypes: ReadonlySet<string>): boolean {
  if (header === undefined) return false;
  const [mediaType = '', ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
  return mediaTypes.has(mediaType) && parameters.every((parameter) => /^(charset="?utf-8"?)?$/.test(parameter));
}

/** `application/json` or `application/vnd.api+json`, with at most a UTF-8 charset parameter. */
export const isJsonContentType = (header: string | undefined) => isContentType(header, JSON_MEDIA_TYPES);

/**
 * How much of a body over the limit is still read, and thrown away, before the 413 is sent. A
 * client writes its whole body before it reads the answer: had the connection closed with the
 * body unread, the client's next write would fail (EPIPE, a reset) and it would never see the
 * 413. A body beyond this bound is cut off: the connection closes without reading the rest.
 */
export const MAX_DISCARDED_BODY_BYTES = 16 * MAX_BODY_BYTES;

const NO_BYTES = new Uint8Array(0);

/**
 * Whether the request certainly has no body, known without asking for it: a GET or HEAD (whose
 * body the server never passes on), or a request whose head declares neither a length nor a
 * chunked body. Asking for the body builds the whole fetch `Request` behind the lightweight one
 * the server hands over, a cost every GET would pay for nothing.
 */
function hasNoBody(c: Context<AppEnv>): boolean {
  const { method } = c.req;
  if (method === 'GET' || method === 'HEAD') return true;
  const head = c.env?.incoming?.headers;
  return head !== undefined && head['content-length'] === undefined && head['transfer-encoding'] === undefined;
}

interface BodyReader {
  read(): Promise<IteratorResult<Uint8Array>>;
  cancel(): Promise<unknown>;
}

/**
 * The body as it arrives: from Node's own request where the server hands it over and nothing has
 * read it yet. Asking Hono for the body builds the whole fetch Request behind its lightweight one
 * and a web stream over Node's request, 5 % of a PATCH's time (issue 29). Elsewhere (a test
 * through app.request, another runtime) from the fetch body.
 */
function bodyReader(c: Context<AppEnv>): BodyReader | null {
  const incoming = c.env?.incoming;
  const iterate = incoming?.[Symbol.asyncIterator];
  if (iterate && incoming?.readableFlowing === null) {
    const chunks = iterate.call(incoming);
    // Ending the iteration destroys the request, as cancelling the web stream over it does.
    return { read: () => chunks.next(), cancel: async () => chunks.return?.() };
  }
  return c.req.raw.body?.getReader() ?? null;
}

/** The request's body bytes (empty when it has none), or 413 once an oversized body has been read. */
async function readBody(c: Context<AppEnv>): Promise<Uint8Array> {
  if (hasNoBody(c)) return NO_BYTES;
  if (Number(c.req.header('content-length')) > MAX_DISCARDED_BODY_BYTES) throw payloadTooLarge(MAX_BODY_BYTES);
  const reader = bodyReader(c);
  if (reader === null) return NO_BYTES;
  // A body stream fails when the client goes mid-body or breaks its chunked encoding: the client's
  // fault, answered (if anyone still listens) and counted as a 400, not an unexpected 500.
  const read = () => reader.read().catch(() => Promise.reject(incompleteBody()));
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = await read(); !chunk.done; chunk = await read()) {
    size += chunk.value.byteLength;
    if (size > MAX_DISCARDED_BODY_BYTES) {
      await reader.cancel();
      throw payloadTooLarge(MAX_BODY_BYTES);
    }
    if (size <= MAX_BODY_BYTES) chunks.push(chunk.value);
  }
  if (size > MAX_BODY_BYTES) throw payloadTooLarge(MAX_BODY_BYTES);
  const bytes = new Uint8Array(size);
  chunks.reduce((offset, chunk) => (bytes.set(chunk, offset), offset + chunk.byteLength), 0);
  return bytes;
}

/**
 * Every request body, whatever the route: at most 1 MiB (413), JSON by content type (415) and by
 * syntax (400; an empty POST or PATCH body declared as JSON is not JSON either). The parsed
 * document is kept for the route's schema. A POST to one of `streamedPaths` is left to its route,
 * which reads the body as a stream and checks its type and size itself. A POST to one of
 * `formPaths` (the pages' forms, which browsers send without script) must be a URL-encoded form
 * instead, kept parsed as `formBody`; nothing else changes for them, and JSON stays the only body
 * every other path takes.
 */
export function bodyGuard({
  streamedPaths = [],
  formPaths = [],
  formPathPatterns = [],
}: {
  streamedPaths?: readonly string[];
  formPaths?: readonly string[];
  /** Form paths with a parameter in them (an identity provider's callback, an authorization's pages). */
  formPathPatterns?: readonly RegExp[];
} = {}): MiddlewareHandler<AppEnv> {
  const streamed = new Set(streamedPaths);
  const forms = new Set(formPaths);
  const isForm = (path: string) => forms.has(path) || formPathPatterns.some((pattern) => pattern.test(path));
  return async (c, next) => {
    if (streamed.has(c.req.path) && c.req.method === 'POST') return next();
    if (isForm(c.req.path) && c.req.method === 'POST') {
      if (!isContentType(c.req.header('content-type'), FORM_MEDIA_TYPES)) throw unsupportedMediaType(FORM_MEDIA_TYPE);
      c.set('formBody', new URLSearchParams(new TextDecoder().decode(await readBody(c))));
      return next();
    }
    const declaredJson = isJsonContentType(c.req.header('content-type'));
    const bytes = await readBody(c);
    if (bytes.byteLength === 0) {
      // A POST or PATCH that declares JSON must send some; clients that put the header on
      // every GET or DELETE are not punished for it.
      if (declaredJson && WRITES.has(c.req.method)) throw malformedJson();
    } else {
      if (!declaredJson) throw unsupportedMediaType();
      try {
        c.set('jsonBody', JSON.parse(new TextDecoder().decode(bytes)));
      } catch {
        throw malformedJson();
      }
    }
    await next();
  };
}
