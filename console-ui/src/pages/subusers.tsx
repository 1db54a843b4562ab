/** Sub-users: colleagues who sign in with their own e-mail and password, read-only or not. */
import { useState } from "preact/hooks";
import { get, post } from "../api";
import type { Location } from "../state";
import { Form, Loading, Notice, Table, useLoad } from "../ui";
import type { PageProps } from "./page";

interface SubUser {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  readonly: number;
  quickreport: number;
}

export function SubUsersPage(props: PageProps) {
  const { user } = props.session;
  const canManage = user.role === "owner";
  const list = useLoad(() => (canManage ? get<{ data: SubUser[] }>("/api/subuser-list") : Promise.resolve({ data: [] as SubUser[] })), []);
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  const [created, setCreated] = useState<string | undefined>();
  return (
    <>
      <h1>Sub-users</h1>
      {!canManage ? (
        <Notice kind="info">Only the account's owner manages sub-users.</Notice>
      ) : (
        <>
          {!list.data ? (
            <Loading error={list.error} />
          ) : (
            <Table
              caption="Sub-users"
              head={["Name", "E-mail", "Access"]}
              empty="No sub-user yet."
              rows={list.data.data.map((s) => [`${s.first_name} ${s.last_name}`, s.email, s.readonly ? "Read-only" : "Full"])}
            />
          )}
          <h2>New sub-user</h2>
          <p class="muted">They sign in to this console with this e-mail address and password.</p>
          {created && (
            <Notice kind="ok">
              Sub-user created. Their API identifier (shown once): <code>{created}</code>
            </Notice>
          )}
          {locations.data && locations.data.data.length === 0 ? (
            <Notice kind="warn">Create a location first: a sub-user's quick report covers one.</Notice>
          ) : (
            <Form
              fields={[
                { name: "first_name", label: "First name", required: true, maxLength: 100 },
                { name: "last_name", label: "Last name", required: true, maxLength: 100 },
                { name: "email_address", label: "E-mail address", type: "email", required: true, autocomplete: "off" },
                { name: "password", label: "Password", type: "password", required: true, autocomplete: "new-password", hint: "At least 5 characters." },
                { name: "phone_number", label: "Phone number", type: "tel", hint: "+CC(YYY)ZZZ-XXXX, optional." },
                { name: "readonly", label: "Read-only (can see everything, change nothing)", type: "checkbox" },
                { name: "quickreport", label: "Send the quick report", type: "checkbox" },
                {
                  name: "quickreport_location_id",
                  label: "Quick report location",
                  type: "select",
                  options: (locations.data?.data ?? []).map((l) => ({ value: String(l.id), label: l.name })),
                },
              ]}
              initial={{ readonly: true, quickreport: false, quickreport_location_id: String(locations.data?.data[0]?.id ?? "") }}
              submitLabel="Create sub-user"
              submit={async (v) => {
                const r = await post<{ identifier: string }>("/api/create-sub-user", {
                  first_name: String(v.first_name ?? ""),
                  last_name: String(v.last_name ?? ""),
                  email_address: String(v.email_address ?? ""),
                  password: String(v.password ?? ""),
                  phone_number: v.phone_number ? String(v.phone_number) : undefined,
                  readonly: v.readonly ? "1" : "0",
                  quickreport: v.quickreport ? "1" : "0",
                  quickreport_location_id: Number(v.quickreport_location_id || locations.data?.data[0]?.id || 0),
                });
                setCreated(r.identifier);
                list.reload();
                return undefined;
              }}
            />
          )}
        </>
      )}
    </>
  );
}
