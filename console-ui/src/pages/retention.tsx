/** Retention: guests not seen for N days erased automatically (get/set-account-retention; the account owner sets it). */
import { get, post } from "../api";
import type { User } from "../state";
import { Form, Loading, Notice, useLoad } from "../ui";

export function RetentionSection(props: { user: User }) {
  const { user } = props;
  const owner = user.role === "owner";
  const current = useLoad(() => get<{ retention_days: number }>("/api/get-account-retention"), []);
  const days = current.data?.retention_days;
  return (
    <section aria-labelledby="retention-h">
      <h2 id="retention-h">Retention</h2>
      <p class="muted">
        Guests with no login and no WiFi session for this many days are erased automatically, as the erasure above does, by a job that runs every hour. 0 keeps
        guests until they are erased by hand.
      </p>
      {!owner && <Notice kind="info">Only the account's owner sets the retention period.</Notice>}
      {days === undefined ? (
        <Loading error={current.error} />
      ) : (
        <p class="retention-now">
          <strong>In force:</strong> {days === 0 ? "retention is off; guests are kept until erased by hand." : `guests not seen for ${days} days are erased.`}
        </p>
      )}
      <Form
        fields={[{ name: "retention_days", label: "Erase guests not seen for (days)", type: "number", required: true, min: 0, max: 3650, hint: "0 to 3650; 0: off." }]}
        initial={{ retention_days: days === undefined ? "" : String(days) }}
        submitLabel="Save retention"
        disabled={!owner}
        submit={async (v) => {
          const r = await post<{ message: string; retention_days: number }>("/api/set-account-retention", { retention_days: String(v.retention_days ?? "").trim() });
          current.reload();
          return r.message;
        }}
      />
    </section>
  );
}
