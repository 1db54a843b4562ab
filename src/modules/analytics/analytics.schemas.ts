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
