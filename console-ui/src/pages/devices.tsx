/** Devices: status, model, location, the RADIUS secret on request (and rotated), RadSec certificates, setup steps per gateway family. */
import { useState } from "preact/hooks";
import { get, getGuarded, post } from "../api";
import type { Location, Settings } from "../state";
import { navigate } from "../state";
import { Form, Link, Loading, Notice, ReadOnlyNote, Table, useLoad } from "../ui";
import type { PageProps } from "./page";
import { RadsecSection } from "./device-radsec";
import type { Device, DeviceConfig, Model } from "../types";

/** Saves `content` as a file the browser downloads. */
function download(filename: string, contentType: string, content: string | Blob): void {
  const blob = typeof content === "string" ? new Blob([content], { type: contentType }) : content;
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The gateway's setup with real values: the location's portal URL, where RADIUS listens, and, for
 * users who may see the secret, the family's configuration from the service (its steps, the
 * options the family cannot carry, the file and MikroTik's login.html to download).
 */
function GatewaySetup(props: { device: Device; location?: Location; settings: Settings; readonly: boolean }) {
  const { device: d, location, settings } = props;
  const family = settings.model_families[d.model_id] ?? "";
  const config = useLoad(
    () =>
      location && !props.readonly
        ? getGuarded<{ data: DeviceConfig }>("/api/get-device-config", { device_id: d.id }).then((r) => r.data)
        : Promise.resolve(undefined),
    [d.id, d.location_id, d.radius_secret, props.readonly],
  );
  const c = config.data;
  return (
    <section aria-labelledby="setup-h">
      <h2 id="setup-h">Setting up the gateway</h2>
      {!location && <Notice kind="warn">Assign the device to a location first: its login page is the location's.</Notice>}
      <dl class="facts">
        <dt>Portal URL</dt>
        <dd>
          <code>{location?.url ?? "(assign a location)"}</code>
        </dd>
        <dt>RADIUS server</dt>
        <dd>
          <code>{settings.radius.host}</code>, authentication port {settings.radius.auth_port}, accounting port {settings.radius.acct_port}
        </dd>
        <dt>NAS-Identifier</dt>
        <dd>
          <code>{d.mac_address}</code>
        </dd>
      </dl>
      {props.readonly && <p class="muted">The configuration holds the device's secret: read-only users cannot download it.</p>}
      {location && !props.readonly && !c && <Loading error={config.error} />}
      {c && (
        <>
          {c.warnings.map((w) => (
            <Notice key={w} kind="warn">
              {w}
            </Notice>
          ))}
          <ol>
            {c.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <p>
            <button type="button" onClick={() => download(c.filename, c.content_type, c.content)}>
              Download {c.filename}
            </button>{" "}
            {family === "mikrotik" && (
              <button
                type="button"
                onClick={async () => {
                  const res = await fetch(`/api/device-mikrotik-login-html?device_id=${d.id}`, { credentials: "same-origin" });
                  if (res.ok) download("login.html", "text/html", await res.blob());
                }}
              >
                Download login.html
              </button>
            )}
          </p>
          {c.not_carried.length > 0 && (
            <>
              <h3>What this gateway cannot take from the service</h3>
              <ul>
                {c.not_carried.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            </>
          )}
          <details>
            <summary>Show {c.filename}</summary>
            <pre class="config">{c.content}</pre>
          </details>
        </>
      )}
    </section>
  );
}

export function DevicesPage(props: PageProps) {
  const m = /^(new|\d+)$/.exec(props.id ?? "");
  const ro = props.session.user.readonly;
  if (m) return <DeviceDetail id={m[1] === "new" ? null : Number(m[1])} readonly={ro} settings={props.session.settings} />;
  return <DeviceList readonly={ro} />;
}

function DeviceList(props: { readonly: boolean }) {
  const list = useLoad(() => get<{ data: Device[] }>("/api/device-list"), []);
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  const names = new Map((locations.data?.data ?? []).map((l) => [l.id, l.name]));
  // Models by vendor and name ("Ubiquiti UniFi U6 Lite"), not their ids.
  const models = useLoad(() => get<{ data: Model[] }>("/api/device-models"), []);
  const modelNames = new Map((models.data?.data ?? []).map((m) => [m.id, `${m.vendor} ${m.name}`]));
  return (
    <>
      <h1>Devices</h1>
      <ReadOnlyNote readonly={props.readonly} />
      {!props.readonly && (
        <p>
          <Link href="/console/devices/new" class="button primary">
            Add device
          </Link>
        </p>
      )}
      {/* One render once all three have come: a row never shows a model's id or "—" for its location first. */}
      {!list.data || !models.data || !locations.data ? (
        <Loading error={list.error ?? models.error ?? locations.error} />
      ) : (
        <Table
          caption="Devices"
          head={["Name", "MAC", "Model", "Location", "Status"]}
          empty="No device yet. Add the access points or gateways that send guests to the portal."
          rows={list.data.data.map((d) => [
            <Link key="n" href={`/console/devices/${d.id}`}>
              {d.name}
            </Link>,
            d.mac_address,
            modelNames.get(d.model_id) ?? d.model_id,
            names.get(d.location_id) ?? "—",
            <span key="s" class={`status status-${d.live_status}`}>
              {d.live_status.replace("_", " ")}
            </span>,
          ])}
        />
      )}
    </>
  );
}

function DeviceDetail(props: { id: number | null; readonly: boolean; settings: Settings }) {
  const { id, readonly } = props;
  const models = useLoad(() => get<{ data: Model[] }>("/api/device-models"), []);
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  const device = useLoad(
    () => (id === null ? Promise.resolve(undefined) : get<{ data: Device[] }>("/api/get-device", { device_ids: id }).then((r) => r.data[0])),
    [id],
  );
  const [secret, setSecret] = useState<string | undefined>();
  if (!models.data || !locations.data) return <Loading error={models.error ?? locations.error} />;
  const modelOptions = models.data.data.map((m) => ({ value: m.id, label: `${m.vendor} ${m.name}` }));
  if (id === null) {
    return (
      <>
        <p>
          <Link href="/console/devices">← Devices</Link>
        </p>
        <h1>Add device</h1>
        <Form
          fields={[
            { name: "device_name", label: "Name", required: true, maxLength: 255 },
            { name: "mac_address", label: "MAC address", required: true, hint: "AA:BB:CC:DD:EE:FF" },
            { name: "model_id", label: "Model", type: "select", required: true, options: modelOptions },
          ]}
          initial={{ model_id: modelOptions[0]?.value ?? "" }}
          submitLabel="Add device"
          disabled={readonly}
          submit={async (v) => {
            const r = await post<{ device_id: number }>("/api/create-device", v);
            navigate(`/console/devices/${r.device_id}`);
            return undefined;
          }}
        />
      </>
    );
  }
  if (!device.data) return <Loading error={device.error} />;
  const d = device.data;
  const model = models.data.data.find((m) => m.id === d.model_id);
  const location = locations.data.data.find((l) => l.id === d.location_id);
  return (
    <>
      <p>
        <Link href="/console/devices">← Devices</Link>
      </p>
      <h1>{d.name}</h1>
      <ReadOnlyNote readonly={readonly} />
      <dl class="facts">
        <dt>Status</dt>
        <dd class={`status status-${d.live_status}`}>{d.live_status.replace("_", " ")}</dd>
        <dt>MAC address</dt>
        <dd>{d.mac_address}</dd>
        <dt>Model</dt>
        <dd>{model ? `${model.vendor} ${model.name}` : d.model_id}</dd>
        <dt>Location</dt>
        <dd>{location?.name ?? "none"}</dd>
      </dl>
      <section aria-labelledby="loc-h">
        <h2 id="loc-h">Location</h2>
        <Form
          fields={[
            {
              name: "location_id",
              label: "Location",
              type: "select",
              options: [{ value: "0", label: "None" }, ...locations.data.data.map((l) => ({ value: String(l.id), label: l.name }))],
            },
          ]}
          initial={{ location_id: String(d.location_id) }}
          submitLabel="Assign"
          disabled={readonly}
          submit={async (v) => {
            await post("/api/device-assign-location", { device_id: d.id, location_id: Number(v.location_id) });
            device.reload();
            return "Assigned.";
          }}
        />
      </section>
      <section aria-labelledby="secret-h">
        <h2 id="secret-h">RADIUS secret</h2>
        {readonly ? (
          <p class="muted">Read-only users cannot see the secret.</p>
        ) : (
          <>
            {secret ? (
              <p>
                <code class="secret">{secret}</code>
              </p>
            ) : (
              <button type="button" onClick={() => setSecret(d.radius_secret ?? "")}>
                Reveal secret
              </button>
            )}{" "}
            <button
              type="button"
              onClick={async () => {
                if (!window.confirm("Give the device a new secret? The gateway stops authenticating until you enter the new one on it.")) return;
                const r = await post<{ radius_secret: string }>("/api/rotate-device-secret", { device_id: d.id });
                setSecret(r.radius_secret);
                device.reload();
              }}
            >
              Rotate secret
            </button>
          </>
        )}
      </section>
      <GatewaySetup device={d} location={location} settings={props.settings} readonly={readonly} />
      <RadsecSection device={d} family={props.settings.model_families[d.model_id] ?? ""} settings={props.settings} readonly={readonly} />
    </>
  );
}
