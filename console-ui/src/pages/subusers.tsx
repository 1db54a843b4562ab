/**
 * Sub-users: colleagues who sign in with their own e-mail and password, read-only or not, for every
 * location of the account or a list of them. The owner creates, edits, disables, enables and deletes them.
 */
import { useState } from "preact/hooks";
import { get, post } from "../api";
import type { Location } from "../state";
import { ConfirmButton, Form, Loading, Notice, Table, type Values, useLoad } from "../ui";
import type { PageProps } from "./page";
import type { SubUser } from "../types";

const PASSWORD_HINT = "At least 10 characters.";

/** "Every location" (an empty list) or the ticked locations. */
function ScopeFieldset(props: { locations: Location[]; value: number[]; onChange: (ids: number[]) => void; prefix: string }) {
  const every = props.value.length === 0;
  return (
    <fieldset class="scope">
      <legend>Scope: the locations this sub-user sees and changes</legend>
      <div class="field field-check">
        <input id={`${props.prefix}-every`} type="checkbox" checked={every} onChange={(e) => (e.target as HTMLInputElement).checked && props.onChange([])} />
        <label for={`${props.prefix}-every`}>Every location (also those added later)</label>
      </div>
      {props.locations.map((l) => {
        const id = `${props.prefix}-loc-${l.id}`;
        return (
          <div class="field field-check" key={l.id}>
            <input
              id={id}
              type="checkbox"
              checked={props.value.includes(l.id)}
              onChange={(e) =>
                props.onChange((e.target as HTMLInputElement).checked ? [...props.value, l.id] : props.value.filter((x) => x !== l.id))
              }
            />
            <label for={id}>{l.name}</label>
          </div>
        );
      })}
    </fieldset>
  );
}

function scopeText(s: SubUser, names: Map<number, string>): string {
  if (s.location_ids.length === 0) return "Every location";
  return s.location_ids.map((id) => names.get(id) ?? `Location ${id}`).join(", ");
}

function EditSubUser(props: { sub: SubUser; locations: Location[]; onDone: () => void; onCancel: () => void }) {
  const { sub } = props;
  const [scope, setScope] = useState<number[]>(sub.location_ids);
  const initial: Values = {
    first_name: sub.first_name,
    last_name: sub.last_name,
    email_address: sub.email,
    password: "",
    phone_number: sub.phone_number,
    readonly: sub.readonly === 1,
    quickreport: sub.quickreport === 1,
    quickreport_location_id: String(sub.quickreport_location_id ?? props.locations[0]?.id ?? ""),
  };
  return (
    <section aria-labelledby="edit-sub-h">
      <h2 id="edit-sub-h">
        Edit {sub.first_name} {sub.last_name}
      </h2>
      <Form
        id="edit-sub-user"
        fields={[
          { name: "first_name", label: "First name", required: true, maxLength: 100 },
          { name: "last_name", label: "Last name", required: true, maxLength: 100 },
          { name: "email_address", label: "E-mail address", type: "email", required: true, autocomplete: "off" },
          { name: "password", label: "New password", type: "password", autocomplete: "new-password", hint: `${PASSWORD_HINT} Leave empty to keep the current one.` },
          { name: "phone_number", label: "Phone number", type: "tel", hint: "Optional; empty removes it." },
          { name: "readonly", label: "Read-only (can see everything, change nothing)", type: "checkbox" },
          { name: "quickreport", label: "Send the quick report", type: "checkbox" },
          {
            name: "quickreport_location_id",
            label: "Quick report location",
            type: "select",
            options: props.locations.map((l) => ({ value: String(l.id), label: l.name })),
          },
        ]}
        initial={initial}
        submitLabel="Save sub-user"
        submit={async (v) => {
          const r = await post<{ message: string }>("/api/update-sub-user", {
            sub_user_id: sub.id,
            first_name: String(v.first_name ?? ""),
            last_name: String(v.last_name ?? ""),
            email_address: String(v.email_address ?? ""),
            password: v.password ? String(v.password) : undefined,
            phone_number: String(v.phone_number ?? ""),
            readonly: v.readonly ? "1" : "0",
            quickreport: v.quickreport ? "1" : "0",
            quickreport_location_id: v.quickreport_location_id ? Number(v.quickreport_location_id) : undefined,
            location_ids: scope.join(","),
          });
          props.onDone();
          return r.message;
        }}
      >
        <ScopeFieldset locations={props.locations} value={scope} onChange={setScope} prefix="edit-scope" />
      </Form>
      <button type="button" onClick={props.onCancel}>
        Close
      </button>
    </section>
  );
}

export function SubUsersPage(props: PageProps) {
  const { user } = props.session;
  const canManage = user.role === "owner";
  const list = useLoad(() => (canManage ? get<{ data: SubUser[] }>("/api/subuser-list") : Promise.resolve({ data: [] as SubUser[] })), []);
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  const [created, setCreated] = useState<string | undefined>();
  const [editing, setEditing] = useState<number | undefined>();
  const [scope, setScope] = useState<number[]>([]);
  const [done, setDone] = useState<string | undefined>();
  const locs = locations.data?.data ?? [];
  const names = new Map(locs.map((l) => [l.id, l.name]));
  const editSub = list.data?.data.find((s) => s.id === editing);
  const act = async (route: string, s: SubUser, message: string) => {
    await post(`/api/${route}`, { sub_user_id: s.id });
    if (route === "delete-sub-user" && editing === s.id) setEditing(undefined);
    setDone(message);
    list.reload();
  };
  return (
    <>
      <h1>Sub-users</h1>
      {!canManage ? (
        <Notice kind="info">Only the account's owner manages sub-users.</Notice>
      ) : (
        <>
          {done && <Notice kind="ok">{done}</Notice>}
          {!list.data || !locations.data ? (
            <Loading error={list.error ?? locations.error} />
          ) : (
            <Table
              caption="Sub-users"
              head={["Name", "E-mail", "Access", "Scope", "State", "Actions"]}
              empty="No sub-user yet."
              rows={list.data.data.map((s) => {
                const name = `${s.first_name} ${s.last_name}`;
                return [
                  name,
                  s.email,
                  s.readonly ? "Read-only" : "Full",
                  scopeText(s, names),
                  s.disabled ? <strong>Disabled</strong> : "Active",
                  <span class="row-actions" key="a">
                    <button type="button" aria-label={`Edit ${name}`} onClick={() => setEditing(s.id)}>
                      Edit
                    </button>
                    {s.disabled ? (
                      <button type="button" aria-label={`Enable ${name}`} onClick={() => act("enable-sub-user", s, `${name} is enabled: they can sign in again.`)}>
                        Enable
                      </button>
                    ) : (
                      <ConfirmButton
                        label="Disable"
                        ariaLabel={`Disable ${name}`}
                        question={`Disable ${name}? Their console sessions and API identifier stop at once; enabling gives them back.`}
                        onConfirm={() => act("disable-sub-user", s, `${name} is disabled.`)}
                      />
                    )}
                    <ConfirmButton
                      label="Delete"
                      ariaLabel={`Delete ${name}`}
                      danger
                      question={`Delete ${name} for good? Their sessions and API identifier stop at once. This cannot be undone.`}
                      onConfirm={() => act("delete-sub-user", s, `${name} is deleted.`)}
                    />
                  </span>,
                ];
              })}
            />
          )}
          {editSub ? (
            <EditSubUser
              key={editSub.id}
              sub={editSub}
              locations={locs}
              onDone={() => list.reload()}
              onCancel={() => setEditing(undefined)}
            />
          ) : (
            <>
              <h2>New sub-user</h2>
              <p class="muted">They sign in to this console with this e-mail address and password.</p>
              {created && (
                <Notice kind="ok">
                  Sub-user created. Their API identifier (shown once): <code>{created}</code>
                </Notice>
              )}
              {locations.data && locs.length === 0 ? (
                <Notice kind="warn">Create a location first: a sub-user's quick report covers one.</Notice>
              ) : (
                <Form
                  fields={[
                    { name: "first_name", label: "First name", required: true, maxLength: 100 },
                    { name: "last_name", label: "Last name", required: true, maxLength: 100 },
                    { name: "email_address", label: "E-mail address", type: "email", required: true, autocomplete: "off" },
                    { name: "password", label: "Password", type: "password", required: true, autocomplete: "new-password", hint: PASSWORD_HINT },
                    { name: "phone_number", label: "Phone number", type: "tel", hint: "Optional, as people write it: +44 117 496 0123." },
                    { name: "readonly", label: "Read-only (can see everything, change nothing)", type: "checkbox" },
                    { name: "quickreport", label: "Send the quick report", type: "checkbox" },
                    {
                      name: "quickreport_location_id",
                      label: "Quick report location",
                      type: "select",
                      options: locs.map((l) => ({ value: String(l.id), label: l.name })),
                    },
                  ]}
                  initial={{ readonly: true, quickreport: false, quickreport_location_id: String(locs[0]?.id ?? "") }}
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
                      quickreport_location_id: Number(v.quickreport_location_id || locs[0]?.id || 0),
                      location_ids: scope.length ? scope.join(",") : undefined,
                    });
                    setCreated(r.identifier);
                    setScope([]);
                    list.reload();
                    return undefined;
                  }}
                >
                  <ScopeFieldset locations={locs} value={scope} onChange={setScope} prefix="new-scope" />
                </Form>
              )}
            </>
          )}
        </>
      )}
    </>
  );
}
