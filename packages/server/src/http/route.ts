import type { Request, Response } from 'express';
import type { Engine, Owner, ResultFile } from '@gleaner/core';

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
