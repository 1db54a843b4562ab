/**
 * The audit log: who changed what in the account, when and from where (audit-log-list), newest first,
 * filtered and paged; the owner sets how long entries are kept (set-audit-log-retention).
 */
import { useState } from "preact/hooks";
import { get, post } from "../api";
import type { Location } from "../state";
import { Form, Loading, Notice, Table, useLoad } from "../ui";
import type { PageProps } from "./page";
import type { AuditLogPage } from "../types";

interface Filters {
  actor: string;
  action: string;
  object: string;
  from_date: string;
  to_date: string;
}

const PER_PAGE = 25;
const EMPTY: Filters = { actor: "", action: "", object: "", from_date: "", to_date: "" };
const VIA: Record<string, string> = { api: "API", console: "console", cli: "command line" };

/** "location_id" → "Location" */
function paramName(p: string): string {
  const s = p.replace(/_ids?$/, "").replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function ObjectsCell(props: { objects: Record<string, number[]>; locations: Map<number, string> }) {
  const parts = Object.entries(props.objects).flatMap(([param, ids]) =>
    ids.map((id) => (param === "location_id" && props.locations.has(id) ? `Location ${props.locations.get(id)} (${id})` : `${paramName(param)} ${id}`)),
  );
  return <span class="wrap">{parts.length ? parts.join(", ") : "—"}</span>;
}

function ChangesCell(props: { changes: Record<string, unknown> }) {
  const entries = Object.entries(props.changes);
  if (entries.length === 0) return <>—</>;
  const list = (
    <ul class="changes">
      {entries.map(([k, v]) => (
        <li key={k}>
          <span class="muted">{k}:</span> {typeof v === "string" ? v : JSON.stringify(v)}
        </li>
      ))}
    </ul>
  );
  // A long list (a location's every option) stays one line until asked for.
  if (entries.length <= 4) return list;
  return (
    <details class="changes">
      <summary>
        {entries.length} fields: {entries.slice(0, 3).map(([k]) => k).join(", ")}…
      </summary>
      {list}
    </details>
  );
}

export function AuditPage(props: PageProps) {
  const { user } = props.session;
  const owner = user.role === "owner";
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(1);
  const subs = useLoad(
    () => (owner ? get<{ data: { id: number; first_name: string; last_name: string }[] }>("/api/subuser-list") : Promise.resolve({ data: [] })),
    [],
  );
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  const log = useLoad(() => {
    const [actorType, subId] = filters.actor.split(":");
    return get<AuditLogPage>("/api/audit-log-list", {
      page,
      per_page: PER_PAGE,
      actor_type: actorType || undefined,
      sub_user_id: subId || undefined,
      action: filters.action.trim() || undefined,
      object: filters.object.trim() || undefined,
      from_date: filters.from_date || undefined,
      to_date: filters.to_date || undefined,
    });
  }, [filters, page]);
  const [retention, setRetention] = useState<number | undefined>();
  const inForce = retention ?? log.data?.retention_days;
  const locNames = new Map((locations.data?.data ?? []).map((l) => [l.id, l.name]));
  const pages = log.data ? Math.max(1, Math.ceil(log.data.total / PER_PAGE)) : 1;
  const set = (k: keyof Filters) => (e: Event) => setDraft({ ...draft, [k]: (e.target as HTMLInputElement).value });

  return (
    <>
      <h1>Audit log</h1>
      <p class="muted">Every change made in this account through the console, the API or the command line: who, when, what and from which address.</p>
      <form
        class="toolbar audit-filters"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(1);
          setFilters(draft);
        }}
      >
        <label>
          Who{" "}
          <select id="audit-who" value={draft.actor} onChange={set("actor")}>
            <option value="">Everyone</option>
            <option value="owner">The owner</option>
            <option value="sub-user">Any sub-user</option>
            {(subs.data?.data ?? []).map((s) => (
              <option key={s.id} value={`sub-user:${s.id}`}>
                {s.first_name} {s.last_name}
              </option>
            ))}
            <option value="cli">The command line</option>
          </select>
        </label>
        <label>
          Action{" "}
          <input id="audit-action" type="text" value={draft.action} onInput={set("action")} placeholder="update-sub-user" size={18} />
        </label>
        <label>
          Record{" "}
          <select id="audit-record" value={draft.object} onChange={set("object")}>
            <option value="">Any record</option>
            {(locations.data?.data ?? []).map((l) => (
              <option key={l.id} value={`location_id:${l.id}`}>
                Location {l.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          From{" "}
          <input id="audit-from" type="date" value={draft.from_date} max={draft.to_date || undefined} onChange={set("from_date")} />
        </label>
        <label>
          To{" "}
          <input id="audit-to" type="date" value={draft.to_date} min={draft.from_date || undefined} onChange={set("to_date")} />
        </label>
        <button type="submit" class="primary">
          Show
        </button>
        <button
          type="button"
          onClick={() => {
            setDraft(EMPTY);
            setFilters(EMPTY);
            setPage(1);
          }}
        >
          Clear
        </button>
      </form>
      {!log.data ? (
        <Loading error={log.error} />
      ) : (
        <>
          {log.error && <Notice kind="error">{log.error}</Notice>}
          <p role="status">
            {log.data.total === 0 ? "No entry matches." : `${log.data.total} ${log.data.total === 1 ? "entry" : "entries"}, newest first; page ${log.data.page} of ${pages}.`}
          </p>
          <Table
            caption="Audit log"
            head={["When (UTC)", "Who", "Action", "Records", "Changes", "From"]}
            empty="Nothing recorded yet."
            rows={log.data.data.map((e) => [
              e.at,
              <span class="wrap" key="w">
                {e.actor}
                <br />
                <small class="muted">
                  {e.actor_type === "sub-user" ? "sub-user" : e.actor_type === "cli" ? "" : "owner"}
                  {e.actor_type === "cli" ? "" : ` via ${VIA[e.via] ?? e.via}`}
                </small>
              </span>,
              <span class="wrap" key="a">
                {e.action}
              </span>,
              <ObjectsCell key="o" objects={e.objects} locations={locNames} />,
              <ChangesCell key="c" changes={e.changes} />,
              e.address || "—",
            ])}
          />
          {pages > 1 && (
            <nav class="pager" aria-label="Audit log pages">
              <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Newer
              </button>
              <span>
                Page {page} of {pages}
              </span>
              <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                Older
              </button>
            </nav>
          )}
        </>
      )}
      <section aria-labelledby="audit-retention-h">
        <h2 id="audit-retention-h">Retention</h2>
        {inForce !== undefined && (
          <p id="audit-retention-now">{inForce === 0 ? "Entries are kept for ever." : `Entries older than ${inForce} days are deleted.`}</p>
        )}
        {!owner && <Notice kind="info">Only the account's owner sets how long the audit log is kept.</Notice>}
        <Form
          fields={[
            { name: "retention_days", label: "Keep entries for (days)", type: "number", required: true, min: 0, max: 3650, hint: "0 to 3650; 0 keeps them for ever. The default is 365." },
          ]}
          initial={{ retention_days: inForce === undefined ? "" : String(inForce) }}
          submitLabel="Save audit retention"
          disabled={!owner}
          submit={async (v) => {
            const r = await post<{ message: string; retention_days: number }>("/api/set-audit-log-retention", { retention_days: String(v.retention_days ?? "").trim() });
            setRetention(r.retention_days);
            log.reload();
            return r.message;
          }}
        />
      </section>
    </>
  );
}
