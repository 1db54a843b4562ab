/**
 * What the service tells Prometheus (`GET /metrics`), made once per app (createAppDeps): its own
 * prom-client registry, never the module-level default one, so two apps in one process count
 * apart. The hot paths (every HTTP request, every RADIUS packet) reach a counter through a child
 * bound to its labels once and kept in a map, not through prom-client's label hashing per call.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export type RadiusType = "access" | "accounting" | "status";
/** accept/reject: an Access-Request answered; accounted: an Accounting-Request written and answered;
 * resent: a retransmission answered from the duplicate cache; drop: no answer (see reason);
 * error: a fault (database) left it unanswered, the NAS retries. */
export type RadiusResult = "accept" | "reject" | "challenge" | "accounted" | "resent" | "drop" | "error";
/** success: the guest is online; invalid: the form or code was refused, the guest tries again;
 * refused: the attempt failed (expired page, limit, method off, provider or database fault). */
export type LoginResult = "success" | "invalid" | "refused";

/** SQLite's checkpoints so far: by the checkpointer's thread, and catch-ups on the event loop. */
export interface CheckpointCounts {
  worker: number;
  catchUp: number;
}

/** The numbers of a connection pool, read when Prometheus scrapes. */
export interface PoolStats {
  max: number;
  total: number;
  idle: number;
  waiting: number;
}

/** HTTP request durations, in seconds: from a cached read (well under 1 ms) to a stuck database. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface Metrics {
  readonly registry: Registry;
  /** One HTTP request answered: its method, route pattern ("(unmatched)" for none), status, duration. */
  http(method: string, route: string, status: number, seconds: number): void;
  portalLogin(method: string, result: LoginResult): void;
  radius(type: RadiusType, result: RadiusResult, reason?: string): void;
  /** Accounting packets committed in one transaction (one per packet on PostgreSQL, a batch on SQLite). */
  accountingCommitted(packets: number): void;
  accountingFailed(packets: number): void;
  /** Reports the database pool's use on each scrape (PostgreSQL). */
  watchPool(stats: () => PoolStats): void;
  /** Reports on each scrape the checkpoints SQLite ran off the event loop and on it (SQLite). */
  watchCheckpoints(stats: () => CheckpointCounts): void;
  /** Reports on each scrape whether Redis answers (REDIS_URL): 1 ok, 0 degraded. */
  watchRedis(up: () => boolean): void;
  /** The scrape: the text and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}

/** A child of `metric` per label set, bound once. */
function bound<C>(make: (key: string) => C): (key: string) => C {
  const children = new Map<string, C>();
  return (key) => {
    let child = children.get(key);
    if (child === undefined) {
      child = make(key);
      children.set(key, child);
    }
    return child;
  };
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  // Process and Node.js figures, the event-loop lag among them (nodejs_eventloop_lag_*).
  collectDefaultMetrics({ register: registry });

  const httpDuration = new Histogram({
    name: "guestwifi_http_request_duration_seconds",
    help: "HTTP requests by method, route pattern and status, with their durations (the _count is the number of requests).",
    labelNames: ["method", "route", "status"] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const logins = new Counter({
    name: "guestwifi_portal_logins_total",
    help: "Portal login attempts by login method and result (success, invalid, refused).",
    labelNames: ["method", "result"] as const,
    registers: [registry],
  });
  const radiusRequests = new Counter({
    name: "guestwifi_radius_requests_total",
    help: "RADIUS requests by type (access, accounting), result (accept, reject, accounted, resent, drop, error) and the reason of a reject or drop.",
    labelNames: ["type", "result", "reason"] as const,
    registers: [registry],
  });
  const accountingWrites = new Counter({
    name: "guestwifi_radius_accounting_writes_total",
    help: "Accounting packets written to the database (committed) or not (failed: the NAS retries).",
    labelNames: ["result"] as const,
    registers: [registry],
  });
  const accountingCommits = new Counter({
    name: "guestwifi_radius_accounting_commits_total",
    help: "Transactions that committed accounting packets (SQLite groups the packets that arrive together).",
    registers: [registry],
  });
  const pools: (() => PoolStats)[] = [];
  new Gauge({
    name: "guestwifi_db_pool_connections",
    help: "Database pool connections (PostgreSQL): max (the pool's size), total (open), idle, busy.",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      for (const stats of pools) {
        const s = stats();
        this.set({ state: "max" }, s.max);
        this.set({ state: "total" }, s.total);
        this.set({ state: "idle" }, s.idle);
        this.set({ state: "busy" }, s.total - s.idle);
      }
    },
  });
  new Gauge({
    name: "guestwifi_db_pool_waiting",
    help: "Queries waiting for a free database connection (PostgreSQL).",
    registers: [registry],
    collect() {
      for (const stats of pools) this.set(stats().waiting);
    },
  });

  const httpChild = bound((key) => {
    const [method, status, route] = key.split(" ", 3);
    return httpDuration.labels(method, route, status);
  });
  const loginChild = bound((key) => {
    const [method, result] = key.split(" ");
    return logins.labels(method, result);
  });
  const radiusChild = bound((key) => {
    const [type, result, reason] = key.split("|");
    return radiusRequests.labels(type, result, reason);
  });
  const committed = accountingWrites.labels("committed");
  const failed = accountingWrites.labels("failed");

  return {
    registry,
    http(method, route, status, seconds) {
      // The route last: a pattern may hold spaces, a method and a status never do.
      httpChild(`${method} ${status} ${route}`).observe(seconds);
    },
    portalLogin(method, result) {
      loginChild(`${method} ${result}`).inc();
    },
    radius(type, result, reason = "") {
      radiusChild(`${type}|${result}|${reason}`).inc();
    },
    accountingCommitted(packets) {
      committed.inc(packets);
      accountingCommits.inc();
    },
    accountingFailed(packets) {
      failed.inc(packets);
    },
    watchPool(stats) {
      pools.push(stats);
    },
    watchCheckpoints(stats) {
      new Counter({
        name: "guestwifi_sqlite_checkpoints_total",
        help: "SQLite checkpoints (the write-ahead log copied into the database file) run by the checkpointer's thread (worker) or, when the log kept growing, once on the event loop (catch_up).",
        labelNames: ["where"] as const,
        registers: [registry],
        collect() {
          const s = stats();
          this.reset();
          this.inc({ where: "worker" }, s.worker);
          this.inc({ where: "catch_up" }, s.catchUp);
        },
      });
    },
    watchRedis(up) {
      // Made only with REDIS_URL: without Redis there is no series, rather than a misleading 0.
      new Gauge({
        name: "guestwifi_redis_up",
        help: "1 while Redis (REDIS_URL) answers rate-limit counts in time, 0 while it is degraded and limits count in this instance's memory.",
        registers: [registry],
        collect() {
          this.set(up() ? 1 : 0);
        },
      });
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
