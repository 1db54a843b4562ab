import { Type } from "@sinclair/typebox";
import { F } from "../../http/validation.js";
import { AGGREGATIONS } from "./buckets.js";

/** to_date at most this many days after from_date. */
export const ANALYTICS_MAX_DAYS = 60;
/** At most this many location ids in one call. */
export const ANALYTICS_MAX_LOCATIONS = 100;

export const AnalyticsParams = Type.Object({
  identifier: F.identifier(),
  location_id: F.idList(
    `One location id or up to ${ANALYTICS_MAX_LOCATIONS} comma-separated ids; the counts of several locations add up.`,
  ),
  from_date: F.date("First day (in each location's own time zone)."),
  to_date: F.date(`Last day, at most ${ANALYTICS_MAX_DAYS} days after from_date.`),
  agg: Type.Optional(
    Type.Union(
      AGGREGATIONS.map((a) => Type.Literal(a)),
      {
        description: "DAY (default): one category per day; WEEK: per ISO week (Monday start); MONTH: per calendar month.",
        "x-error": "oneOf",
        "x-values": AGGREGATIONS,
      },
    ),
  ),
});

export const AnalyticsSeriesResponse = Type.Object({
  status: Type.Literal("success"),
  series: Type.Array(
    Type.Object({
      name: Type.String(),
      data: Type.Array(Type.Integer(), { description: "One number per category, zeros included." }),
    }),
  ),
  categories: Type.Array(Type.String({ description: "YYYY-MM-DD: the day, or the first day of the bucket inside the range." })),
});

/** Longest range the console's overview asks for at once (three years), so a request stays O(days) with a bound. */
export const OVERVIEW_MAX_DAYS = 1096;

const Series = (description: string) => Type.Array(Type.Integer(), { description: `${description}, one number per day.` });

/** What the console's overview shows for one location or several over a range of days (overview.service.ts). */
export const Overview = Type.Object({
  days: Type.Array(Type.String(), { description: "The days, YYYY-MM-DD, in each location's own time zone." }),
  logins: Type.Array(
    Type.Object({ type: Type.String({ description: "The login type's code (Muser)." }), name: Type.String({ description: "Its name (E-mail)." }), data: Type.Array(Type.Integer()) }),
    { description: "One series per login type, in the order of login-types.ts." },
  ),
  visits: Series("Distinct guests connected (as get-visits)"),
  newGuests: Series("Of those, guests connecting at the location for the first time"),
  returningGuests: Series("Visits by guests seen before (visits - new)"),
  usageBytes: Series("Octets used, in and out (RADIUS accounting)"),
  hours: Type.Array(Type.Integer(), { description: "Logins by local weekday and hour: 168 numbers, index weekday * 24 + hour, Monday first." }),
  totals: Type.Object({
    logins: Type.Integer(),
    visits: Type.Integer(),
    newGuests: Type.Integer(),
    returningGuests: Type.Integer(),
    usageBytes: Type.Integer(),
  }),
});
