/**
 * What every benchmark target process does (api-, portal- and analytics-target): open its own
 * database (a fresh PostgreSQL schema when one is named), serve bare baseline routes, print its
 * ready line, and on SIGTERM close the app and drop the schema it made.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { sql } from "kysely";
import { type DB, createDatabase } from "../../src/db/database.js";

/** The one line of JSON startTarget waits for. */
export function ready(info: object): void {
  process.stdout.write(`${JSON.stringify(info)}\n`);
}

export function portOf(app: FastifyInstance): number {
  const addr = app.server.address();
  return typeof addr === "object" && addr ? addr.port : 0;
}

/** The database of a target; with `schema` (PostgreSQL), a fresh schema of that name. Not migrated. */
export async function openTargetDatabase(databaseUrl: string, schema: string | undefined): Promise<DB> {
  if (schema) {
    const admin = createDatabase(databaseUrl, { poolSize: 1 });
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin);
    await sql`create schema ${sql.id(schema)}`.execute(admin);
    await admin.destroy();
  }
  return createDatabase(databaseUrl, { searchPath: schema, poolSize: 10 });
}

/**
 * Drops the target's schema (if it made one) and closes the database. A drop can deadlock with a
 * transaction that is still finishing on another pooled connection (PostgreSQL then cancels one
 * of them, 40P01): it is tried again.
 */
export async function dropTargetDatabase(db: DB, schema: string | undefined): Promise<void> {
  for (let attempt = 1; schema; attempt++) {
    try {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
      break;
    } catch (err) {
      if ((err as { code?: string }).code !== "40P01" || attempt >= 5) throw err;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
  await db.destroy();
}

/** On SIGTERM: close the app, drop the data, exit. */
export function stopOnSigterm(app: FastifyInstance, db: DB, schema: string | undefined): void {
  process.once("SIGTERM", () => {
    void (async () => {
      await app.close();
      await dropTargetDatabase(db, schema);
      process.exit(0);
    })();
  });
}

/**
 * Bare Fastify GET routes answering fixed bodies from memory: the baseline of a benchmark. Each body
 * is serialised once, here: the baseline sends the same bytes as the app without doing any work per
 * request, so the ratio to it measures everything the app does (a body serialised per request
 * would halve the baseline and flatter the ratio). `workUs`: a calibration route instead, which first
 * keeps the CPU busy for that many microseconds (a loop on the clock) and then sends the same bytes:
 * what a route that does that much work per request can reach on the machine at hand.
 */
export async function serveBare(
  routes: Record<string, { body: unknown; type?: string; headers?: Record<string, string | string[]>; workUs?: number }>,
): Promise<void> {
  const app = Fastify({ logger: false });
  for (const [path, { body, type, headers, workUs }] of Object.entries(routes)) {
    const bytes = Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
    const contentType = type ?? "application/json; charset=utf-8";
    const workMs = (workUs ?? 0) / 1000;
    app.get(path, (_req, reply) => {
      if (workMs > 0) {
        const until = performance.now() + workMs;
        while (performance.now() < until) {
          // busy: the calibration's fixed amount of work
        }
      }
      if (headers) reply.headers(headers);
      reply.type(contentType).send(bytes);
    });
  }
  await app.listen({ host: "127.0.0.1", port: 0 });
  ready({ port: portOf(app) });
  process.once("SIGTERM", () => void app.close().then(() => process.exit(0)));
}
