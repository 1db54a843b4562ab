/** Webhooks: subscriptions (URL, events, locations), the signing secret shown once at creation, delete, and each one's delivery log. */
import { useState } from "preact/hooks";
import { get, post } from "../api";
import { type Location, navigate } from "../state";
import { ConfirmButton, type Field, Form, Link, Loading, Notice, ReadOnlyNote, Table, type Values, useLoad } from "../ui";
import type { PageProps } from "./page";
import type { Delivery, Webhook } from "../types";

const PER_PAGE = 20;
const STATUSES = ["", "pending", "delivered", "failed"];
/** Field names without the dot of "guest.login" (it would need escaping in every selector). */
const eventField = (e: string) => `ev_${e.replace(/\W/g, "_")}`;
/** An ISO time as the console shows times: "YYYY-MM-DD HH:MM:SS" (UTC). */
const when = (iso: string) => (iso ? iso.replace("T", " ").replace(/\.\d+Z$|Z$/, "") : "—");

export function WebhooksPage(props: PageProps) {
  const m = /^(new|\d+)$/.exec(props.id ?? "");
  const ro = props.session.user.readonly;
  const events = props.session.settings.webhook_events;
  // The secret of a webhook just created, kept here so that the webhook's own page can show it this once.
  const [fresh, setFresh] = useState<{ id: number; secret: string } | undefined>();
  if (m?.[1] === "new") return <NewWebhook readonly={ro} events={events} onCreated={(id, secret) => setFresh({ id, secret })} />;
  if (m) return <WebhookDetail id={Number(m[1])} readonly={ro} events={events} secret={fresh?.id === Number(m[1]) ? fresh.secret : undefined} />;
  return <WebhookList readonly={ro} />;
}

function WebhookList(props: { readonly: boolean }) {
  const list = useLoad(() => get<{ data: Webhook[] }>("/api/webhook-list"), []);
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  const names = new Map((locations.data?.data ?? []).map((l) => [l.id, l.name]));
  return (
    <>
      <h1>Webhooks</h1>
      <p class="muted">Your other systems told of guest logins, sessions and erasures: each event is POSTed as signed JSON, retried for 24 hours.</p>
      <ReadOnlyNote readonly={props.readonly} />
      {!props.readonly && (
        <p>
          <Link href="/console/webhooks/new" class="button primary">
            Add webhook
          </Link>
        </p>
      )}
      {!list.data || !locations.data ? (
        <Loading error={list.error ?? locations.error} />
      ) : (
        <Table
          caption="Webhooks"
          head={["URL", "Events", "Locations", "Created (UTC)"]}
          empty="No webhook yet."
          rows={list.data.data.map((w) => [
            <Link key="u" href={`/console/webhooks/${w.webhook_id}`}>
              {w.url}
            </Link>,
            w.events.join(", "),
            w.location_ids.length === 0 ? "All" : w.location_ids.map((id) => names.get(id) ?? `#${id}`).join(", "),
            w.date_created,
          ])}
        />
      )}
    </>
  );
}

function webhookFields(events: string[], locations: Location[]): Field[] {
  return [
    { name: "url", label: "URL", type: "url", required: true, maxLength: 2048, hint: "Where events are POSTed: http or https on a public address." },
    ...events.map((e) => ({ name: eventField(e), label: `Event ${e}`, type: "checkbox" as const })),
    ...locations.map((l) => ({ name: `loc_${l.id}`, label: `Only ${l.name}`, type: "checkbox" as const })),
  ];
}

function webhookParams(v: Values, events: string[], locations: Location[]): Record<string, string> {
  return {
    url: typeof v.url === "string" ? v.url.trim() : "",
    events: events.filter((e) => v[eventField(e)] === true).join(","),
    location_ids: locations
      .filter((l) => v[`loc_${l.id}`] === true)
      .map((l) => l.id)
      .join(","),
  };
}

const LOCATIONS_HINT = "Tick no location for events of every location.";

function NewWebhook(props: { readonly: boolean; events: string[]; onCreated: (id: number, secret: string) => void }) {
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  if (!locations.data) return <Loading error={locations.error} />;
  const locs = locations.data.data;
  return (
    <>
      <p>
        <Link href="/console/webhooks">← Webhooks</Link>
      </p>
      <h1>Add webhook</h1>
      <ReadOnlyNote readonly={props.readonly} />
      <p class="muted">{LOCATIONS_HINT}</p>
      <Form
        fields={webhookFields(props.events, locs)}
        initial={Object.fromEntries(props.events.map((e) => [eventField(e), e === "guest.login"]))}
        submitLabel="Add webhook"
        disabled={props.readonly}
        submit={async (v) => {
          const r = await post<{ webhook_id: number; secret?: string }>("/api/create-or-update-webhook", webhookParams(v, props.events, locs));
          if (r.secret) props.onCreated(r.webhook_id, r.secret);
          navigate(`/console/webhooks/${r.webhook_id}`);
          return undefined;
        }}
      />
    </>
  );
}

function WebhookDetail(props: { id: number; readonly: boolean; events: string[]; secret?: string }) {
  const { id, readonly } = props;
  const list = useLoad(() => get<{ data: Webhook[] }>("/api/webhook-list"), [id]);
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  if (!list.data || !locations.data) return <Loading error={list.error ?? locations.error} />;
  const w = list.data.data.find((x) => x.webhook_id === id);
  if (!w) {
    return (
      <>
        <p>
          <Link href="/console/webhooks">← Webhooks</Link>
        </p>
        <h1>Webhook not found</h1>
        <Notice kind="error">This webhook does not exist or was deleted.</Notice>
      </>
    );
  }
  const locs = locations.data.data;
  return (
    <>
      <p>
        <Link href="/console/webhooks">← Webhooks</Link>
      </p>
      <h1>{`Webhook ${w.webhook_id}`}</h1>
      <ReadOnlyNote readonly={readonly} />
      {props.secret && (
        <Notice kind="ok">
          Webhook created. Its signing secret, shown this once (store it now; the service cannot show it again): <code class="secret">{props.secret}</code>
        </Notice>
      )}
      <dl class="facts">
        <dt>URL</dt>
        <dd>{w.url}</dd>
        <dt>Events</dt>
        <dd>{w.events.join(", ")}</dd>
        <dt>Created (UTC)</dt>
        <dd>{w.date_created}</dd>
      </dl>
      <section aria-labelledby="edit-h">
        <h2 id="edit-h">Settings</h2>
        <p class="muted">{LOCATIONS_HINT}</p>
        <Form
          fields={webhookFields(props.events, locs)}
          initial={{
            url: w.url,
            ...Object.fromEntries(props.events.map((e) => [eventField(e), w.events.includes(e)])),
            ...Object.fromEntries(locs.map((l) => [`loc_${l.id}`, w.location_ids.includes(l.id)])),
          }}
          submitLabel="Save webhook"
          disabled={readonly}
          submit={async (v) => {
            await post("/api/create-or-update-webhook", { webhook_id: w.webhook_id, ...webhookParams(v, props.events, locs) });
            list.reload();
            return "Saved.";
          }}
        />
      </section>
      <Deliveries webhookId={w.webhook_id} />
      <section aria-labelledby="delete-h">
        <h2 id="delete-h">Delete</h2>
        <p class="muted">Deliveries not yet sent are marked failed.</p>
        <ConfirmButton
          danger
          label="Delete webhook"
          disabled={readonly}
          question={`Delete the webhook to ${w.url}? Events stop going there at once.`}
          onConfirm={async () => {
            await post("/api/delete-webhook", { webhook_id: w.webhook_id });
            navigate("/console/webhooks");
          }}
        />
      </section>
    </>
  );
}

function Deliveries(props: { webhookId: number }) {
  const [status, setStatus] = useState("");
  // The cursors of the pages seen so far (0: the newest), so that "Newer" goes back one.
  const [cursors, setCursors] = useState<number[]>([0]);
  const before = cursors[cursors.length - 1] ?? 0;
  const log = useLoad(
    () =>
      get<{ data: Delivery[]; next_before_delivery_id: number }>("/api/webhook-delivery-list", {
        webhook_id: props.webhookId,
        status,
        before_delivery_id: before || undefined,
        limit: PER_PAGE,
      }),
    [props.webhookId, status, before],
  );
  return (
    <section aria-labelledby="log-h">
      <h2 id="log-h">Delivery log</h2>
      <div class="toolbar">
        <div class="field">
          <label for="delivery-status">Show</label>
          <select
            id="delivery-status"
            value={status}
            onChange={(e) => {
              setStatus((e.target as HTMLSelectElement).value);
              setCursors([0]);
            }}
          >
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s === "" ? "All deliveries" : s}
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
            caption="Deliveries, newest first"
            head={["Event", "State", "Attempts", "Queued (UTC)", "Next try (UTC)", "Last answer"]}
            empty="No delivery yet: events appear here when they happen."
            rows={log.data.data.map((d) => [
              d.event_type,
              <span key="s" class={`status status-${d.status}`}>
                {d.status}
              </span>,
              String(d.attempts),
              when(d.created_at),
              d.status === "pending" ? when(d.next_attempt_at) : "—",
              d.last_status_code !== null ? `HTTP ${d.last_status_code}` : d.last_error || "—",
            ])}
          />
          {(cursors.length > 1 || log.data.next_before_delivery_id > 0) && (
            <p class="pager">
              <button type="button" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
                Newer
              </button>
              <button
                type="button"
                disabled={log.data.next_before_delivery_id === 0}
                onClick={() => setCursors([...cursors, log.data?.next_before_delivery_id ?? 0])}
              >
                Older
              </button>
            </p>
          )}
        </>
      )}
    </section>
  );
}
