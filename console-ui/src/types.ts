/**
 * The shapes the console gets from the service: the server's own TypeBox schemas (the ones that
 * validate and document each route), as types only. `import type` is erased by esbuild, so no
 * server code enters the page's bundle; a field renamed on the server fails `npm run check` here.
 */
import type { Static } from "@sinclair/typebox";
import type * as Console from "../../src/console/console.schemas.js";
import type * as Analytics from "../../src/modules/analytics/analytics.schemas.js";
import type * as Audit from "../../src/modules/audit/audit.schemas.js";
import type * as Campaigns from "../../src/modules/campaigns/campaigns.schemas.js";
import type * as Controllers from "../../src/modules/controllers/controllers.schemas.js";
import type * as Certificates from "../../src/modules/device-certificates/device-certificates.schemas.js";
import type * as Devices from "../../src/modules/devices/devices.schemas.js";
import type * as Locations from "../../src/modules/locations/locations.schemas.js";
import type * as Automations from "../../src/modules/messages/automations.schemas.js";
import type * as Messages from "../../src/modules/messages/messages.schemas.js";
import type * as Sessions from "../../src/modules/sessions/sessions.schemas.js";
import type * as SubUsers from "../../src/modules/subusers/subusers.schemas.js";
import type * as Vouchers from "../../src/modules/vouchers/vouchers.schemas.js";
import type * as Webhooks from "../../src/modules/webhooks/webhooks.schemas.js";

/** An answer without its `status` (what a page keeps). */
type Body<T> = Omit<T, "status">;

// The console's own routes.
export type User = Static<typeof Console.ConsoleUser>;
export type Settings = Static<typeof Console.ConsoleSettings>;
/** GET /console/api/me: who is signed in and what the service is configured with. */
export type Session = Body<Static<typeof Console.MeResponse>>;
export type GuestEntry = Static<typeof Console.GuestEntry>;
export type GuestSearchAnswer = Static<typeof Console.GuestSearchResponse>;
export type GuestDetail = Static<typeof Console.GuestDetail>;
export type RadiusAttributes = Static<typeof Console.LocationRadius>;
export type Overview = Static<typeof Analytics.Overview>;

// The management API's.
export type Location = Static<typeof Locations.LocationRecord>;
export type Options = Static<typeof Locations.LocationOptions>;
export type LiveSession = Static<typeof Sessions.LiveSession>;
export type DisconnectAnswer = Static<typeof Sessions.DisconnectSessionResponse>;
export type AuditEntry = Static<typeof Audit.AuditEntry>;
export type AuditLogPage = Body<Static<typeof Audit.AuditLogListResponse>>;
export type Automation = Static<typeof Automations.AutomationRecord>;
export type Campaign = Static<typeof Campaigns.CampaignRecord>;
export type Controller = Static<typeof Controllers.ControllerRecord>;
export type Certificate = Static<typeof Certificates.CertificateRecord>;
export type Issued = Static<typeof Certificates.IssueCertificateResponse>["data"];
export type Device = Static<typeof Devices.DeviceRecord>;
export type Model = Static<typeof Devices.DeviceModelsResponse>["data"][number];
export type DeviceConfig = Static<typeof Devices.DeviceConfigResponse>["data"];
export type MessageEntry = Static<typeof Messages.MessageRecord>;
export type QuickReport = Static<typeof Messages.QuickReportRecord>;
export type SurveyAnswer = Static<typeof Messages.SurveyAnswer>;
export type Scores = Body<Static<typeof Messages.SurveyScoresResponse>>;
export type SubUser = Static<typeof SubUsers.SubUserRecord>;
export type Batch = Static<typeof Vouchers.VoucherBatch>;
export type Voucher = Static<typeof Vouchers.Voucher>;
export type Webhook = Static<typeof Webhooks.WebhookRecord>;
export type Delivery = Static<typeof Webhooks.Delivery>;
