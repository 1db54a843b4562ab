/** Live sessions: RADIUS sessions still open that their gateway reported on recently. */
import type { DB } from "../../db/database.js";

export interface LiveSessionRow {
  id: number;
  location_id: number;
  guest_id: number | null;
  client_mac: string;
  framed_ip: string | null;
  device_id: number;
  device_name: string;
  device_mac: string;
  started_at: string;
  updated_at: string;
  session_time: number | string;
  input_octets: number | string;
  output_octets: number | string;
}

export function createSessionRepository() {
  return {
    /** Open sessions at these locations heard from since `heardSince`, by id after `afterId`. */
    async listLive(db: DB, locationIds: number[], heardSince: string, afterId: number, limit: number): Promise<LiveSessionRow[]> {
      if (locationIds.length === 0) return [];
      return (await db
        .selectFrom("radius_sessions as s")
        .innerJoin("devices as d", "d.id", "s.device_id")
        .select([
          "s.id",
          "s.location_id",
          "s.guest_id",
          "s.client_mac",
          "s.framed_ip",
          "s.device_id",
          "d.name as device_name",
          "d.mac_address as device_mac",
          "s.started_at",
          "s.updated_at",
          "s.session_time",
          "s.input_octets",
          "s.output_octets",
        ])
        .where("s.location_id", "in", locationIds)
        .where("s.stopped_at", "is", null)
        .where("s.updated_at", ">=", heardSince)
        .where("s.id", ">", afterId)
        .orderBy("s.id")
        .limit(limit)
        .execute()) as LiveSessionRow[];
    },
  };
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
