/**
 * What the modules' services take first: the database (or the transaction they run in) and the
 * repositories of this app. Repositories hold per-app state (prepared statements, read caches), so
 * they are made per app by createRepositories() (src/app-deps.ts), never kept at module level:
 * two apps in one process (tests, a console beside the API) share nothing.
 */
import type { Config } from "../config.js";
import type { DB } from "../db/database.js";
import { type AccountRepository, createAccountRepository } from "./accounts/accounts.repository.js";
import { type AnalyticsRepository, createAnalyticsRepository } from "./analytics/analytics.repository.js";
import { type AuditRepository, createAuditRepository } from "./audit/audit.repository.js";
import { type CampaignRepository, createCampaignRepository } from "./campaigns/campaigns.repository.js";
import { type ConsentTextRepository, createConsentTextRepository } from "./campaigns/consent-texts.repository.js";
import { type ControllerRepository, createControllerRepository } from "./controllers/controllers.repository.js";
import { type ConsoleRepository, createConsoleRepository } from "./console/console.repository.js";
import { type DeviceCertificateRepository, createDeviceCertificateRepository } from "./device-certificates/device-certificates.repository.js";
import { type DeviceRepository, type DeviceRow, createDeviceRepository } from "./devices/devices.repository.js";
import { type GuestConsentRepository, createGuestConsentRepository } from "./guests/guest-consent.repository.js";
import { type GuestRightsRepository, createGuestRightsRepository } from "./guests/guest-rights.repository.js";
import { type GuestRepository, createGuestRepository } from "./guests/guests.repository.js";
import { type LocationRepository, createLocationRepository } from "./locations/locations.repository.js";
import { type AutomationRepository, createAutomationRepository } from "./messages/automations.repository.js";
import { type SurveyRepository, createSurveyRepository } from "./messages/survey.repository.js";
import { type OutboxRepository, createOutboxRepository } from "./outbox/outbox.repository.js";
import { type PasspointRepository, createPasspointRepository } from "./passpoint/passpoint.repository.js";
import { type SessionRepository, createSessionRepository } from "./sessions/sessions.repository.js";
import { type SubUserRepository, createSubUserRepository } from "./subusers/subusers.repository.js";
import { type WebhookRepository, createWebhookRepository } from "./webhooks/webhooks.repository.js";
import { type VoucherRepository, createVoucherRepository } from "./vouchers/vouchers.repository.js";

export interface Repositories {
  accounts: AccountRepository;
  automations: AutomationRepository;
  analytics: AnalyticsRepository;
  audit: AuditRepository;
  campaigns: CampaignRepository;
  controllers: ControllerRepository;
  console: ConsoleRepository;
  consent: GuestConsentRepository;
  consentTexts: ConsentTextRepository;
  devices: DeviceRepository;
  deviceCertificates: DeviceCertificateRepository;
  guests: GuestRepository;
  guestRights: GuestRightsRepository;
  locations: LocationRepository;
  outbox: OutboxRepository;
  passpoint: PasspointRepository;
  sessions: SessionRepository;
  subUsers: SubUserRepository;
  surveys: SurveyRepository;
  webhooks: WebhookRepository;
  vouchers: VoucherRepository;
}

export function createRepositories(): Repositories {
  return {
    accounts: createAccountRepository(),
    automations: createAutomationRepository(),
    analytics: createAnalyticsRepository(),
    audit: createAuditRepository(),
    campaigns: createCampaignRepository(),
    controllers: createControllerRepository(),
    console: createConsoleRepository(),
    consent: createGuestConsentRepository(),
    consentTexts: createConsentTextRepository(),
    devices: createDeviceRepository(),
    deviceCertificates: createDeviceCertificateRepository(),
    guests: createGuestRepository(),
    guestRights: createGuestRightsRepository(),
    locations: createLocationRepository(),
    outbox: createOutboxRepository(),
    passpoint: createPasspointRepository(),
    sessions: createSessionRepository(),
    subUsers: createSubUserRepository(),
    surveys: createSurveyRepository(),
    webhooks: createWebhookRepository(),
    vouchers: createVoucherRepository(),
  };
}

/** Why a session is changed or ended; recorded with the request. */
export type CoaReason = "operator" | "options-changed" | "daily-cap" | "voucher" | "limit";

/** How a CoA-Request or Disconnect-Request ended (coa_requests.result). */
export interface CoaOutcome {
  requestId: number;
  sessionId: number;
  /** ack / nak: the gateway's answer; timeout: none after every attempt; unsupported: the family has no CoA; no-address: nowhere to send it. */
  result: "ack" | "nak" | "timeout" | "unsupported" | "no-address";
  /** RFC 5176 Error-Cause of a NAK, when the gateway gave one. */
  errorCause: number | null;
  attempts: number;
}

/** The limits a CoA-Request carries (a location's options). */
export interface LimitOptions {
  session_time_limit: number;
  max_bandwidth_up: number;
  max_bandwidth_down: number;
  daily_bandwidth_cap: number;
}

/**
 * Changing and ending live sessions through their gateways (RFC 5176), made per app by
 * createAppDeps (the implementation is RADIUS's: src/radius/session-control.ts). It runs on the
 * app's own database, never in the caller's transaction: call it after yours, or from outside one.
 */
export interface SessionControl {
  /** A Disconnect-Request for the session; on an ACK the session is closed. */
  disconnect(sessionId: number, reason: CoaReason, config: Readonly<Config>): Promise<CoaOutcome>;
  /** Ends every live session of the guest (at the location, or anywhere when null): for a cap or voucher run out. */
  disconnectGuest(guestId: number, locationId: number | null, reason: CoaReason, config: Readonly<Config>): Promise<CoaOutcome[]>;
  /** CoA-Requests with these limits to every live session at the location (a guest already past the cap is disconnected). */
  applyLocationOptions(locationId: number, options: LimitOptions, timezone: string, config: Readonly<Config>): Promise<CoaOutcome[]>;
}

/** A gateway's configuration file (GET /api/get-device-config; src/gateways/device-config.ts writes it). */
export interface DeviceConfigFile {
  family: string;
  filename: string;
  content_type: string;
  content: string;
  /** What the operator still does, in the vendor's own words. */
  steps: string[];
  /** The location's options this family cannot carry, and why (docs/gateways.md). */
  not_carried: string[];
  /** Things that will not work as generated (PUBLIC_URL on loopback, ...). */
  warnings: string[];
}

/**
 * The gateway families' configurations, made per app by createAppDeps (the implementation is the
 * portal's: src/gateways/device-configs.ts), so that the devices module can serve them.
 */
export interface DeviceConfigs {
  /** The device's configuration as it should be now; undefined when it is not assigned to a live location. */
  forDevice(ctx: Ctx, device: DeviceRow, config: Readonly<Config>): Promise<DeviceConfigFile | undefined>;
}

/** What a call to a controller found (Test connection, a push of the walled garden). */
export interface ControllerCheck {
  ok: boolean;
  /** "ok" or the fault: unreachable, timeout, certificate, refused (credentials), site, rejected, forbidden. */
  fault: string;
  message: string;
  checked_at: string;
}

/**
 * Calls to the account's controllers that are not a guest's grant, made per app by createAppDeps
 * (the implementation is the portal's: src/gateways/controller-sync.ts): Test connection, and the
 * location's walled garden pushed as the controller's pre-authorization allowances (UniFi, Omada).
 * Each records its outcome on the controller (last_status, last_message, last_checked_at).
 */
export interface ControllerSync {
  /** Calls the controller as Test connection does; records and answers what it found. */
  test(ctx: Ctx, controllerId: number, config: Readonly<Config>): Promise<ControllerCheck>;
  /** Pushes the walled garden of every location the controller serves; undefined when its family takes none through the service. */
  push(ctx: Ctx, controllerId: number, config: Readonly<Config>): Promise<ControllerCheck | undefined>;
  /** The same for the controller of a location, after the caller's transaction commits (nothing when it has none); never throws. */
  pushAfterCommit(ctx: Ctx, locationId: number, config: Readonly<Config>): void;
}

/**
 * The RadSec connections open on this instance (src/radius/radsec-peers.ts), made per app by
 * createAppDeps: a revoked certificate's connections are closed at once.
 */
export interface RadsecPeerControl {
  /** Closes the connections that presented these certificates; answers how many. */
  closeCertificates(serials: string[]): number;
}

export interface Ctx {
  /** The app's database, or the transaction the caller runs in. */
  readonly db: DB;
  readonly repos: Repositories;
  /** Live sessions' CoA and Disconnect; absent where no RADIUS side was made (a bare context). */
  readonly sessionControl?: SessionControl;
  /** Gateway configurations; absent in a bare context. */
  readonly deviceConfigs?: DeviceConfigs;
  /** Test connection and walled-garden pushes to controllers; absent in a bare context. */
  readonly controllerSync?: ControllerSync;
  /** Open RadSec connections; absent where no RADIUS side was made. */
  readonly radsecPeers?: RadsecPeerControl;
}
