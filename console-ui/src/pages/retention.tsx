/** Retention: guests not seen for N days erased automatically (set-account-retention; the account owner only). */
import { useState } from "preact/hooks";
import { post } from "../api";
import type { User } from "../state";
import { Form, Notice } from "../ui";

/**
 * The API has no read of the setting, so the console shows what the last save in this tab answered
 * (per account, kept across pages until the tab is closed).
 */
const lastSaved = new Map<number, number>();

export function RetentionSection(props: { user: User }) {
  const { user } = props;
  const owner = user.role === "owner";
  const [saved, setSaved] = useState<number | undefined>(lastSaved.get(user.account_id));
  return (
    <section aria-labelledby="retention-h">
      <h2 id="retention-h">Retention</h2>
      <p class="muted">
        Guests with no login and no WiFi session for this many days are erased automatically, as the erasure above does, by a job that runs every hour. 0 keeps
        guests until they are erased by hand.
      </p>
      {!owner && <Notice kind="info">Only the account's owner sets the retention period.</Notice>}
      {saved !== undefined ? (
        <p>{saved === 0 ? "Retention is off (saved in this session)." : `Guests not seen for ${saved} days are erased (saved in this session).`}</p>
      ) : (
        <p class="muted">The service does not show the current period: saving one sets it.</p>
      )}
      <Form
        fields={[{ name: "retention_days", label: "Erase guests not seen for (days)", type: "number", required: true, min: 0, max: 3650, hint: "0 to 3650; 0: off." }]}
        initial={{ retention_days: saved === undefined ? "" : String(saved) }}
        submitLabel="Save retention"
        disabled={!owner}
        submit={async (v) => {
          const r = await post<{ message: string; retention_days: number }>("/api/set-account-retention", { retention_days: String(v.retention_days ?? "").trim() });
          lastSaved.set(user.account_id, r.retention_days);
          setSaved(r.retention_days);
          return r.message;
        }}
      />
    </section>
  );
}
