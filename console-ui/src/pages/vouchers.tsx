/** Vouchers: batches of printed codes with their time and limits; codes by state; revoke; print a batch. */
import { useState } from "preact/hooks";
import { get, post } from "../api";
import { type Location, formatBytes, navigate } from "../state";
import { ConfirmButton, type Field, Form, Link, Loading, Notice, ReadOnlyNote, Table, useLoad } from "../ui";
import type { PageProps } from "./page";
import type { Batch, Voucher } from "../types";

const STATUSES = ["", "unused", "active", "used_up", "expired", "revoked"];
const PER_PAGE = 100;

export function VouchersPage(props: PageProps) {
  const m = /^(\d+)$/.exec(props.id ?? "");
  const ro = props.session.user.readonly;
  if (m) return <BatchDetail id={Number(m[1])} readonly={ro} />;
  return <BatchList readonly={ro} />;
}

const limitText = (b: Batch) =>
  [
    `${b.duration} min`,
    b.devices_per_code > 1 ? `${b.devices_per_code} devices` : "1 device",
    b.data_cap > 0 ? formatBytes(b.data_cap) : "",
    b.bandwidth_down > 0 ? `${Math.round((b.bandwidth_down * 8) / 1000)} kbit/s down` : "",
  ]
    .filter(Boolean)
    .join(", ");

function BatchList(props: { readonly: boolean }) {
  const batches = useLoad(() => get<{ data: Batch[]; total: number }>("/api/voucher-batch-list", { per_page: 100 }), []);
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  const [created, setCreated] = useState<{ id: number; warnings: string[] } | undefined>();
  const names = new Map((locations.data?.data ?? []).map((l) => [l.id, l.name]));
  const fields: Field[] = [
    ...(locations.data?.data ?? []).map((l) => ({ name: `loc_${l.id}`, label: `Valid at ${l.name}`, type: "checkbox" as const })),
    { name: "count", label: "Number of codes", type: "number", required: true, min: 1, max: 10000 },
    { name: "duration", label: "Minutes of access per code", type: "number", required: true, min: 1, max: 525600, hint: "Counted from the code's first login." },
    { name: "devices_per_code", label: "Devices per code", type: "number", min: 1, max: 100 },
    { name: "data_cap_mb", label: "Data allowance per code (MB)", type: "number", min: 0, hint: "Empty or 0: the location's daily cap." },
    { name: "bandwidth_down_kbps", label: "Download limit (kbit/s)", type: "number", min: 0, hint: "Empty or 0: the location's." },
    { name: "bandwidth_up_kbps", label: "Upload limit (kbit/s)", type: "number", min: 0, hint: "Empty or 0: the location's." },
    { name: "expires", label: "Last day codes can be used (UTC)", type: "date", hint: "Empty: they do not expire." },
  ];
  return (
    <>
      <h1>Vouchers</h1>
      <ReadOnlyNote readonly={props.readonly} />
      {!batches.data || !locations.data ? (
        <Loading error={batches.error ?? locations.error} />
      ) : (
        <Table
          caption="Voucher batches"
          head={["Batch", "Locations", "Codes", "Unused", "Limits", "Expires", "Created (UTC)"]}
          empty="No voucher batch yet."
          rows={batches.data.data.map((b) => [
            <Link key="b" href={`/console/vouchers/${b.batch_id}`}>
              {`Batch ${b.batch_id}`}
            </Link>,
            b.location_ids.map((id) => names.get(id) ?? `#${id}`).join(", "),
            String(b.count),
            String(b.unused),
            limitText(b),
            b.expires || "—",
            b.created_at,
          ])}
        />
      )}
      <h2>New batch</h2>
      {created !== undefined && (
        <Notice kind="ok">
          Batch {created.id} created. <Link href={`/console/vouchers/${created.id}`}>Open it to print the codes.</Link>
        </Notice>
      )}
      {created?.warnings.map((w) => (
        <Notice key={w} kind="warn">
          {w}
        </Notice>
      ))}
      {locations.data && locations.data.data.length === 0 ? (
        <Notice kind="warn">Create a location first: codes work at the locations you choose.</Notice>
      ) : (
        <Form
          fields={fields}
          initial={{ count: "50", duration: "60", devices_per_code: "1" }}
          submitLabel="Create codes"
          disabled={props.readonly}
          submit={async (v) => {
            const ids = (locations.data?.data ?? []).filter((l) => v[`loc_${l.id}`] === true).map((l) => l.id);
            const num = (k: string) => (typeof v[k] === "string" && v[k] !== "" ? Number(v[k]) : undefined);
            const kbps = (k: string) => (num(k) === undefined ? undefined : Math.round(((num(k) as number) * 1000) / 8));
            const r = await post<{ batch_id: number; warnings: string[] }>("/api/create-voucher-batch", {
              location_ids: ids.join(","),
              count: num("count"),
              duration: num("duration"),
              devices_per_code: num("devices_per_code"),
              data_cap: num("data_cap_mb") === undefined ? undefined : (num("data_cap_mb") as number) * 1_000_000,
              bandwidth_down: kbps("bandwidth_down_kbps"),
              bandwidth_up: kbps("bandwidth_up_kbps"),
              expires: typeof v.expires === "string" && v.expires !== "" ? v.expires : undefined,
            });
            setCreated({ id: r.batch_id, warnings: r.warnings });
            batches.reload();
            return "Created.";
          }}
        />
      )}
    </>
  );
}

function BatchDetail(props: { id: number; readonly: boolean }) {
  const [status, setStatus] = useState("");
  const [page, setPage] = useState(1);
  const codes = useLoad(
    () => get<{ data: Voucher[]; total: number }>("/api/voucher-list", { batch_id: props.id, status, page, per_page: PER_PAGE }),
    [props.id, status, page],
  );
  const [done, setDone] = useState<string | undefined>();
  const pages = codes.data ? Math.max(1, Math.ceil(codes.data.total / PER_PAGE)) : 1;
  return (
    <>
      <p>
        <Link href="/console/vouchers">← Vouchers</Link>
      </p>
      <h1>{`Batch ${props.id}`}</h1>
      <ReadOnlyNote readonly={props.readonly} />
      <p>
        Printable sheet of the codes never used:{" "}
        <a href={`/api/voucher-sheet?batch_id=${props.id}&paper=a4`} target="_blank" rel="noopener">
          A4
        </a>{" "}
        ·{" "}
        <a href={`/api/voucher-sheet?batch_id=${props.id}&paper=letter`} target="_blank" rel="noopener">
          Letter
        </a>
      </p>
      {done && <Notice kind="ok">{done}</Notice>}
      <div class="field">
        <label for="status">Show</label>
        <select
          id="status"
          value={status}
          onChange={(e) => {
            setStatus((e.target as HTMLSelectElement).value);
            setPage(1);
          }}
        >
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s === "" ? "All codes" : s.replace("_", " ")}
            </option>
          ))}
        </select>
      </div>
      {!codes.data ? (
        <Loading error={codes.error} />
      ) : (
        <>
          <Table
            caption={`Codes (${codes.data.total})`}
            head={["Code", "State", "First used (UTC)", "Ends (UTC)", "Devices", "Data used", ""]}
            empty="No code in this state."
            rows={codes.data.data.map((c) => [
              <code key="c">{c.code}</code>,
              c.status.replace("_", " "),
              c.first_used_at || "—",
              c.ends_at || "—",
              String(c.devices_used),
              formatBytes(c.bytes_used),
              c.status === "revoked" || props.readonly ? (
                ""
              ) : (
                <ConfirmButton
                  key="r"
                  label={`Revoke ${c.code}`}
                  question={`Revoke ${c.code}? It stops working at once.`}
                  onConfirm={async () => {
                    await post("/api/revoke-voucher", { voucher_id: c.voucher_id });
                    setDone(`${c.code} revoked.`);
                    codes.reload();
                  }}
                />
              ),
            ])}
          />
          {pages > 1 && (
            <p>
              <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </button>{" "}
              {`Page ${page} of ${pages}`}{" "}
              <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                Next
              </button>
            </p>
          )}
        </>
      )}
      <section aria-labelledby="revoke-h">
        <h2 id="revoke-h">Revoke the batch</h2>
        <ConfirmButton
          danger
          label="Revoke every code of this batch"
          disabled={props.readonly}
          question="Revoke every code of this batch? They stop working at once."
          onConfirm={async () => {
            const r = await post<{ message: string }>("/api/revoke-voucher", { batch_id: props.id });
            setDone(r.message);
            codes.reload();
            if (status !== "") navigate(`/console/vouchers/${props.id}`);
          }}
        />
      </section>
    </>
  );
}
