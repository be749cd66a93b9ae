import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../app-env';
import { type ListedRoute, openApiDocument } from '../openapi/openapi-document';
import { describeRoute } from '../openapi/route-description';

/** The version of the API the document describes: the `/v1` of its paths. */
const API_VERSION = '1.0.0';
export const OPENAPI_PATH = '/v1/openapi.json';

/**
 * The OpenAPI document of the app it is mounted in, built from the routes' own descriptions on
 * the first request (the app's routes are all known by then) and kept.
 */
export function openApiRoutes(routes: () => readonly ListedRoute[]) {
  let document: ReturnType<typeof openApiDocument> | undefined;
  return new Hono<AppEnv>().get(
    OPENAPI_PATH,
    describeRoute({
      operationId: 'openApiDocument',
      summary: 'This document',
      tags: ['Operations'],
      responses: {
        200: {
          description: 'OpenAPI 3.1, describing every endpoint this instance serves.',
          schema: v.pipe(v.record(v.string(), v.unknown()), v.description('An OpenAPI 3.1 document.')),
        },
      },
    }),
    (c) => {
      document ??= openApiDocument(routes(), { version: API_VERSION });
      return c.json(document, 200, { 'Cache-Control': 'no-cache' });
    },
  );
}
