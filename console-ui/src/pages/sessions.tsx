/**
 * Who is online now: open RADIUS sessions, refreshed every 15 seconds. Users who may write get a
 * Disconnect button per session (POST /api/disconnect-session); read-only users do not see it.
 */
import { useEffect, useState } from "preact/hooks";
import { ApiError, get, post } from "../api";
import { type Location, formatBytes, formatDuration } from "../state";
import { Link, Loading, Notice, ReadOnlyNote, Table, useLoad } from "../ui";
import type { PageProps } from "./page";
import type { DisconnectAnswer, LiveSession } from "../types";

const OUTCOMES: Record<DisconnectAnswer["data"]["result"], string> = {
  ack: "The gateway ended the session.",
  nak: "The gateway refused to end the session",
  timeout: "The gateway did not answer. Check that it accepts Disconnect requests from this service (UDP port 3799).",
  unsupported: "This gateway's family cannot end sessions on request; the guest stays online until the session times out.",
  "no-address": "The gateway's address is not known yet; try again after its next accounting update.",
};

export function SessionsPage(props: PageProps) {
  const readonly = props.session.user.readonly;
  const [outcome, setOutcome] = useState<{ kind: "ok" | "warn" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
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
  const disconnect = async (s: LiveSession) => {
    if (!window.confirm(`Disconnect ${s.client_mac || `session ${s.session_id}`} now?`)) return;
    setBusy(s.session_id);
    try {
      const r = await post<DisconnectAnswer>("/api/disconnect-session", { session_id: s.session_id });
      const cause = r.data.error_cause ? ` (Error-Cause ${r.data.error_cause})` : "";
      setOutcome({ kind: r.data.result === "ack" ? "ok" : "warn", text: `${OUTCOMES[r.data.result]}${r.data.result === "nak" ? `${cause}.` : ""}` });
      sessions.reload();
    } catch (err) {
      setOutcome({ kind: "error", text: err instanceof ApiError ? err.message : "The disconnect could not be sent." });
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <h1>Live sessions</h1>
      <ReadOnlyNote readonly={readonly} />
      {outcome && <Notice kind={outcome.kind}>{outcome.text}</Notice>}
      <p class="muted" aria-live="polite">
        {sessions.data ? `${sessions.data.data.length} ${sessions.data.data.length === 1 ? "guest" : "guests"} online. Updated every 15 seconds.` : ""}
      </p>
      {!sessions.data ? (
        <Loading error={sessions.error} />
      ) : (
        <Table
          caption="Guests online now"
          head={["Guest and device", "Address", "Location", "Access point", "Since (UTC)", "Duration", "Down / up", ...(readonly ? [] : ["Actions"])]}
          empty="Nobody is online."
          rows={sessions.data.data.map((s) => [
            <span key="g" class="stack">
              {s.social_user_id ? <Link href={`/console/guests/${s.social_user_id}`}>{s.guest_name || `Guest ${s.social_user_id}`}</Link> : "Unknown guest"}
              <small class="mono">{s.client_mac || "no MAC"}</small>
            </span>,
            s.ip_address,
            names.get(s.location_id) ?? "—",
            s.device_name,
            s.started_at,
            formatDuration(s.duration),
            `${formatBytes(s.bytes_out)} / ${formatBytes(s.bytes_in)}`,
            ...(readonly
              ? []
              : [
                  <button key="d" type="button" class="danger" disabled={busy === s.session_id} aria-label={`Disconnect ${s.client_mac || `session ${s.session_id}`}`} onClick={() => void disconnect(s)}>
                    {busy === s.session_id ? "Disconnecting…" : "Disconnect"}
                  </button>,
                ]),
          ])}
        />
      )}
    </>
  );
}
