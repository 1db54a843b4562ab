/**
 * What the modules' services take first: the database (or the transaction they run in) and the
 * repositories of this app. Repositories hold per-app state (prepared statements, read caches), so
 * they are made per app by createRepositories() (src/app-deps.ts), never kept at module level:
 * two apps in one process (tests, a console beside the API) share nothing.
 */
import type { DB } from "../db/database.js";
import { type AccountRepository, createAccountRepository } from "./accounts/accounts.repository.js";
import { type AnalyticsRepository, createAnalyticsRepository } from "./analytics/analytics.repository.js";
import { type CampaignRepository, createCampaignRepository } from "./campaigns/campaigns.repository.js";
import { type ControllerRepository, createControllerRepository } from "./controllers/controllers.repository.js";
import { type ConsoleRepository, createConsoleRepository } from "./console/console.repository.js";
import { type DeviceRepository, createDeviceRepository } from "./devices/devices.repository.js";
import { type GuestRepository, createGuestRepository } from "./guests/guests.repository.js";
import { type LocationRepository, createLocationRepository } from "./locations/locations.repository.js";
import { type SessionRepository, createSessionRepository } from "./sessions/sessions.repository.js";
import { type SubUserRepository, createSubUserRepository } from "./subusers/subusers.repository.js";
import { type VoucherRepository, createVoucherRepository } from "./vouchers/vouchers.repository.js";

export interface Repositories {
  accounts: AccountRepository;
  analytics: AnalyticsRepository;
  campaigns: CampaignRepository;
  controllers: ControllerRepository;
  console: ConsoleRepository;
  devices: DeviceRepository;
  guests: GuestRepository;
  locations: LocationRepository;
  sessions: SessionRepository;
  subUsers: SubUserRepository;
  vouchers: VoucherRepository;
}

export function createRepositories(): Repositories {
  return {
    accounts: createAccountRepository(),
    analytics: createAnalyticsRepository(),
    campaigns: createCampaignRepository(),
    controllers: createControllerRepository(),
    console: createConsoleRepository(),
    devices: createDeviceRepository(),
    guests: createGuestRepository(),
    locations: createLocationRepository(),
    sessions: createSessionRepository(),
    subUsers: createSubUserRepository(),
    vouchers: createVoucherRepository(),
  };
}

export interface Ctx {
  /** The app's database, or the transaction the caller runs in. */
  readonly db: DB;
  readonly repos: Repositories;
}
