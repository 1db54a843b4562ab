/** Passpoint ("connect automatically"): configurations per location with the values the access points need, and a guest's credentials to revoke. */
import { useState } from "preact/hooks";
import { get, post } from "../api";
import type { Location } from "../state";
import { ConfirmButton, type Field, Form, Loading, ReadOnlyNote, Table, type Values, useLoad } from "../ui";
import type { PageProps } from "./page";

interface Passpoint {
  id: number;
  location_ids: number[];
  ssid: string;
  domain: string;
  realm: string;
  roaming_consortium: string;
  friendly_name: string;
  eap_method: string;
  credential_days: number;
}

interface Credential {
  credential_id: number;
  kind: string;
  username: string;
  state: string;
  issued_at: string;
  expires_at: string;
  revoked_by: string;
  last_used_at: string | null;
}

/** The form's fields: a box per location (a location is covered by one configuration), then the Hotspot 2.0 values. */
const fieldsFor = (locations: Location[]): Field[] => [
  ...locations.map((l) => ({ name: `loc_${l.id}`, label: `Cover ${l.name}`, type: "checkbox" as const })),
  { name: "ssid", label: "Secure SSID", required: true, maxLength: 32, hint: "Broadcast with WPA2/WPA3-Enterprise and Hotspot 2.0 on." },
  { name: "domain", label: "Domain", required: true, maxLength: 253, hint: "The home domain, e.g. wifi.example.com." },
  { name: "realm", label: "NAI realm", required: true, maxLength: 253, hint: "Usernames are pp-…@realm." },
  { name: "roaming_consortium", label: "Roaming consortium OIs", maxLength: 255, hint: "Comma-separated hex, 3 or 5 octets each (e.g. 5A03BA0000)." },
  { name: "friendly_name", label: "Friendly name", maxLength: 64 },
  { name: "eap_method", label: "EAP method", type: "select", options: [{ value: "ttls", label: "EAP-TTLS (username and password)" }, { value: "tls", label: "EAP-TLS (certificate)" }] },
  { name: "credential_days", label: "Credential validity (days)", type: "number", min: 1, max: 3650 },
];

const text = (v: Values, k: string) => (typeof v[k] === "string" ? (v[k] as string).trim() : "");
const ticked = (v: Values, locations: Location[]) =>
  locations
    .filter((l) => v[`loc_${l.id}`] === true)
    .map((l) => l.id)
    .join(",");

export function PasspointPage(props: PageProps) {
  const ro = props.session.user.readonly;
  const [saves, setSaves] = useState(0);
  const list = useLoad(() => get<{ data: Passpoint[] }>("/api/passpoint-list"), [saves]);
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  const locs = locations.data?.data ?? [];
  const names = new Map(locs.map((l) => [l.id, l.name]));
  const [editing, setEditing] = useState<Passpoint | null>(null);
  const initial: Values = editing
    ? { ...Object.fromEntries(locs.map((l) => [`loc_${l.id}`, editing.location_ids.includes(l.id)])), ssid: editing.ssid, domain: editing.domain, realm: editing.realm, roaming_consortium: editing.roaming_consortium, friendly_name: editing.friendly_name, eap_method: editing.eap_method, credential_days: String(editing.credential_days) }
    : { eap_method: "ttls", credential_days: "365" };
  return (
    <>
      <h1>Passpoint</h1>
      <p class="muted">
        Guests who log in at a covered location can install a profile; their device then joins the secure SSID by itself at every covered location. Set the same values on the access points
        (Hotspot 2.0: domain name, NAI realm with EAP-TTLS and EAP-TLS, roaming consortium OIs) and point their WPA2/WPA3-Enterprise SSID at this service's RADIUS server.
      </p>
      <ReadOnlyNote readonly={ro} />
      {!list.data || !locations.data ? (
        <Loading error={list.error ?? locations.error} />
      ) : (
        <Table
          caption="Passpoint configurations: the values the access points need"
          head={["SSID", "Domain", "NAI realm", "Roaming consortium OIs", "Friendly name", "EAP", "Locations", ""]}
          empty="No Passpoint configuration yet."
          rows={list.data.data.map((c) => [
            c.ssid,
            c.domain,
            c.realm,
            c.roaming_consortium || "—",
            c.friendly_name,
            c.eap_method === "tls" ? "EAP-TLS" : "EAP-TTLS/PAP",
            c.location_ids.map((id) => names.get(id) ?? `#${id}`).join(", ") || "—",
            ro ? "" : (
              <button key="e" type="button" onClick={() => setEditing(c)}>
                Edit
              </button>
            ),
          ])}
        />
      )}
      <h2>{editing ? `Edit ${editing.ssid}` : "New configuration"}</h2>
      {!locations.data ? (
        <Loading error={locations.error} />
      ) : locs.length === 0 ? (
        <p>Add a location first: a configuration covers one or more locations.</p>
      ) : (
      <Form
        // Another configuration to edit is another form: its fields change in the same render as the heading.
        key={editing ? `edit-${editing.id}` : "new"}
        id="passpoint-form"
        fields={fieldsFor(locs)}
        initial={initial}
        disabled={ro}
        submitLabel={editing ? "Save" : "Create"}
        submit={async (v) => {
          const res = await post<{ message: string }>("/api/create-or-update-passpoint", {
            passpoint_id: editing?.id,
            location_ids: ticked(v, locs),
            ssid: text(v, "ssid"),
            domain: text(v, "domain"),
            realm: text(v, "realm"),
            roaming_consortium: text(v, "roaming_consortium"),
            friendly_name: text(v, "friendly_name") || undefined,
            eap_method: text(v, "eap_method") || undefined,
            credential_days: text(v, "credential_days") || undefined,
          });
          setSaves(saves + 1);
          return res.message;
        }}
      />
      )}
      <GuestCredentials readonly={ro} />
    </>
  );
}

function GuestCredentials(props: { readonly: boolean }) {
  const [userId, setUserId] = useState("");
  const [changes, setChanges] = useState(0);
  const creds = useLoad(() => (/^\d+$/.test(userId) ? get<{ data: Credential[] }>("/api/passpoint-credential-list", { user_id: userId }) : Promise.resolve({ data: [] as Credential[] })), [userId, changes]);
  const revoke = async (params: Record<string, string | number>) => {
    await post("/api/revoke-passpoint-credential", params);
    setChanges(changes + 1);
  };
  return (
    <section aria-labelledby="pp-guest-h">
      <h2 id="pp-guest-h">A guest's credentials</h2>
      <label for="pp-user-id">Guest id</label> <input id="pp-user-id" inputMode="numeric" value={userId} onInput={(e) => setUserId((e.target as HTMLInputElement).value.trim())} />
      {!creds.data ? (
        <Loading error={creds.error} />
      ) : (
        <>
          <Table
            caption="Passpoint credentials of the guest"
            head={["Kind", "Username", "State", "Issued", "Valid until", "Last used", ""]}
            empty="No credential."
            rows={creds.data.data.map((c) => [
              c.kind === "tls" ? "Certificate" : "Password",
              c.username,
              c.state === "revoked" ? `revoked (${c.revoked_by})` : c.state,
              c.issued_at,
              c.expires_at,
              c.last_used_at ?? "—",
              c.state === "valid" && !props.readonly ? (
                <ConfirmButton key="r" label="Revoke" ariaLabel={`Revoke ${c.username}`} question="Revoke this credential? The device can no longer join by itself." danger onConfirm={() => revoke({ credential_id: c.credential_id })} />
              ) : (
                ""
              ),
            ])}
          />
          {creds.data.data.some((c) => c.state === "valid") && !props.readonly && (
            <ConfirmButton label="Revoke all" question="Revoke every credential of this guest?" danger onConfirm={() => revoke({ user_id: userId })} />
          )}
        </>
      )}
    </section>
  );
}
