/** Controllers (UniFi, Omada, Ruckus...): list, add, edit with write-only credentials, delete, and the locations each serves. */
import { useState } from "preact/hooks";
import { get, post } from "../api";
import { type Location, navigate } from "../state";
import { ConfirmButton, type Field, Form, Link, Loading, Notice, ReadOnlyNote, Table, type Values, useLoad } from "../ui";
import type { PageProps } from "./page";
import type { Controller } from "../types";

const TYPE_NAMES: Record<string, string> = { unifi: "UniFi", omada: "Omada", ruckus: "Ruckus" };
const typeName = (t: string) => TYPE_NAMES[t] ?? t;
const authName = (a: string) => (a === "api_key" ? "API key" : "Username and password");

export function ControllersPage(props: PageProps) {
  const m = /^(new|\d+)$/.exec(props.id ?? "");
  const ro = props.session.user.readonly;
  const types = props.session.settings.controller_types;
  if (m) return <ControllerDetail id={m[1] === "new" ? null : Number(m[1])} readonly={ro} types={types} />;
  return <ControllerList readonly={ro} />;
}

function ControllerList(props: { readonly: boolean }) {
  const list = useLoad(() => get<{ data: Controller[] }>("/api/controller-list"), []);
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  const names = new Map((locations.data?.data ?? []).map((l) => [l.id, l.name]));
  return (
    <>
      <h1>Controllers</h1>
      <p class="muted">UniFi, Omada and Ruckus networks let guests in through their controller: the service signs in to it to authorise each guest.</p>
      <ReadOnlyNote readonly={props.readonly} />
      {!props.readonly && (
        <p>
          <Link href="/console/controllers/new" class="button primary">
            Add controller
          </Link>
        </p>
      )}
      {!list.data || !locations.data ? (
        <Loading error={list.error ?? locations.error} />
      ) : (
        <Table
          caption="Controllers"
          head={["Name", "Type", "URL", "Sign-in", "Pinned certificate", "Locations"]}
          empty="No controller yet. Add one for locations whose access points a UniFi, Omada or Ruckus controller manages."
          rows={list.data.data.map((c) => [
            <Link key="n" href={`/console/controllers/${c.id}`}>
              {c.name}
            </Link>,
            typeName(c.type),
            c.url,
            authName(c.auth),
            c.tls_fingerprint ? "Yes" : "No",
            c.location_ids.map((id) => names.get(id) ?? `#${id}`).join(", ") || "—",
          ])}
        />
      )}
    </>
  );
}

function credentialFields(type: string, editing: boolean): Field[] {
  const keep = editing ? " Leave blank to keep the stored one." : "";
  const fields: Field[] = [
    {
      name: "username",
      label: "Username",
      autocomplete: "off",
      maxLength: 255,
      hint: type === "ruckus" ? `Optional for Ruckus.${keep}` : `A controller account allowed to authorise guests.${keep}`,
    },
    { name: "password", label: "Password", type: "password", autocomplete: "new-password", maxLength: 1024, hint: `Write-only: never shown again.${keep}` },
  ];
  if (type === "unifi") {
    fields.push({
      name: "api_key",
      label: "API key (UniFi OS, instead of username and password)",
      type: "password",
      autocomplete: "off",
      maxLength: 1024,
      hint: `Write-only.${keep}`,
    });
  }
  return fields;
}

/** What the API takes from the form: credentials only when typed (blank keeps the stored ones), api_key only for UniFi. */
function writeParams(v: Values, id: number | null): Record<string, string | number | undefined> {
  const text = (k: string) => (typeof v[k] === "string" ? (v[k] as string).trim() : "");
  const type = text("type");
  return {
    controller_id: id ?? undefined,
    name: text("name"),
    type,
    url: text("url"),
    site: text("site") || undefined,
    username: text("username") || undefined,
    password: typeof v.password === "string" && v.password !== "" ? v.password : undefined,
    api_key: type === "unifi" && text("api_key") ? text("api_key") : undefined,
    tls_fingerprint: text("tls_fingerprint"),
  };
}

function ControllerDetail(props: { id: number | null; readonly: boolean; types: string[] }) {
  const { id, readonly } = props;
  const list = useLoad(() => get<{ data: Controller[] }>("/api/controller-list"), [id]);
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  const c = list.data?.data.find((x) => x.id === id);
  const [type, setType] = useState<string | undefined>();
  const [saves, setSaves] = useState(0);
  const currentType = type ?? c?.type ?? props.types[0] ?? "unifi";
  const baseFields = (editing: boolean): Field[] => [
    { name: "name", label: "Name", required: true, maxLength: 255 },
    { name: "type", label: "Type", type: "select", required: true, options: props.types.map((t) => ({ value: t, label: typeName(t) })) },
    {
      name: "url",
      label: "URL",
      type: "url",
      required: true,
      maxLength: 2048,
      hint: "Base URL, e.g. https://192.168.1.2:8443 (UniFi), https://omada.example:8043 (Omada), https://sz:9443 (Ruckus).",
    },
    { name: "site", label: "Site", maxLength: 64, hint: "UniFi's short site id (default: default); Omada's site name (default: Default)." },
    ...credentialFields(currentType, editing),
    {
      name: "tls_fingerprint",
      label: "Pinned certificate (SHA-256)",
      maxLength: 128,
      hint: "For a self-signed certificate: its SHA-256 in hex, colons allowed. Empty: the usual certificate checks.",
    },
  ];
  const onChange = (v: Values) => setType(typeof v.type === "string" ? v.type : undefined);

  if (id === null) {
    return (
      <>
        <p>
          <Link href="/console/controllers">← Controllers</Link>
        </p>
        <h1>Add controller</h1>
        <ReadOnlyNote readonly={readonly} />
        <Form
          fields={baseFields(false)}
          initial={{ type: props.types[0] ?? "unifi" }}
          submitLabel="Add controller"
          disabled={readonly}
          onChange={onChange}
          submit={async (v) => {
            const r = await post<{ controller_id: number }>("/api/create-or-update-controller", writeParams(v, null));
            navigate(`/console/controllers/${r.controller_id}`);
            return undefined;
          }}
        />
      </>
    );
  }
  if (!list.data || !locations.data) return <Loading error={list.error ?? locations.error} />;
  if (!c) {
    return (
      <>
        <p>
          <Link href="/console/controllers">← Controllers</Link>
        </p>
        <h1>Controller not found</h1>
        <Notice kind="error">This controller does not exist or was deleted.</Notice>
      </>
    );
  }
  const controllerOf = new Map<number, Controller>();
  for (const other of list.data.data) for (const l of other.location_ids) controllerOf.set(l, other);
  const locs = locations.data.data;
  return (
    <>
      <p>
        <Link href="/console/controllers">← Controllers</Link>
      </p>
      <h1>{c.name}</h1>
      <ReadOnlyNote readonly={readonly} />
      <dl class="facts">
        <dt>Type</dt>
        <dd>{typeName(c.type)}</dd>
        <dt>URL</dt>
        <dd>{c.url}</dd>
        <dt>Site</dt>
        <dd>{c.site || "—"}</dd>
        <dt>Sign-in</dt>
        <dd>{authName(c.auth)} (stored sealed, never shown)</dd>
        <dt>Pinned certificate</dt>
        <dd>{c.tls_fingerprint ? <code>{c.tls_fingerprint}</code> : "No"}</dd>
      </dl>
      <ConnectionSection controller={c} readonly={readonly} onTested={list.reload} />
      <section aria-labelledby="edit-h">
        <h2 id="edit-h">Settings</h2>
        <Form
          fields={baseFields(true)}
          // `saves` changes the initial values after each save, so the form starts again with the credentials blank.
          initial={{ name: c.name, type: c.type, url: c.url, site: c.site, tls_fingerprint: c.tls_fingerprint, saves: String(saves) }}
          submitLabel="Save controller"
          disabled={readonly}
          onChange={onChange}
          submit={async (v) => {
            await post("/api/create-or-update-controller", writeParams(v, c.id));
            setSaves(saves + 1);
            list.reload();
            return "Saved.";
          }}
        />
      </section>
      <section aria-labelledby="locs-h">
        <h2 id="locs-h">Locations</h2>
        <p class="muted">A location has at most one controller: ticking one served by another controller moves it here.</p>
        {locs.length === 0 ? (
          <Notice kind="warn">No location yet.</Notice>
        ) : (
          <Form
            fields={locs.map((l) => {
              const now = controllerOf.get(l.id);
              return {
                name: `loc_${l.id}`,
                label: now && now.id !== c.id ? `${l.name} (now with ${now.name})` : l.name,
                type: "checkbox" as const,
              };
            })}
            initial={Object.fromEntries(locs.map((l) => [`loc_${l.id}`, c.location_ids.includes(l.id)]))}
            submitLabel="Save locations"
            disabled={readonly}
            submit={async (v) => {
              // One call per location that changes: assigning takes a location from another controller, unticking leaves it without one.
              for (const l of locs) {
                const want = v[`loc_${l.id}`] === true;
                if (want === c.location_ids.includes(l.id)) continue;
                await post("/api/location-assign-controller", { location_id: l.id, controller_id: want ? c.id : 0 });
              }
              list.reload();
              return "Locations saved.";
            }}
          />
        )}
      </section>
      <section aria-labelledby="delete-h">
        <h2 id="delete-h">Delete</h2>
        <p class="muted">Its credentials are deleted with it; its locations are left without a controller.</p>
        <ConfirmButton
          danger
          label="Delete controller"
          disabled={readonly}
          question={`Delete the controller ${c.name}? Guests of its locations cannot get online until another controller is assigned.`}
          onConfirm={async () => {
            await post("/api/delete-controller", { controller_id: c.id });
            navigate("/console/controllers");
          }}
        />
      </section>
    </>
  );
}

interface TestResult {
  ok: boolean;
  fault: string;
  message: string;
  checked_at: string;
}

/** The controller's last success or failure (a Test connection, a guest's grant, a push of the walled garden), and the Test connection button. */
function ConnectionSection(props: { controller: Controller; readonly: boolean; onTested: () => void }) {
  const c = props.controller;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  return (
    <section aria-labelledby="conn-h">
      <h2 id="conn-h">Connection</h2>
      {c.last_checked_at === "" ? (
        <p class="muted">Not called yet. Test the connection after saving the settings.</p>
      ) : (
        <Notice kind={c.last_status === "ok" ? "ok" : "error"}>
          {c.last_status === "ok" ? "Last success" : "Last failure"} at {c.last_checked_at} UTC: {c.last_message}
        </Notice>
      )}
      {error && <Notice kind="error">{error}</Notice>}
      <button
        type="button"
        disabled={props.readonly || busy}
        onClick={async () => {
          setBusy(true);
          setError(undefined);
          try {
            await post<{ data: TestResult }>("/api/test-controller", { controller_id: c.id });
            props.onTested();
          } catch (err) {
            setError(err instanceof Error ? err.message : String(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        {busy ? "Testing…" : "Test connection"}
      </button>
    </section>
  );
}
