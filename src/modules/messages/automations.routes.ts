import type { Config } from "../../config.js";
import { type ApiRouter, ok } from "../../http/api-route.js";
import type { Ctx } from "../context.js";
import { liveLocation } from "../locations/locations.refs.js";
import { ownedAutomation } from "./automations.refs.js";
import * as S from "./automations.schemas.js";
import * as automations from "./automations.service.js";
import { TEMPLATE_FIELDS } from "./templates.js";

const tags = ["Automations"];

/** Why a channel cannot be used on this service, or undefined. */
export function channelUnavailable(config: Readonly<Config>, channel: string): string | undefined {
  if (channel === "email" && !config.mail) return "E-mail is not configured on this service: set SMTP_URL and MAIL_FROM.";
  if (channel === "sms" && !config.twilio) return "Text messages are not configured on this service: set the TWILIO_ variables.";
  return undefined;
}

export function automationRoutes(api: ApiRouter<Ctx>): void {
  api.route({
    method: "POST",
    url: "/api/create-or-update-automation",
    summary: "Create a guest automation, or update one when automation_id is given",
    description:
      "Messages to guests who opted in to marketing: welcome (after the first login at a location), visit-ended (after a " +
      "session ends, optionally with a 0-10 survey), absence (absence_days without a visit) and birthday. Each e-mail carries a " +
      "one-click unsubscribe (RFC 8058), each text the STOP note. A guest gets at most cap_messages of an automation per cap_days.",
    tags,
    access: "write",
    params: S.AutomationWriteParams,
    refs: { automation_id: ownedAutomation.one("update"), location_ids: liveLocation.list(S.MAX_AUTOMATION_LOCATIONS) },
    checks: [
      ({ given, fail }) => {
        if (given("automation_id")) return;
        if (!given("trigger")) fail("trigger", "The trigger field is required.");
        if (!given("channel")) fail("channel", "The channel field is required.");
      },
      ({ p, config, fail }) => {
        const why = p.channel === undefined ? undefined : channelUnavailable(config, p.channel);
        if (why) fail("channel", why);
      },
      ({ p, refs, fail }) => {
        const trigger = p.trigger ?? refs.automation_id?.trigger;
        if (p.survey === "1" && trigger !== undefined && trigger !== "visit-ended") fail("survey", "A survey can follow the visit-ended trigger only.");
      },
      ({ p, fail }) => {
        const texts: [string, string[]][] = [
          ["subject", [p.subject ?? ""]],
          ["body", [p.body ?? ""]],
          ["survey_question", [p.survey_question ?? ""]],
        ];
        if (p.translations !== undefined) {
          const parsed = automations.parseTranslations(p.translations);
          if ("sentence" in parsed) fail("translations", parsed.sentence);
          else texts.push(["translations", Object.values(parsed.translations).flatMap((t) => [t.subject, t.body])]);
        }
        for (const [param, values] of texts) {
          const unknown = automations.unknownPlaceholders(values);
          if (unknown.length > 0) fail(param, `The ${param} names unknown fields (${unknown.map((f) => `{{${f}}}`).join(", ")}); known: ${TEMPLATE_FIELDS.join(", ")}.`);
        }
      },
    ],
    response: S.AutomationWriteResponse,
    handler: async ({ ctx, caller }, p, r) => {
      const translations = p.translations === undefined ? undefined : automations.parseTranslations(p.translations);
      const input: automations.AutomationInput = {
        name: p.name,
        trigger: p.trigger,
        channel: p.channel,
        locationIds: r.location_ids?.map((l) => l.id),
        delayMinutes: p.delay_minutes,
        absenceDays: p.absence_days,
        sendTime: p.send_time,
        subject: p.subject,
        body: p.body,
        translations: translations && "translations" in translations ? translations.translations : undefined,
        capMessages: p.cap_messages,
        capDays: p.cap_days,
        survey: p.survey === undefined ? undefined : p.survey === "1",
        surveyQuestion: p.survey_question,
        reviewUrl: p.review_url,
        active: p.active === undefined ? undefined : p.active === "1",
      };
      const existing = r.automation_id ?? undefined;
      const row = await automations.saveAutomation(ctx, caller.accountId, input, existing);
      return ok({
        message: existing ? "Automation has been successfully updated." : "Automation has been successfully created.",
        automation_id: row.id,
        data: automations.automationRecord(row),
      });
    },
  });

  api.route({
    method: "GET",
    url: "/api/automation-list",
    summary: "The caller's guest automations, ordered by id",
    tags,
    access: "read",
    params: S.AutomationListParams,
    response: S.AutomationListResponse,
    handler: async ({ ctx, caller }) => ok({ data: await automations.listAutomations(ctx, caller.accountId) }),
  });

  api.route({
    method: "POST",
    url: "/api/delete-automation",
    summary: "Delete a guest automation; its messages not yet sent are withdrawn",
    tags,
    access: "write",
    params: S.DeleteAutomationParams,
    refs: { automation_id: ownedAutomation.one("update") },
    response: S.MessageResponse,
    handler: async ({ ctx }, _p, r) => {
      await automations.deleteAutomation(ctx, r.automation_id);
      return ok({ message: "Automation has been successfully deleted." });
    },
  });
}
