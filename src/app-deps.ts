/**
 * Everything one app holds for as long as it runs, made once per app (buildApp / startService) and
 * passed down: the database, the repositories with their prepared statements and read caches, the
 * metrics (its own Prometheus registry).
 * Nothing of the kind sits at module level, so two apps in one process (two databases, tests, a
 * console beside the API) share nothing. Caches of the HTTP layer (caller look-ups, rate-limit
 * windows) and of the API modules (analytics' closed days) are made per app where they are used.
 */
import { type DB, poolStats, sqliteCheckpoints } from "./db/database.js";
import { type Metrics, createMetrics } from "./metrics.js";
import { type Ctx, createRepositories } from "./modules/context.js";
import { type SmsCodeRepository, createSmsCodeRepository } from "./portal/sms/sms-codes.repository.js";
import { type RadiusCtx, type RadiusRepository, createRadiusRepository } from "./radius/radius.repository.js";
import { createSessionControl } from "./radius/session-control.js";
import { createControllerSync } from "./gateways/controller-sync.js";
import { createDeviceConfigs } from "./gateways/device-configs.js";
import { RadsecPeers } from "./radius/radsec-peers.js";

export interface AppDeps extends Ctx, RadiusCtx {
  readonly radius: RadiusRepository;
  readonly smsCodes: SmsCodeRepository;
  /** This app's Prometheus registry and counters (GET /metrics). */
  readonly metrics: Metrics;
  /** RadSec connections open on this instance: CoA goes back over them, revocation closes them. */
  readonly radsecPeers: RadsecPeers;
}

export function createAppDeps(db: DB): AppDeps {
  const metrics = createMetrics();
  const pool = poolStats(db);
  if (pool) metrics.watchPool(pool);
  const checkpoints = sqliteCheckpoints(db);
  if (checkpoints) metrics.watchCheckpoints(checkpoints);
  const radsecPeers = new RadsecPeers();
  return {
    db,
    repos: createRepositories(),
    radius: createRadiusRepository(),
    smsCodes: createSmsCodeRepository(),
    metrics,
    sessionControl: createSessionControl({ db, radsec: radsecPeers }),
    deviceConfigs: createDeviceConfigs(),
    controllerSync: createControllerSync(db),
    radsecPeers,
  };
}
