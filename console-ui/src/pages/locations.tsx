/** Locations: list, create, edit, session and bandwidth options and their RADIUS attributes, campaign, devices, delete. */
import { get, post } from "../api";
import { type Location, navigate } from "../state";
import { ConfirmButton, type Field, Form, Link, Loading, ReadOnlyNote, Table, type Values, useLoad } from "../ui";
import type { PageProps } from "./page";
import type { Options, RadiusAttributes } from "../types";

const LOCATION_FIELDS: Field[] = [
  { name: "location_name", label: "Name", required: true, maxLength: 255 },
  { name: "address1", label: "Street address", required: true, maxLength: 255 },
  { name: "town", label: "Town or city", required: true, maxLength: 100 },
  { name: "state", label: "State or region", required: true, maxLength: 100 },
  { name: "zipcode", label: "Postal code", required: true, maxLength: 20 },
  { name: "country", label: "Country", required: true, maxLength: 2, hint: "Two-letter ISO code, e.g. US, GB, DE." },
  { name: "phone_number", label: "Phone number", type: "tel", required: true, hint: "(YYY)ZZZ-XXXX" },
  { name: "timezone", label: "Time zone", required: true, hint: "IANA zone, e.g. Europe/Paris. Analytics days follow it." },
  { name: "website", label: "Web site", type: "url" },
  { name: "latitude", label: "Latitude", type: "number", step: "any" },
  { name: "longitude", label: "Longitude", type: "number", step: "any" },
];

const OPTION_FIELDS: Field[] = [
  { name: "session_time_limit", label: "Session time limit (minutes)", type: "number", min: 0, hint: "0: no limit." },
  { name: "max_bandwidth", label: "Download limit (kbit/s)", type: "number", min: 0, hint: "0: no limit." },
  { name: "max_bandwidth_up", label: "Upload limit (kbit/s)", type: "number", min: 0, hint: "0: no limit." },
  { name: "daily_bandwidth_cap", label: "Daily data cap per guest (MB)", type: "number", min: 0, hint: "0: no cap." },
  { name: "content_filter", label: "Content filter", type: "checkbox" },
  { name: "dns_server_1", label: "DNS server 1", hint: "IP address; empty for the gateway's own." },
  { name: "dns_server_2", label: "DNS server 2" },
  { name: "whitelist", label: "Allowed before login (walled garden)", type: "textarea", hint: "Domains, comma-separated." },
  { name: "blacklist", label: "Blocked domains", type: "textarea", hint: "Domains, comma-separated." },
];

/** The unit of each attribute we send, for the table. */
function unitOf(name: string): string {
  if (name === "Session-Timeout" || name === "Acct-Interim-Interval") return "seconds";
  if (name.startsWith("WISPr-Bandwidth")) return "bits per second";
  if (name === "Mikrotik-Rate-Limit") return "upload/download, bits per second (k = 1,000, M = 1,000,000)";
  if (name.endsWith("Gigawords") || name.endsWith("Gigwords")) return "units of 4 GiB (2^32 bytes)";
  if (name.includes("Octets") || name.includes("Limit")) return "bytes (modulo 4 GiB)";
  return "";
}

function RadiusTable(props: { data?: RadiusAttributes; error?: string }) {
  const d = props.data;
  if (!d) return <Loading error={props.error} />;
  return (
    <>
      <p class="muted">
        What the RADIUS server sends in each Access-Accept for these options,{" "}
        {d.devices > 0 ? "for each gateway family of this location's devices" : "in every dialect (no device is assigned to this location yet)"}.
        {d.daily_bandwidth_cap > 0 ? " The data cap attributes carry what is left of the guest's daily cap: all of it at the first login of the day." : ""}
      </p>
      {d.dialects.map((g) => (
        <div key={g.dialect} class="radius-dialect">
          <h3>
            {g.families.join(", ")}
            {g.devices > 0 ? ` (${g.devices} device${g.devices === 1 ? "" : "s"})` : ""}
          </h3>
          <Table
            caption={`RADIUS attributes for ${g.families.join(", ")}`}
            head={["Attribute", "Value", "Unit"]}
            rows={g.attributes.map((a) => [<code key="n">{a.name}</code>, <code key="v">{String(a.value)}</code>, unitOf(a.name)])}
          />
          {g.filter_roles.length > 0 && (
            <p class="muted">
              Content filter on:{" "}
              {g.filter_roles.map((r, i) => (
                <span key={r.family}>
                  {i > 0 ? "; " : ""}
                  {r.family} also gets <code>{r.attribute}</code> = <code>{r.value}</code>
                </span>
              ))}
              , the role its setup maps to the filtering resolvers.
            </p>
          )}
        </div>
      ))}
    </>
  );
}

function locationValues(l: Location): Values {
  return {
    location_name: l.name,
    address1: l.address,
    town: l.city,
    state: l.state,
    zipcode: l.zip,
    country: l.country,
    phone_number: l.phone_number,
    timezone: l.time_zone,
    website: l.website,
    latitude: l.location.latitude === null ? "" : String(l.location.latitude),
    longitude: l.location.longitude === null ? "" : String(l.location.longitude),
  };
}

function locationBody(v: Values) {
  const num = (k: string) => (v[k] === "" || v[k] === undefined ? undefined : Number(v[k]));
  const str = (k: string) => (typeof v[k] === "string" ? (v[k] as string) : "");
  return {
    location_name: str("location_name"),
    address1: str("address1"),
    town: str("town"),
    state: str("state"),
    zipcode: str("zipcode"),
    country: str("country").toUpperCase(),
    phone_number: str("phone_number"),
    timezone: str("timezone"),
    website: str("website") || undefined,
    latitude: num("latitude"),
    longitude: num("longitude"),
  };
}

function optionValues(o: Options): Values {
  return {
    session_time_limit: String(o.session_time_limit.state ? Math.round(o.session_time_limit.value / 60) : 0),
    max_bandwidth: String(o.bandwidth_throttle_upanddown.state_down ? Math.round((o.bandwidth_throttle_upanddown.value.down * 8) / 1000) : 0),
    max_bandwidth_up: String(o.bandwidth_throttle_upanddown.state_up ? Math.round((o.bandwidth_throttle_upanddown.value.up * 8) / 1000) : 0),
    daily_bandwidth_cap: String(o.daily_bandwidth_cap.state ? Math.round(o.daily_bandwidth_cap.value / 1_000_000) : 0),
    content_filter: o.content_filter.state,
    dns_server_1: o.dns_server_1,
    dns_server_2: o.dns_server_2,
    whitelist: o.whitelist,
    blacklist: o.blacklist,
  };
}

export function LocationsPage(props: PageProps) {
  const m = /^(new|\d+)$/.exec(props.id ?? "");
  if (m) return <LocationDetail id={m[1] === "new" ? null : Number(m[1])} readonly={props.session.user.readonly} />;
  return <LocationList readonly={props.session.user.readonly} />;
}

function LocationList(props: { readonly: boolean }) {
  const list = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  return (
    <>
      <h1>Locations</h1>
      <ReadOnlyNote readonly={props.readonly} />
      {!props.readonly && (
        <p>
          <Link href="/console/locations/new" class="button primary">
            New location
          </Link>
        </p>
      )}
      {!list.data ? (
        <Loading error={list.error} />
      ) : (
        <Table
          caption="Locations"
          head={["Name", "City", "Time zone", "Login page"]}
          empty="No location yet. Create one to give its gateways a login page."
          rows={list.data.data.map((l) => [
            <Link key="n" href={`/console/locations/${l.id}`}>
              {l.name}
            </Link>,
            l.city,
            l.time_zone,
            <a key="u" href={l.url} target="_blank" rel="noreferrer">
              Open
            </a>,
          ])}
        />
      )}
    </>
  );
}

function LocationDetail(props: { id: number | null; readonly: boolean }) {
  const { id, readonly } = props;
  const loc = useLoad(
    () => (id === null ? Promise.resolve(undefined) : get<{ data: Location[] }>("/api/get-location", { location_ids: id }).then((r) => r.data[0])),
    [id],
  );
  const options = useLoad(
    () => (id === null ? Promise.resolve(undefined) : get<{ data: Options }>("/api/get-location-options", { location_id: id }).then((r) => r.data)),
    [id],
  );
  const radius = useLoad(
    () => (id === null ? Promise.resolve(undefined) : get<{ data: RadiusAttributes }>("/console/api/location-radius", { location_id: id }).then((r) => r.data)),
    [id],
  );
  const campaigns = useLoad(() => get<{ data: { campaign_id: number; name: string; template: number }[] }>("/api/campaign-list"), []);
  const devices = useLoad(
    () =>
      id === null
        ? Promise.resolve([])
        : get<{ devices: { id: number; name: string; mac_address: string; live_status: string }[] }>("/api/get-location-devices", { location_id: id }).then(
            (r) => r.devices,
          ),
    [id],
  );
  if (id !== null && !loc.data) return <Loading error={loc.error} />;
  const l = loc.data;
  return (
    <>
      <p>
        <Link href="/console/locations">← Locations</Link>
      </p>
      <h1>{l ? l.name : "New location"}</h1>
      <ReadOnlyNote readonly={readonly} />
      {l && (
        <p>
          Login page:{" "}
          <a href={l.url} target="_blank" rel="noreferrer">
            {l.url}
          </a>
        </p>
      )}
      <section aria-labelledby="details-h">
        <h2 id="details-h">Details</h2>
        <Form
          fields={LOCATION_FIELDS}
          initial={l ? locationValues(l) : { country: "US", timezone: Intl.DateTimeFormat().resolvedOptions().timeZone }}
          submitLabel={l ? "Save location" : "Create location"}
          disabled={readonly}
          submit={async (v) => {
            const r = await post<{ location_id: number }>("/api/create-or-update-location", { ...locationBody(v), location_id: l?.id });
            if (!l) navigate(`/console/locations/${r.location_id}`);
            else loc.reload();
            return "Saved.";
          }}
        />
      </section>
      {l && (
        <>
          <section aria-labelledby="options-h">
            <h2 id="options-h">Session and bandwidth</h2>
            <p class="muted">Sent to the gateways in every RADIUS Access-Accept, in each gateway family's own attributes.</p>
            {!options.data ? (
              <Loading error={options.error} />
            ) : (
              <Form
                fields={OPTION_FIELDS}
                initial={optionValues(options.data)}
                submitLabel="Save options"
                disabled={readonly}
                submit={async (v) => {
                  const n = (k: string) => Math.max(0, Math.round(Number(v[k] || 0)));
                  await post("/api/set-session-and-bandwidth-info", {
                    location_id: l.id,
                    session_time_limit: n("session_time_limit") * 60,
                    max_bandwidth: Math.round((n("max_bandwidth") * 1000) / 8),
                    max_bandwidth_up: Math.round((n("max_bandwidth_up") * 1000) / 8),
                    daily_bandwidth_cap: n("daily_bandwidth_cap") * 1_000_000,
                    content_filter: v.content_filter ? "1" : "0",
                    dns_server_1: String(v.dns_server_1 ?? ""),
                    dns_server_2: String(v.dns_server_2 ?? ""),
                    whitelist: String(v.whitelist ?? ""),
                    blacklist: String(v.blacklist ?? ""),
                  });
                  options.reload();
                  radius.reload();
                  return "Options saved.";
                }}
              />
            )}
          </section>
          <section aria-labelledby="radius-h">
            <h2 id="radius-h">RADIUS attributes</h2>
            <RadiusTable data={radius.data} error={radius.error} />
          </section>
          <section aria-labelledby="campaign-h">
            <h2 id="campaign-h">Campaign shown</h2>
            <Form
              fields={[
                {
                  name: "campaign_id",
                  label: "Campaign",
                  type: "select",
                  options: [
                    { value: "0", label: "The built-in page" },
                    ...(campaigns.data?.data ?? []).filter((c) => c.template !== 1).map((c) => ({ value: String(c.campaign_id), label: c.name })),
                  ],
                },
              ]}
              initial={{ campaign_id: String(l.default_campaign_id) }}
              submitLabel="Show this campaign"
              disabled={readonly}
              submit={async (v) => {
                await post("/api/location-assign-campaign", { location_id: l.id, campaign_id: Number(v.campaign_id) });
                loc.reload();
                return "The location shows this campaign now.";
              }}
            />
          </section>
          <section aria-labelledby="devices-h">
            <h2 id="devices-h">Devices</h2>
            {!devices.data ? (
              <Loading error={devices.error} />
            ) : (
              <Table
                caption="Devices at this location"
                head={["Name", "MAC", "Status"]}
                empty="No device at this location. Assign one on the Devices page."
                rows={devices.data.map((d) => [
                  <Link key="d" href={`/console/devices/${d.id}`}>
                    {d.name}
                  </Link>,
                  d.mac_address,
                  d.live_status.replace("_", " "),
                ])}
              />
            )}
          </section>
          <section aria-labelledby="delete-h">
            <h2 id="delete-h">Delete</h2>
            <ConfirmButton
              danger
              label="Delete location"
              disabled={readonly}
              question={`Delete ${l.name}? Its devices are unassigned; its history stays in the analytics.`}
              onConfirm={async () => {
                await post("/api/delete-location", { location_id: l.id });
                navigate("/console/locations");
              }}
            />
          </section>
        </>
      )}
    </>
  );
}
