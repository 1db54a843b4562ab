/** Messages: the log of every message, a test e-mail, and the signed-in user's own quick report. */
import { get, post } from "../api";
import { Form, Loading, Notice, ReadOnlyNote, useLoad } from "../ui";
import { MessageLog } from "./message-log";
import type { PageProps } from "./page";
import type { QuickReport } from "../types";

export function MessagesPage(props: PageProps) {
  const { user, settings } = props.session;
  const ro = user.readonly;
  const report = useLoad(() => get<{ data: QuickReport }>("/api/get-quick-report"), []);
  const locations = useLoad(() => get<{ data: { id: number; name: string }[] }>("/api/location-list"), []);
  return (
    <>
      <h1>Messages</h1>
      <p class="muted">E-mails and texts the service sends: guest automations, quick reports and test e-mails, each with its state and every attempt.</p>
      <ReadOnlyNote readonly={ro} />
      {!settings.mail && <Notice kind="warn">E-mail is not configured on this service (SMTP_URL and MAIL_FROM): no e-mail is sent.</Notice>}
      <section aria-labelledby="test-h">
        <h2 id="test-h">Send a test e-mail</h2>
        <Form
          id="test-mail"
          fields={[{ name: "to", label: "To", type: "email", hint: "Empty: your own address." }]}
          submitLabel="Send a test e-mail"
          disabled={ro || !settings.mail}
          submit={async (v) => {
            const to = String(v.to ?? "").trim();
            const r = await post<{ message: string }>("/api/send-test-email", to ? { to } : {});
            return `${r.message} Its outcome shows in the log below.`;
          }}
        />
      </section>
      <section aria-labelledby="report-h">
        <h2 id="report-h">Your quick report</h2>
        <p class="muted">An e-mail with the day before (or the last week) against a week earlier: logins, visits, new and returning guests, data used, the busiest hour.</p>
        {!report.data || !locations.data ? (
          <Loading error={report.error ?? locations.error} />
        ) : (
          <Form
            id="quick-report"
            fields={[
              { name: "quickreport", label: `Send me the quick report (to ${report.data.data.email})`, type: "checkbox" },
              {
                name: "frequency",
                label: "How often",
                type: "select",
                options: [
                  { value: "daily", label: "Every morning, about the day before" },
                  { value: "weekly", label: "Every Monday, about the last week" },
                ],
              },
              ...(user.role === "owner"
                ? [
                    {
                      name: "quickreport_location_id",
                      label: "Location",
                      type: "select" as const,
                      options: [{ value: "0", label: "All locations" }, ...locations.data.data.map((l) => ({ value: String(l.id), label: l.name }))],
                    },
                  ]
                : []),
            ]}
            initial={{
              quickreport: report.data.data.quickreport === 1,
              frequency: report.data.data.frequency,
              quickreport_location_id: String(report.data.data.quickreport_location_id),
            }}
            submitLabel="Save quick report"
            submit={async (v) => {
              await post("/api/set-quick-report", {
                quickreport: v.quickreport === true ? "1" : "0",
                frequency: String(v.frequency ?? "daily"),
                ...(user.role === "owner" ? { quickreport_location_id: String(v.quickreport_location_id ?? "0") } : {}),
              });
              report.reload();
              return "Saved.";
            }}
          />
        )}
      </section>
      <MessageLog id="all" caption="Message log" filter={{}} />
    </>
  );
}
