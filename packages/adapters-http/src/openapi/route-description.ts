import type { AdminRole } from '@uas/domain';
import type { MiddlewareHandler } from 'hono';
import type { GenericSchema } from 'valibot';
import type { AppEnv } from '../app-env';
import type { ApiErrorCode } from '../errors/error-catalogue';
import { rejectUnknownParameters } from '../schemas/query-string';

/** The response headers the document describes once, in components, and operations name. */
type ResponseHeader = 'Location' | 'ETag' | 'Retry-After' | 'Set-Cookie' | 'Content-Disposition';

interface ResponseDescription {
  description: string;
  /** The JSON body's schema; with `mediaType`, the body is that type's text. Neither: no body. */
  schema?: GenericSchema;
  mediaType?: string;
  headers?: readonly ResponseHeader[];
  example?: unknown;
}

/** A query parameter: its rules live in the parser that reads it; this is their description. */
export interface QueryParameter {
  name: string;
  description: string;
  schema: Record<string, unknown>;
}

type SecurityScheme = 'bearer' | 'refreshCookie' | 'metricsToken';

/** What the API document says about one route: written beside the route, and enforced in part. */
export interface RouteDescription {
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  /** Each alternative is enough; `{}` among them makes authentication optional. */
  security?: readonly Partial<Record<SecurityScheme, []>>[];
  /** Every query parameter the route reads; any other is refused with 400 `invalid_parameter`. */
  query?: readonly QueryParameter[];
  /**
   * The query is another party's to shape, and every parameter is taken as it comes: an identity
   * provider's callback adds its own (`iss`, `scope`, `authuser`…).
   */
  openQuery?: true;
  /** Request headers the route reads (besides Authorization, which security covers). */
  headers?: readonly { name: string; description: string }[];
  /** A JSON body by its schema, or with `mediaType` a body of that type; `optional` when it may be left out. */
  body?: { schema?: GenericSchema; mediaType?: string; description?: string; example?: unknown; optional?: boolean };
  responses: Record<number, ResponseDescription>;
  /** The error codes this route itself can answer with, besides those its middleware brings. */
  errors?: readonly ApiErrorCode[];
}

/** What a shared middleware (authentication, an id in the path) adds to every route it guards. */
export interface RouteFragment {
  security?: RouteDescription['security'];
  /** The admin roles allowed (`x-roles` in the document): what adminAccess checks. */
  roles?: readonly AdminRole[];
  pathParameters?: readonly { name: string; description: string; schema: Record<string, unknown> }[];
  errors?: readonly ApiErrorCode[];
}

type Described =
  | { kind: 'route'; route: RouteDescription }
  | { kind: 'fragment'; fragment: RouteFragment }
  | { kind: 'page' };

const descriptions = new WeakMap<object, Described>();

/**
 * The first handler of a route: describes it in GET /v1/openapi.json and refuses query
 * parameters the description does not list, so the document and the route cannot disagree.
 */
export function describeRoute(route: RouteDescription): MiddlewareHandler<AppEnv> {
  const allowed = new Set((route.query ?? []).map((parameter) => parameter.name));
  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (!route.openQuery) rejectUnknownParameters(c.req.url, allowed);
    await next();
  };
  descriptions.set(middleware, { kind: 'route', route });
  return middleware;
}

/** If-Match, as the routes that change a user read it. */
export const IF_MATCH_HEADER = {
  name: 'If-Match',
  description: 'Entity tags (from ETag) of the versions the change may apply to; any other version → 412.',
};

/** Marks a shared middleware with what it adds to the description of every route it guards. */
export function withFragment<M extends MiddlewareHandler>(middleware: M, fragment: RouteFragment): M {
  descriptions.set(middleware, { kind: 'fragment', fragment });
  return middleware;
}

/** Marks a route that serves pages or files for browsers, which the API document leaves out. */
export const pageRoute: MiddlewareHandler = async (_c, next) => next();
descriptions.set(pageRoute, { kind: 'page' });

export const descriptionOf = (handler: unknown): Described | undefined =>
  typeof handler === 'function' ? descriptions.get(handler) : undefined;
