/** Devices: status, model, location, the RADIUS secret on request (and rotated), setup steps per gateway family. */
import { useState } from "preact/hooks";
import { get, post } from "../api";
import type { Location, Settings } from "../state";
import { navigate } from "../state";
import { Form, Link, Loading, Notice, ReadOnlyNote, Table, useLoad } from "../ui";
import type { PageProps } from "./page";

interface Device {
  id: number;
  location_id: number;
  model_id: string;
  name: string;
  mac_address: string;
  live_status: string;
  status: string;
  wan_ip: string;
  radius_secret?: string;
}

interface Model {
  id: string;
  vendor: string;
  name: string;
}

function setupSteps(family: string, settings: Settings, device: Device, location?: Location): string[] {
  const host = new URL(settings.public_url).hostname;
  const portal = location?.url ?? `${settings.public_url}/portal/…`;
  const radius = [
    `RADIUS authentication server: ${host}, port ${settings.radius.auth_port}; accounting: port ${settings.radius.acct_port}.`,
    "Shared secret: this device's secret (reveal it below). Send Message-Authenticator.",
    "Accounting interim updates: every 5 minutes.",
  ];
  switch (family) {
    case "coova":
    case "openwrt":
      return [
        `CoovaChilli: set HS_UAMSERVER / uamhomepage to ${portal}, and uamsecret if you use one (the service's COOVA_UAM_SECRET).`,
        `Allow the portal's host ${host} in the walled garden (HS_UAMALLOW).`,
        ...radius,
        `The gateway's MAC (nasmac / called-station-id) must be ${device.mac_address}.`,
      ];
    case "meraki":
      return [
        "Dashboard > Wireless > Access control: Splash page: Click-through or Sign-on with my RADIUS server.",
        `Wireless > Splash page: Custom splash URL: ${portal}.`,
        `Walled garden: add ${host}.`,
        ...radius,
      ];
    case "ruckus":
      return [
        `ZoneDirector or Unleashed: a Hotspot service with the login page ${portal} and ${host} in its walled garden.`,
        `SmartZone or RUCKUS One: a Hotspot (WISPr) portal with the logon URL ${portal}, and a controller of type "ruckus" (its northbound interface and password) assigned to the location.`,
        ...radius,
        "SmartZone sends every AP's requests with its AAA server's one secret: give each of its devices that secret (rotate-device-secret with radius_secret).",
      ];
    default:
      return [
        `External captive portal URL: ${portal}.`,
        `Walled garden / pre-authentication access: ${host}.`,
        ...radius,
        "See the gateway guide of the documentation (docs/gateways.md) for this family's screens.",
      ];
  }
}

export function DevicesPage(props: PageProps) {
  const m = /^\/console\/devices\/(new|\d+)/.exec(props.path);
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
      {!list.data ? (
        <Loading error={list.error} />
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
      <section aria-labelledby="setup-h">
        <h2 id="setup-h">Setting up the gateway</h2>
        {!location && <Notice kind="warn">Assign the device to a location first: its login page is the location's.</Notice>}
        <ol>
          {setupSteps(props.settings.model_families[d.model_id] ?? "", props.settings, d, location).map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ol>
      </section>
    </>
  );
}
