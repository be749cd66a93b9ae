import type { ApiErrorCode } from '../errors/error-catalogue';
import { REFRESH_COOKIE, REFRESH_COOKIE_PATH } from '../session/refresh-cookie';
import { errorExamples, errorResponses, EVERY_ROUTE_ERRORS, headerRefs } from './error-responses';
import { componentSchemas, jsonSchemaOf } from './json-schema';
import { descriptionOf, type RouteDescription, type RouteFragment } from './route-description';

/** A route as Hono lists it: one entry per handler, middleware included. */
export interface ListedRoute {
  method: string;
  path: string;
  handler: unknown;
}

export interface ApiRoute {
  method: string;
  /** The path as OpenAPI writes it: `{id}` for Hono's `:id`. */
  path: string;
  description: RouteDescription | undefined;
  fragments: RouteFragment[];
  page: boolean;
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z_]\w*)/g, '{$1}');

/** The app's routes, each with what its handlers say about it; middleware for every method is left out. */
export function apiRoutes(routes: readonly ListedRoute[]): ApiRoute[] {
  const byRoute = new Map<string, ApiRoute>();
  for (const { method, path, handler } of routes) {
    if (method === 'ALL') continue;
    const key = `${method} ${path}`;
    const route = byRoute.get(key) ?? {
      method,
      path: openApiPath(path),
      description: undefined,
      fragments: [],
      page: false,
    };
    byRoute.set(key, route);
    const described = descriptionOf(handler);
    if (described?.kind === 'route') route.description = described.route;
    if (described?.kind === 'fragment') route.fragments.push(described.fragment);
    if (described?.kind === 'page') route.page = true;
  }
  return [...byRoute.values()];
}

const JSON_MEDIA_TYPES = ['application/json', 'application/vnd.api+json'];

function requestBody(body: NonNullable<RouteDescription['body']>) {
  const schema = body.schema === undefined ? { type: 'string', minLength: 1 } : jsonSchemaOf(body.schema);
  const mediaTypes = body.mediaType === undefined ? JSON_MEDIA_TYPES : [body.mediaType];
  const example = body.example === undefined ? {} : { example: body.example };
  return {
    required: !body.optional,
    ...(body.description === undefined ? {} : { description: body.description }),
    content: Object.fromEntries(mediaTypes.map((type) => [type, { schema, ...example }])),
  };
}

function successResponses(responses: RouteDescription['responses']) {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const content =
        response.schema !== undefined
          ? { 'application/json': { schema: jsonSchemaOf(response.schema), ...exampleOf(response.example) } }
          : response.mediaType !== undefined
            ? { [response.mediaType]: { schema: { type: 'string' }, ...exampleOf(response.example) } }
            : undefined;
      return [
        status,
        {
          description: response.description,
          headers: headerRefs(response.headers ?? []),
          ...(content === undefined ? {} : { content }),
        },
      ];
    }),
  );
}

const exampleOf = (example: unknown) => (example === undefined ? {} : { example });

function operation({ description: route, fragments }: ApiRoute & { description: RouteDescription }) {
  const pathParameters = fragments.flatMap((fragment) => fragment.pathParameters ?? []);
  const parameters = [
    ...pathParameters.map((parameter) => ({ in: 'path', required: true, ...parameter })),
    ...(route.query ?? []).map((parameter) => ({ in: 'query', required: false, ...parameter })),
    ...(route.headers ?? []).map((parameter) => ({
      in: 'header',
      required: false,
      schema: { type: 'string' },
      ...parameter,
    })),
  ];
  const security = fragments.find((fragment) => fragment.security)?.security ?? route.security;
  const roles = fragments.find((fragment) => fragment.roles)?.roles;
  const errors: ApiErrorCode[] = [
    ...EVERY_ROUTE_ERRORS,
    ...fragments.flatMap((fragment) => fragment.errors ?? []),
    ...(route.body?.schema === undefined ? [] : (['invalid_attribute'] as const)),
    ...(route.errors ?? []),
  ];
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    tags: route.tags,
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(security === undefined ? {} : { security }),
    ...(roles === undefined ? {} : { 'x-roles': roles }),
    // Takes any query parameter besides those listed (another party shapes the query).
    ...(route.openQuery ? { 'x-open-query': true } : {}),
    ...(route.body === undefined ? {} : { requestBody: requestBody(route.body) }),
    responses: { ...successResponses(route.responses), ...errorResponses(errors) },
  };
}

const header = (description: string, schema: Record<string, unknown> = { type: 'string' }) => ({ description, schema });

export interface DocumentInfo {
  version: string;
}

/** OpenAPI 3.1 for every described route of the app, built from the routes' own descriptions and schemas. */
export function openApiDocument(routes: readonly ListedRoute[], { version }: DocumentInfo) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of apiRoutes(routes)) {
    if (route.description === undefined) continue;
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation({ ...route, description: route.description });
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'User account service',
      version,
      description: [
        'Accounts, sessions and tokens for an application and its administrators. Bodies follow JSON:API;',
        'every error is a JSON:API error document whose `code` is stable. A query parameter that an',
        'endpoint does not list is refused with 400 `invalid_parameter`; a known path called with a',
        'method it does not serve answers 405 `method_not_allowed` with an `Allow` header.',
        'The `Allow` header lists the methods the path serves, HEAD wherever GET; a literal path is matched before a templated one.',
      ].join(' '),
    },
    servers: [{ url: '/' }],
    tags: [
      {
        name: 'Admin session',
        description: 'Administrator login, refresh and logout; the panel keeps the refresh token in a cookie.',
      },
      { name: 'Admin users', description: 'User management with an admin access token.' },
      { name: 'Mail', description: 'The outbox: messages the service has queued, and their delivery.' },
      {
        name: 'Webhooks',
        description: "Endpoints that receive the audit trail's events, signed to the Standard Webhooks specification.",
      },
      { name: 'User session', description: 'End-user login, refresh and revocation.' },
      { name: 'Own account', description: "A user's own account, with a user access token." },
      {
        name: 'Identity providers',
        description:
          'Signing in with another identity provider (OpenID Connect, GitHub, Google, Microsoft, Apple), with PKCE.',
      },
      {
        name: 'OAuth clients',
        description:
          'The applications that sign their users in through this service (OpenID Connect), with once-shown secrets.',
      },
      { name: 'Operations', description: 'Keys, health, readiness, metrics and this document.' },
    ],
    paths,
    components: {
      schemas: componentSchemas(),
      examples: errorExamples(),
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'An access token from a login or refresh: an admin token on admin routes, a user token on the others.',
        },
        refreshCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: REFRESH_COOKIE,
          description: `The admin refresh token, set by admin login and refresh (HttpOnly, SameSite=Strict, Path=${REFRESH_COOKIE_PATH}).`,
        },
        metricsToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The token the operator configured for scrapers.',
        },
      },
      headers: {
        'X-Request-Id': header('Names this request in the logs; echoes the one the client sent, if any.'),
        Location: header('The URL of the created resource, or where a redirect leads.'),
        ETag: header("The resource's version, as a strong entity tag; send it back in If-Match."),
        'Retry-After': header('Seconds to wait before trying again.', { type: 'integer' }),
        'WWW-Authenticate': header('A Bearer challenge (RFC 6750).'),
        'Set-Cookie': header(
          'A cookie set or cleared: the admin refresh cookie, or `uas_oauth`, which binds a sign-in with an identity provider to the browser.',
        ),
        'Content-Disposition': header('Names the file to save the body as.'),
        Allow: header('The methods this path serves.'),
      },
    },
  };
}
