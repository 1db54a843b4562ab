import { type ApiRouter, dateRangeCheck, ok } from "../../http/api-route.js";
import type { Ctx } from "../context.js";
import { ownedGuest } from "../guests/guests.refs.js";
import { liveLocation, ownedLocation } from "../locations/locations.refs.js";
import { anyOwnedAutomation } from "./automations.refs.js";
import { channelUnavailable } from "./automations.routes.js";
import * as S from "./messages.schemas.js";
import * as messages from "./messages.service.js";
import type { Frequency } from "./quick-report-mail.js";

const tags = ["Messages"];

export function messageRoutes(api: ApiRouter<Ctx>): void {
  api.route({
    method: "GET",
    url: "/api/message-list",
    summary: "The account's messages (guest automations, quick reports, test e-mails), ordered by id, with their state and every attempt",
    tags,
    access: "read",
    params: S.MessageListParams,
    refs: { user_id: ownedGuest.one(), location_id: ownedLocation.one(), automation_id: anyOwnedAutomation.one() },
    response: S.MessageListResponse,
    handler: async ({ ctx, caller }, p, r) => {
      const filter = {
        accountId: caller.accountId,
        guestId: r.user_id?.id,
        locationId: r.location_id?.id,
        automationId: r.automation_id?.id,
        status: p.status,
        kind: p.kind,
      };
      return ok(await messages.listMessages(ctx, filter, p.page ?? 1, p.per_page ?? S.DEFAULT_PAGE));
    },
  });

  api.route({
    method: "POST",
    url: "/api/send-test-email",
    summary: "Send a test e-mail through the configured SMTP server (see message-list for how it went)",
    tags,
    access: "write",
    params: S.SendTestEmailParams,
    checks: [
      ({ config, fail }) => {
        const why = channelUnavailable(config, "email");
        if (why) fail("to", why);
      },
    ],
    response: S.SendTestEmailResponse,
    handler: async ({ ctx, caller, config }, p) => {
      const to = p.to ?? (await messages.quickReportOf(ctx, caller.accountId, caller.subUserId)).email;
      const id = await messages.queueTestMail(ctx, config, caller.accountId, to);
      return ok({ message: `A test e-mail to ${to} has been queued.`, message_id: id });
    },
  });

  api.route({
    method: "GET",
    url: "/api/get-quick-report",
    summary: "The caller's quick report: the owner's own, or the calling sub-user's",
    tags,
    access: "read",
    params: S.GetQuickReportParams,
    response: S.QuickReportResponse,
    handler: async ({ ctx, caller }) => ok({ data: await messages.quickReportOf(ctx, caller.accountId, caller.subUserId) }),
  });

  api.route({
    method: "POST",
    url: "/api/set-quick-report",
    summary: "Turn the caller's quick report on or off, daily or weekly (a read-only sub-user may change its own)",
    description:
      "The quick report is an e-mail of the day before (or of the last week, on Mondays) against a week earlier, sent after " +
      "QUICK_REPORT_HOUR in the location's time zone. A sub-user's covers its quickreport_location_id; the owner's one location or every one.",
    tags,
    access: "read",
    params: S.QuickReportParams,
    refs: { quickreport_location_id: liveLocation.optionalOne() },
    checks: [
      ({ caller, given, fail }) => {
        if (caller.subUserId !== null && given("quickreport_location_id")) {
          fail("quickreport_location_id", "A sub-user's report covers the location set on the sub-user; only the owner's report takes quickreport_location_id.");
        }
      },
    ],
    response: S.QuickReportResponse,
    handler: async ({ ctx, caller }, p, r) => {
      const on = p.quickreport === "1" || p.quickreport === "true";
      const location = r.quickreport_location_id === undefined ? undefined : (r.quickreport_location_id?.id ?? 0);
      await messages.setQuickReport(ctx, caller.accountId, caller.subUserId, on, p.frequency as Frequency | undefined, location);
      return ok({ data: await messages.quickReportOf(ctx, caller.accountId, caller.subUserId) });
    },
  });

  api.route({
    method: "GET",
    url: "/api/survey-answer-list",
    summary: "Answers to the survey after a visit (score 0-10 and comment), ordered by id, per guest or location",
    tags,
    access: "read",
    params: S.SurveyAnswerListParams,
    refs: { user_id: ownedGuest.one(), location_id: ownedLocation.one() },
    response: S.SurveyAnswerListResponse,
    handler: async ({ ctx, caller }, p, r) => {
      const f = { accountId: caller.accountId, guestId: r.user_id?.id, locationId: r.location_id?.id };
      return ok(await messages.listSurveyAnswers(ctx, f, p.page ?? 1, p.per_page ?? S.DEFAULT_PAGE));
    },
  });

  api.route({
    method: "GET",
    url: "/api/survey-scores",
    summary: "A location's survey scores per day: answers, average and net promoter score",
    tags,
    access: "read",
    params: S.SurveyScoresParams,
    refs: { location_id: ownedLocation.one() },
    checks: [dateRangeCheck(S.SURVEY_MAX_DAYS)],
    response: S.SurveyScoresResponse,
    handler: async ({ ctx }, p, r) => ok(await messages.surveyScores(ctx, r.location_id.id, p.from_date, p.to_date)),
  });
}
