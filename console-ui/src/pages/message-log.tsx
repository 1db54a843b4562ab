/** The message log (message-list) as a table with a state filter and pages; shown on the Messages page, an automation's page and a guest's page. */
import { useState } from "preact/hooks";
import { get } from "../api";
import { Loading, Table, useLoad } from "../ui";
import type { MessageEntry } from "../types";

const PER_PAGE = 25;
const STATUSES = ["", "pending", "sent", "failed", "skipped", "cancelled"];
/** An ISO time as the console shows times: "YYYY-MM-DD HH:MM:SS" (UTC). */
export const when = (iso: string) => (iso ? iso.replace("T", " ").replace(/\.\d+Z$|Z$/, "") : "—");

function outcome(m: MessageEntry): string {
  if (m.status === "pending") return m.next_attempt_at ? `next try ${when(m.next_attempt_at)}` : "—";
  const last = m.attempt_log[m.attempt_log.length - 1];
  if (m.status === "sent") return last?.status_code ? `accepted (${last.status_code})` : "accepted";
  return m.last_error || "—";
}

/** `filter`: message-list's own filters (user_id, automation_id, kind). */
export function MessageLog(props: { filter: Record<string, string | number>; caption: string; id: string }) {
  const [status, setStatus] = useState("");
  const [page, setPage] = useState(1);
  const key = JSON.stringify(props.filter);
  const log = useLoad(() => get<{ data: MessageEntry[]; total: number }>("/api/message-list", { ...props.filter, status, page, per_page: PER_PAGE }), [key, status, page]);
  const pages = log.data ? Math.max(1, Math.ceil(log.data.total / PER_PAGE)) : 1;
  return (
    <section aria-labelledby={`${props.id}-h`}>
      <h2 id={`${props.id}-h`}>{props.caption}</h2>
      <div class="toolbar">
        <div class="field">
          <label for={`${props.id}-status`}>Show</label>
          <select
            id={`${props.id}-status`}
            value={status}
            onChange={(e) => {
              setStatus((e.target as HTMLSelectElement).value);
              setPage(1);
            }}
          >
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s === "" ? "All messages" : s}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={() => log.reload()}>
          Refresh
        </button>
      </div>
      {!log.data ? (
        <Loading error={log.error} />
      ) : (
        <>
          <Table
            caption={`${props.caption}, oldest first`}
            head={["Queued (UTC)", "Kind", "To", "Subject", "State", "Tries", "Outcome"]}
            empty="No message yet."
            rows={log.data.data.map((m) => [
              when(m.created_at),
              `${m.kind === "automation" ? "automation" : m.kind} (${m.channel})`,
              m.recipient || "—",
              m.subject || "—",
              <span key="s" class={`status status-${m.status}`}>
                {m.status}
              </span>,
              String(m.attempts),
              outcome(m),
            ])}
          />
          {pages > 1 && (
            <p class="pager">
              <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </button>
              <span>
                Page {page} of {pages}
              </span>
              <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                Next
              </button>
            </p>
          )}
        </>
      )}
    </section>
  );
}
