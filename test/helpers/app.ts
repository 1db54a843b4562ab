/** A whole app on a fresh database, with one account, for HTTP-level tests through app.inject(). */
import type { FastifyInstance, InjectOptions } from "fastify";
import { type AppDeps, createAppDeps } from "../../src/app-deps.js";
import { buildApp } from "../../src/app.js";
import { type Config, loadConfig } from "../../src/config.js";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { type Dialect, type TestDb, createTestDb } from "./db.js";

export interface TestApp extends TestDb {
  app: FastifyInstance;
  config: Readonly<Config>;
  /** The app's own repositories (what services take first), on its database. */
  deps: AppDeps;
  /** Identifier of the first account. */
  identifier: string;
  accountId: number;
  newAccount(email?: string): Promise<{ accountId: number; identifier: string }>;
  /** GET or POST /api/<path> with params, the identifier added unless given (null: none). */
  call(method: "GET" | "POST", path: string, params?: Record<string, unknown>, opts?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

export interface CallOptions {
  identifier?: string | null;
  /** POST bodies: form (default) or json. */
  as?: "form" | "json";
  headers?: Record<string, string>;
}

export interface CallResult {
  statusCode: number;
  body: any;
  headers: Record<string, unknown>;
}

let counter = 0;

export async function createTestApp(dialect: Dialect, env: Record<string, string> = {}): Promise<TestApp> {
  const tdb = await createTestDb(dialect);
  const config = loadConfig({ LOG_LEVEL: "silent", PUBLIC_URL: "http://portal.test", RADIUS_ENABLED: "false", ...env });
  const app = await buildApp({ config, db: tdb.db, deps: createAppDeps(tdb.db), logger: false });
  await app.ready();
  return testAppOf(tdb, app, config);
}

/** The TestApp helpers around an app that is already built (by buildApp, or by startService on `tdb.db`'s database). */
export async function testAppOf(tdb: TestDb, app: FastifyInstance, config: Readonly<Config>): Promise<TestApp> {
  const deps = app.deps;
  const first = await createAccount(deps, `owner${++counter}-${Date.now()}@example.com`);
  const t: TestApp = {
    ...tdb,
    app,
    config,
    deps,
    identifier: first.identifier,
    accountId: first.accountId,
    newAccount: (email) => createAccount(deps, email ?? `other${++counter}-${Date.now()}@example.com`),
    async call(method, path, params = {}, opts = {}) {
      const identifier = opts.identifier === undefined ? first.identifier : opts.identifier;
      const all: Record<string, unknown> = identifier === null ? { ...params } : { identifier, ...params };
      const req: InjectOptions = { method, url: path.startsWith("/") ? path : `/api/${path}`, headers: opts.headers };
      if (method === "GET") {
        req.query = Object.fromEntries(Object.entries(all).map(([k, v]) => [k, String(v)]));
      } else if (opts.as === "json") {
        req.payload = all as Record<string, unknown> as InjectOptions["payload"];
      } else {
        req.payload = new URLSearchParams(Object.entries(all).map(([k, v]) => [k, String(v)])).toString();
        req.headers = { ...(req.headers ?? {}), "content-type": "application/x-www-form-urlencoded" };
      }
      const res = await app.inject(req);
      let body: unknown;
      try {
        body = res.json();
      } catch {
        body = res.body;
      }
      return { statusCode: res.statusCode, body, headers: res.headers };
    },
    async close() {
      await app.close();
      await tdb.close();
    },
  };
  return t;
}

/** A valid create-or-update-location parameter set. */
export function locationParams(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    location_name: "Corner Cafe",
    address1: "1 Main Street",
    town: "Springfield",
    state: "IL",
    zipcode: "62701",
    country: "US",
    phone_number: "(217)555-0100",
    timezone: "America/Chicago",
    ...overrides,
  };
}
