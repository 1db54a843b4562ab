/**
 * The running service: HTTP API + portal and the RADIUS server, started together and stopped
 * together (on SIGINT/SIGTERM through close-with-grace, or by calling stop()).
 */
import type { FastifyInstance } from "fastify";
import { createAppDeps } from "./app-deps.js";
import { buildApp } from "./app.js";
import { type Config, ListenError } from "./config.js";
import { type DB, createDatabase, createSiblingDatabase } from "./db/database.js";
import { migrateToLatest } from "./db/migrator.js";
import { type LoggerOptions, createLogger } from "./logger.js";
import { loopbackWarning } from "./gateways/device-config.js";
import { type RetentionJob, startRetentionJob } from "./modules/guests/retention-job.js";
import { type MessageSchedule, startMessageSchedule } from "./modules/messages/message-schedule.js";
import { startMessageWorker } from "./modules/messages/message-worker.js";
import { type WebhookWorker, startWebhookWorker } from "./modules/webhooks/webhook-delivery.js";
import type { OutboxLoop } from "./db/outbox.js";
import { type RadiusListener, startRadius } from "./radius/radius-server.js";

export interface RunningService {
  app: FastifyInstance;
  db: DB;
  /** The HTTP port actually bound (useful with PORT=0); 0 when HTTP is off. */
  httpPort: number;
  /** The URLs HTTP listens on, from the addresses actually bound (HOST=localhost may bind two); empty when off. */
  httpUrls: string[];
  radius: RadiusListener | undefined;
  stop(): Promise<void>;
}

export interface StartOptions {
  http?: boolean;
  radius?: boolean;
  /** Log level and destination (default: the configured level, on stdout). */
  logger?: LoggerOptions;
  /** Background jobs: the webhook and message workers, the message schedule, the retention job (default: as configured). */
  jobs?: boolean;
}

export async function startService(config: Readonly<Config>, opts: StartOptions = {}): Promise<RunningService> {
  const log = createLogger({ level: config.logLevel, ...opts.logger });
  // Gateways and guests cannot reach a loopback PUBLIC_URL: say so before anyone copies it into a
  // gateway (an instance that serves RADIUS only shows no portal and no configuration).
  const loopback = opts.http === false ? undefined : loopbackWarning(config.publicUrl);
  if (loopback) log.warn({ public_url: config.publicUrl }, loopback);
  const db = createDatabase(config.databaseUrl, { timeouts: config.databaseTimeouts, log, poolSize: config.databasePoolSize });
  try {
    await migrateToLatest(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  // One set of repositories (prepared statements, read caches) for the HTTP app and RADIUS.
  const deps = createAppDeps(db);
  const app = await buildApp({ config, db, deps, logger: log });
  let httpPort = 0;
  let httpUrls: string[] = [];
  let radius: RadiusListener | undefined;
  let radiusDb: DB | undefined;
  let jobsDb: DB | undefined;
  /** Connections of their own for a part of the service (PostgreSQL), or the service's when `size` is 0. */
  const ownConnections = (size: number) => (size > 0 ? createSiblingDatabase(db, size) : db);
  /** Closes what ownConnections opened, never the service's database itself. */
  const closeOwn = async (own: DB | undefined) => {
    if (own !== undefined && own !== db) await own.destroy();
  };
  let webhooks: WebhookWorker | undefined;
  let retention: RetentionJob | undefined;
  let messages: OutboxLoop | undefined;
  let schedule: MessageSchedule | undefined;
  try {
    if (opts.http !== false) {
      try {
        await app.listen({ host: config.host, port: config.port });
      } catch (err) {
        throw new ListenError("HTTP", config.host, config.port, "tcp", ["HOST", "PORT"], err);
      }
      const bound = app.addresses().filter((a) => typeof a === "object");
      httpPort = bound[0]?.port ?? config.port;
      httpUrls = bound.map((a) => `http://${a.family === "IPv6" || a.address.includes(":") ? `[${a.address}]` : a.address}:${a.port}`);
    } else {
      await app.ready();
    }
    if (opts.radius ?? config.radius.enabled) {
      // RADIUS on connections of its own (PostgreSQL): its bursts queue there, not in front of HTTP's requests.
      radiusDb = ownConnections(config.radius.databasePoolSize);
      radius = await startRadius({ db: radiusDb, config, log: app.log, ctx: { ...deps, db: radiusDb }, metrics: deps.metrics, peers: deps.radsecPeers });
    }
    if (opts.jobs !== false && (config.webhooks.worker || config.retentionIntervalMs > 0 || config.messages.worker)) {
      // The background jobs on connections of their own (PostgreSQL): a login burst's requests and
      // the webhook worker's claims and commits do not queue behind each other.
      jobsDb = ownConnections(config.databaseJobsPoolSize);
      const jobDeps = jobsDb === db ? deps : { ...deps, db: jobsDb };
      if (config.webhooks.worker) webhooks = startWebhookWorker(jobsDb, config.webhooks, app.log, deps.repos.webhooks);
      if (config.retentionIntervalMs > 0) retention = startRetentionJob(jobDeps, config.retentionIntervalMs, app.log);
      if (config.messages.worker) {
        messages = startMessageWorker(jobDeps, config, app.log);
        if (config.messages.scheduleIntervalMs > 0) schedule = startMessageSchedule(jobDeps, config, app.log);
      }
    }
  } catch (err) {
    await schedule?.stop();
    await messages?.stop();
    await webhooks?.stop();
    await retention?.stop();
    await closeOwn(jobsDb);
    await radius?.stop();
    await closeOwn(radiusDb);
    await app.close();
    await db.destroy();
    throw err;
  }
  let stopping: Promise<void> | undefined;
  return {
    app,
    db,
    httpPort,
    httpUrls,
    radius,
    stop() {
      stopping ??= (async () => {
        await radius?.stop();
        await closeOwn(radiusDb);
        await schedule?.stop();
        await messages?.stop();
        await webhooks?.stop();
        await retention?.stop();
        await closeOwn(jobsDb);
        await app.close();
        await db.destroy();
      })();
      return stopping;
    },
  };
}
