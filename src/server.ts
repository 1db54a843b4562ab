/**
 * The running service: HTTP API + portal and the RADIUS server, started together and stopped
 * together (on SIGINT/SIGTERM through close-with-grace, or by calling stop()).
 */
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app.js";
import type { Config } from "./config.js";
import { type DB, createDatabase } from "./db/database.js";
import { migrateToLatest } from "./db/migrator.js";
import { type RadiusListener, startRadius } from "./radius/radius-server.js";

export interface RunningService {
  app: FastifyInstance;
  db: DB;
  /** The HTTP port actually bound (useful with PORT=0). */
  httpPort: number;
  radius: RadiusListener | undefined;
  stop(): Promise<void>;
}

export interface StartOptions {
  http?: boolean;
  radius?: boolean;
  logger?: boolean | object;
}

export async function startService(config: Readonly<Config>, opts: StartOptions = {}): Promise<RunningService> {
  const db = createDatabase(config.databaseUrl);
  await migrateToLatest(db);
  const app = await buildApp({ config, db, logger: opts.logger });
  let httpPort = 0;
  let radius: RadiusListener | undefined;
  try {
    if (opts.http !== false) {
      await app.listen({ host: config.host, port: config.port });
      const addr = app.server.address();
      httpPort = typeof addr === "object" && addr ? addr.port : config.port;
    } else {
      await app.ready();
    }
    if (opts.radius ?? config.radius.enabled) {
      radius = await startRadius({ db, config, log: app.log });
    }
  } catch (err) {
    await app.close();
    await db.destroy();
    throw err;
  }
  let stopping: Promise<void> | undefined;
  return {
    app,
    db,
    httpPort,
    radius,
    stop() {
      stopping ??= (async () => {
        await radius?.stop();
        await app.close();
        await db.destroy();
      })();
      return stopping;
    },
  };
}
