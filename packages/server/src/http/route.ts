import type { Request, Response } from 'express';
import type { Engine, Owner, ResultFile } from '@gleaner/core';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

export type JsonSchema = Record<string, unknown>;
export type AuthKind = 'none' | 'apiKey' | 'bearer';

export interface RouteContext {
  engine: Engine;
  /** Set when the route requires authentication. */
  owner: Owner | null;
  req: Request;
  res: Response;
}

export interface RouteResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Raw response instead of JSON (e.g. the /docs HTML page). */
  html?: string;
  /** Bytes sent as they are, with their content type (e.g. an archived page). */
  bytes?: { contentType: string; data: Buffer };
  /** A file streamed as it is produced (results as CSV or JSON Lines), sent as an attachment. */
  file?: ResultFile;
  /** Other text (JSON Lines, CSV) with its content type. */
  text?: { body: string; contentType: string };
}

/**
 * One endpoint: its request schemas drive ajv validation (422 bodies) and the served OpenAPI
 * document, so they are written once, here.
 */
export interface RouteDef {
  method: 'get' | 'post' | 'delete' | 'put' | 'patch';
  /** Express 5 path ("/v1/extractor/:id"). */
  path: string;
  /** Other paths serving the same endpoint (spec aliases). */
  aliases?: string[];
  summary: string;
  description?: string;
  tags?: string[];
  auth: AuthKind;
  body?: JsonSchema;
  params?: JsonSchema;
  query?: JsonSchema;
  /** Response schemas by status, for the OpenAPI document. */
  responses?: Record<number, { description: string; schema?: JsonSchema }>;
  /** Hide from the OpenAPI document (e.g. /openapi.json itself). */
  internal?: boolean;
  /** Deprecated in the interface (legacy forms). */
  deprecated?: boolean;
  /**
   * The endpoint starts background work (a task, a run, a scraper build): refused with 429 while
   * the owner has limits.queuedJobs unfinished.
   */
  startsJob?: boolean;
  handler: (ctx: RouteContext, input: { body: any; params: any; query: any }) => Promise<RouteResult>;
}

export function defineRoutes(routes: RouteDef[]): RouteDef[] {
  return routes;
}

/**
 * The type of a value valid against schema `S` (json-schema-to-ts), with the defaults ajv fills in
 * present; `unknown` without a schema. A schema whose literal type was lost (typed `JsonSchema`,
 * or not `as const`) gives a type no value has, so that the route fails to compile instead of
 * going unchecked.
 */
export type SchemaType<S> = [S] extends [undefined] ? unknown : string extends keyof S ? NotConst<S> : S extends JSONSchema ? FromSchema<S> : NotConst<S>;

type NotConst<S> = { 'declare this schema `as const` to type its route': S };

type Responses = { readonly [status: number]: { readonly description: string; readonly schema?: JsonSchema } };

/**
 * `T` without the `[x: string]: unknown` that json-schema-to-ts gives an object schema without
 * `additionalProperties: false`: an answer may be an interface, which has no index signature.
 */
type Closed<T> = T extends readonly (infer E)[]
  ? Closed<E>[]
  : T extends object
    ? { [K in keyof T as string extends K ? (unknown extends T[K] ? never : K) : K]: Closed<T[K]> }
    : T;

/** What a route may answer as JSON: a value of one of its response schemas (`unknown` if one has none). */
export type ResponseBody<R> = [R] extends [undefined]
  ? unknown
  : { [K in keyof R]: R[K] extends { schema: infer S } ? Closed<SchemaType<S>> : unknown }[keyof R];

/** A route's result, its JSON body checked against the route's response schemas. */
export type TypedRouteResult<B> = Omit<RouteResult, 'body'> & { body?: B };

/** A route whose handler is typed from its schemas: see `route()`. */
export type TypedRouteDef<B, P, Q, R> = Omit<RouteDef, 'body' | 'params' | 'query' | 'responses' | 'handler'> & {
  body?: B;
  params?: P;
  query?: Q;
  responses?: R;
  handler: (ctx: RouteContext, input: { body: SchemaType<B>; params: SchemaType<P>; query: SchemaType<Q> }) => Promise<TypedRouteResult<ResponseBody<R>>>;
};

/**
 * Declares a route whose handler is type-checked against its schemas: its `body`, `params` and
 * `query` input have the types of their (validated) schemas, and the JSON body it answers must be
 * a value of one of its `responses` schemas. At run time it is the route itself.
 */
export function route<
  const B extends JsonSchema | undefined = undefined,
  const P extends JsonSchema | undefined = undefined,
  const Q extends JsonSchema | undefined = undefined,
  const R extends Responses | undefined = undefined,
>(def: TypedRouteDef<B, P, Q, R>): RouteDef {
  return def as RouteDef;
}
