import fc from 'fast-check';
import { generateSync } from 'json-schema-faker';

/** The parts of an OpenAPI 3.1 document that requests are generated from. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
}

export interface Operation {
  operationId: string;
  parameters?: { name: string; in: 'path' | 'query' | 'header'; schema: Record<string, unknown> }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, unknown>;
  security?: Record<string, unknown>[];
  /** The admin roles allowed, on every operation that takes an admin's token. */
  'x-roles'?: string[];
  /** Takes any query parameter (an identity provider's callback). */
  'x-open-query'?: true;
}

export interface DocumentedOperation {
  method: string;
  template: string;
  operation: Operation;
}

export interface GeneratedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** `application/json` and `+json` types; NDJSON is lines of JSON, not a JSON document. */
const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

export const operationsOf = (document: OpenApiDocument): DocumentedOperation[] =>
  Object.entries(document.paths).flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), template, operation })),
  );

/** Whether the document gives this status (or its `4XX` range) among the operation's responses. */
export const documents = (operation: Operation, status: number) =>
  String(status) in operation.responses || `${String(status)[0]}XX` in operation.responses;

/** The error codes the document gives for this status of the operation. */
export function documentedCodes(operation: Operation, status: number): string[] {
  const response = operation.responses[String(status)] as
    | { content?: Record<string, { schema?: { allOf?: { properties?: unknown }[] } }> }
    | undefined;
  const narrowing = response?.content?.['application/json']?.schema?.allOf?.[1] as
    | { properties: { errors: { items: { properties: { code: { enum: string[] } } } } } }
    | undefined;
  return narrowing?.properties.errors.items.properties.code.enum ?? [];
}

/** The credentials a generated request may use; `ids` are users that exist. */
export interface Credentials {
  adminToken: string;
  userToken: string;
  metricsToken: string;
  ids: readonly string[];
}

function bearerFor({ template, operation }: DocumentedOperation, credentials: Credentials): string | undefined {
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes('metricsToken')) return credentials.metricsToken;
  if (!schemes.includes('bearer')) return undefined;
  return template.startsWith('/v1/admin/') ? credentials.adminToken : credentials.userToken;
}

/**
 * A request the document allows, its values sampled from the document's own schemas by
 * json-schema-faker (`seed` makes it repeatable): parameters, body, and the bearer token the
 * operation's security asks for. Path ids are existing users' or fresh UUIDs.
 */
export function validRequest(
  documented: DocumentedOperation,
  document: OpenApiDocument,
  credentials: Credentials,
  seed: number,
): GeneratedRequest {
  const { method, template, operation } = documented;
  const sample = (schema: Record<string, unknown>) =>
    generateSync({ ...schema, components: document.components }, { seed, optionalsProbability: 0.5 });
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  let path = template;
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === 'path') {
      const existing = credentials.ids[seed % (credentials.ids.length + 1)];
      path = path.replace(`{${parameter.name}}`, existing ?? String(sample(parameter.schema)));
    } else if (parameter.in === 'query' && seed % 3 !== 0) {
      query.set(parameter.name, String(sample(parameter.schema)));
    }
  }
  const bearer = bearerFor(documented, credentials);
  if (bearer !== undefined) headers.Authorization = `Bearer ${bearer}`;
  const content = operation.requestBody?.content ?? {};
  const [mediaType] = Object.keys(content);
  const body =
    mediaType === undefined
      ? undefined
      : isJson(mediaType)
        ? JSON.stringify(sample(content[mediaType]!.schema))
        : String(sample(content[mediaType]!.schema));
  if (mediaType !== undefined) headers['Content-Type'] = mediaType;
  const search = query.toString();
  return { method, path: search ? `${path}?${search}` : path, headers, ...(body === undefined ? {} : { body }) };
}

/** How a request is spoiled, each in a way the service must refuse with a 4xx. */
export type Spoiling =
  | { kind: 'unknown-parameter' }
  | { kind: 'malformed-id' }
  | { kind: 'malformed-json' }
  | { kind: 'wrong-content-type' }
  | { kind: 'random-body'; body: unknown }
  | { kind: 'no-credentials' };

/** The spoilings that apply to an operation: each breaks a rule the document states for it. */
export function spoilingsFor({ template, operation }: DocumentedOperation): fc.Arbitrary<Spoiling> {
  const json = Object.keys(operation.requestBody?.content ?? {}).some(isJson);
  const options: fc.Arbitrary<Spoiling>[] = [];
  if (!operation['x-open-query']) options.push(fc.constant({ kind: 'unknown-parameter' as const }));
  if (template.includes('{id}')) options.push(fc.constant({ kind: 'malformed-id' as const }));
  if (json && operation.requestBody?.required) {
    options.push(
      fc.constant({ kind: 'malformed-json' as const }),
      fc.constant({ kind: 'wrong-content-type' as const }),
      // A document that is not an object, or an object without `data`: never what the schema asks.
      fc
        .oneof(
          fc.jsonValue().filter((value) => typeof value !== 'object' || value === null),
          fc.array(fc.jsonValue()),
        )
        .map((body) => ({ kind: 'random-body' as const, body })),
    );
  }
  if ((operation.security ?? []).every((requirement) => Object.keys(requirement).length > 0) && operation.security) {
    options.push(fc.constant({ kind: 'no-credentials' as const }));
  }
  return fc.oneof(...options);
}

export function spoil(request: GeneratedRequest, spoiling: Spoiling): GeneratedRequest {
  const separator = request.path.includes('?') ? '&' : '?';
  switch (spoiling.kind) {
    case 'unknown-parameter':
      return { ...request, path: `${request.path}${separator}not_a_parameter=1` };
    case 'malformed-id':
      return { ...request, path: request.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/, 'not-a-uuid') };
    case 'malformed-json':
      return { ...request, body: '{"data": ' };
    case 'wrong-content-type':
      return { ...request, headers: { ...request.headers, 'Content-Type': 'text/plain' } };
    case 'random-body':
      return { ...request, body: JSON.stringify(spoiling.body) };
    case 'no-credentials': {
      const { Authorization: _, ...headers } = request.headers;
      return { ...request, headers };
    }
  }
}

export async function send(baseUrl: string, { method, path, headers, body }: GeneratedRequest): Promise<Response> {
  try {
    // A redirect is the operation's own answer; where it leads is another operation's.
    const init = { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(15_000) } as const;
    return await fetch(`${baseUrl}${path}`, init);
  } catch (error) {
    throw new Error(`${method} ${path} ${JSON.stringify(headers)} ${body?.slice(0, 200) ?? ''}: ${error}`);
  }
}
