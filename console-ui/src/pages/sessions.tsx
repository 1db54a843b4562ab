/** Who is online now: open RADIUS sessions, refreshed every 15 seconds. */
import { useEffect, useState } from "preact/hooks";
import { get } from "../api";
import { type Location, formatBytes, formatDuration } from "../state";
import { Link, Loading, Table, useLoad } from "../ui";
import type { PageProps } from "./page";

interface LiveSession {
  session_id: number;
  location_id: number;
  social_user_id: number;
  client_mac: string;
  ip_address: string;
  device_name: string;
  started_at: string;
  last_update: string;
  duration: number;
  bytes_in: number;
  bytes_out: number;
}

export function SessionsPage(_props: PageProps) {
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setTick((n) => n + 1), 15_000);
    return () => clearInterval(t);
  }, []);
  const ids = (locations.data?.data ?? []).map((l) => l.id).slice(0, 100);
  const sessions = useLoad(
    () => (ids.length === 0 ? Promise.resolve({ data: [] as LiveSession[] }) : get<{ data: LiveSession[] }>("/api/session-list", { location_ids: ids.join(",") })),
    [ids.join(","), tick],
  );
  const names = new Map((locations.data?.data ?? []).map((l) => [l.id, l.name]));
  return (
    <>
      <h1>Live sessions</h1>
      <p class="muted" aria-live="polite">
        {sessions.data ? `${sessions.data.data.length} guests online. Updated every 15 seconds.` : ""}
      </p>
      {!sessions.data ? (
        <Loading error={sessions.error} />
      ) : (
        <Table
          caption="Guests online now"
          head={["Guest", "MAC", "Address", "Location", "Access point", "Since (UTC)", "Duration", "Down", "Up"]}
          empty="Nobody is online."
          rows={sessions.data.data.map((s) => [
            s.social_user_id ? (
              <Link key="g" href={`/console/guests/${s.social_user_id}`}>
                {`Guest ${s.social_user_id}`}
              </Link>
            ) : (
              "—"
            ),
            s.client_mac,
            s.ip_address,
            names.get(s.location_id) ?? "—",
            s.device_name,
            s.started_at,
            formatDuration(s.duration),
            formatBytes(s.bytes_out),
            formatBytes(s.bytes_in),
          ])}
        />
      )}
    </>
  );
}
