/** Guest automations: messages to guests who opted in (welcome, after a visit with a survey, after an absence, on a birthday), by e-mail or text. */
import { get, post } from "../api";
import { type Location, navigate } from "../state";
import { ConfirmButton, type Field, Form, Link, Loading, Notice, ReadOnlyNote, Table, type Values, useLoad } from "../ui";
import { MessageLog } from "./message-log";
import type { PageProps } from "./page";
import type { Automation } from "../types";

const TRIGGERS = [
  { value: "welcome", label: "Welcome: after a guest's first login at the location" },
  { value: "visit-ended", label: "Visit ended: after the guest's session ends" },
  { value: "absence", label: "Absence: when a guest has not come back for some days" },
  { value: "birthday", label: "Birthday: on the guest's birthday (when known)" },
];
const triggerName = (t: string) => TRIGGERS.find((x) => x.value === t)?.label.split(":")[0] ?? t;
const FIELDS_HINT = "Plain text. Guest fields: {{first_name}}, {{full_name}}, {{location_name}}, {{review_url}}… with a fallback: {{first_name|there}}. Empty: the built-in text.";

export function AutomationsPage(props: PageProps) {
  const m = /^(new|\d+)$/.exec(props.id ?? "");
  const ro = props.session.user.readonly;
  const channels = [...(props.session.settings.mail ? [{ value: "email", label: "E-mail" }] : []), ...(props.session.settings.providers.sms ? [{ value: "sms", label: "Text message (Twilio)" }] : [])];
  if (m?.[1] === "new") return <AutomationEditor readonly={ro} channels={channels} />;
  if (m) return <AutomationDetail id={Number(m[1])} readonly={ro} channels={channels} />;
  return <AutomationList readonly={ro} noChannel={channels.length === 0} />;
}

function AutomationList(props: { readonly: boolean; noChannel: boolean }) {
  const list = useLoad(() => get<{ data: Automation[] }>("/api/automation-list"), []);
  return (
    <>
      <h1>Automations</h1>
      <p class="muted">Messages to guests who opted in to marketing. Every e-mail has a one-click unsubscribe; every text the STOP note. No tracking.</p>
      <ReadOnlyNote readonly={props.readonly} />
      {props.noChannel && <Notice kind="warn">Neither e-mail (SMTP_URL) nor text messages (Twilio) are configured on this service.</Notice>}
      {!props.readonly && !props.noChannel && (
        <p>
          <Link href="/console/automations/new" class="button primary">
            Add automation
          </Link>
        </p>
      )}
      {!list.data ? (
        <Loading error={list.error} />
      ) : (
        <Table
          caption="Automations"
          head={["Name", "Trigger", "Channel", "When", "State"]}
          empty="No automation yet."
          rows={list.data.data.map((a) => [
            <Link key="n" href={`/console/automations/${a.automation_id}`}>
              {a.name}
            </Link>,
            triggerName(a.trigger),
            a.channel === "sms" ? "Text" : "E-mail",
            a.trigger === "absence" ? `${a.absence_days} days away, at ${a.send_time}` : a.trigger === "birthday" ? `at ${a.send_time}` : `${a.delay_minutes} min after`,
            a.active === 1 ? "Active" : "Paused",
          ])}
        />
      )}
    </>
  );
}

function fieldsOf(channels: { value: string; label: string }[], locations: Location[]): Field[] {
  return [
    { name: "name", label: "Name", maxLength: 100 },
    { name: "trigger", label: "Trigger", type: "select", options: TRIGGERS },
    { name: "channel", label: "Channel", type: "select", options: channels },
    { name: "delay_minutes", label: "Delay (minutes; welcome and visit ended)", type: "number", min: 0, max: 10080 },
    { name: "absence_days", label: "Days without a visit (absence)", type: "number", min: 1, max: 365 },
    { name: "send_time", label: "Local time to send (absence and birthday, HH:MM)", maxLength: 5 },
    { name: "subject", label: "Subject (e-mail)", maxLength: 255, hint: FIELDS_HINT },
    { name: "body", label: "Message", type: "textarea", maxLength: 5000, hint: FIELDS_HINT },
    { name: "translations", label: "Translations (JSON)", type: "textarea", maxLength: 20000, hint: 'By language: {"fr": {"subject": "Bienvenue", "body": "Bonjour {{first_name}}"}}' },
    { name: "cap_messages", label: "At most this many messages per guest", type: "number", min: 1, max: 100 },
    { name: "cap_days", label: "…per this many days", type: "number", min: 1, max: 365 },
    { name: "survey", label: "Ask a 0-10 question with a comment (visit ended)", type: "checkbox" },
    { name: "survey_question", label: "Survey question", maxLength: 255, hint: "Empty: How likely are you to recommend {{location_name}} to a friend?" },
    { name: "review_url", label: "Review page (a link in the message)", type: "url", maxLength: 2048 },
    { name: "active", label: "Active", type: "checkbox" },
    ...locations.map((l) => ({ name: `loc_${l.id}`, label: `Only ${l.name}`, type: "checkbox" as const })),
  ];
}

function paramsOf(v: Values, locations: Location[]): Record<string, string> {
  const s = (k: string) => String(v[k] ?? "").trim();
  return {
    name: s("name"),
    trigger: s("trigger"),
    channel: s("channel"),
    delay_minutes: s("delay_minutes"),
    absence_days: s("absence_days"),
    send_time: s("send_time"),
    subject: s("subject"),
    body: s("body"),
    translations: s("translations") || "{}",
    cap_messages: s("cap_messages"),
    cap_days: s("cap_days"),
    survey: v.survey === true ? "1" : "0",
    survey_question: s("survey_question"),
    review_url: s("review_url"),
    active: v.active === true ? "1" : "0",
    location_ids: locations
      .filter((l) => v[`loc_${l.id}`] === true)
      .map((l) => l.id)
      .join(","),
  };
}

function initialOf(a: Automation | undefined, channels: { value: string }[], locations: Location[]): Values {
  if (!a) {
    return { trigger: "welcome", channel: channels[0]?.value ?? "email", delay_minutes: "0", absence_days: "30", send_time: "10:00", cap_messages: "1", cap_days: "1", active: true, translations: "{}" };
  }
  return {
    name: a.name,
    trigger: a.trigger,
    channel: a.channel,
    delay_minutes: String(a.delay_minutes),
    absence_days: String(a.absence_days),
    send_time: a.send_time,
    subject: a.subject,
    body: a.body,
    translations: JSON.stringify(a.translations),
    cap_messages: String(a.cap_messages),
    cap_days: String(a.cap_days),
    survey: a.survey === 1,
    survey_question: a.survey_question,
    review_url: a.review_url,
    active: a.active === 1,
    ...Object.fromEntries(locations.map((l) => [`loc_${l.id}`, a.location_ids.includes(l.id)])),
  };
}

function AutomationEditor(props: { readonly: boolean; channels: { value: string; label: string }[]; existing?: Automation; onSaved?: () => void }) {
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  if (!locations.data) return <Loading error={locations.error} />;
  const locs = locations.data.data;
  const a = props.existing;
  return (
    <>
      {!a && (
        <>
          <p>
            <Link href="/console/automations">← Automations</Link>
          </p>
          <h1>Add automation</h1>
        </>
      )}
      <ReadOnlyNote readonly={props.readonly} />
      <p class="muted">Tick no location for every location.</p>
      <Form
        id="automation"
        fields={fieldsOf(props.channels, locs)}
        initial={initialOf(a, props.channels, locs)}
        submitLabel={a ? "Save automation" : "Add automation"}
        disabled={props.readonly}
        submit={async (v) => {
          const r = await post<{ automation_id: number; message: string }>("/api/create-or-update-automation", {
            ...(a ? { automation_id: a.automation_id } : {}),
            ...paramsOf(v, locs),
          });
          if (!a) navigate(`/console/automations/${r.automation_id}`);
          props.onSaved?.();
          return r.message;
        }}
      />
    </>
  );
}

function AutomationDetail(props: { id: number; readonly: boolean; channels: { value: string; label: string }[] }) {
  const list = useLoad(() => get<{ data: Automation[] }>("/api/automation-list"), [props.id]);
  if (!list.data) return <Loading error={list.error} />;
  const a = list.data.data.find((x) => x.automation_id === props.id);
  if (!a) {
    return (
      <>
        <p>
          <Link href="/console/automations">← Automations</Link>
        </p>
        <h1>Automation not found</h1>
        <Notice kind="error">This automation does not exist or was deleted.</Notice>
      </>
    );
  }
  return (
    <>
      <p>
        <Link href="/console/automations">← Automations</Link>
      </p>
      <h1>{a.name}</h1>
      <AutomationEditor readonly={props.readonly} channels={props.channels.length ? props.channels : [{ value: a.channel, label: a.channel }]} existing={a} onSaved={() => list.reload()} />
      <MessageLog id="automation-log" caption="Its messages" filter={{ automation_id: a.automation_id }} />
      <section aria-labelledby="delete-h">
        <h2 id="delete-h">Delete</h2>
        <p class="muted">Messages not yet sent are withdrawn.</p>
        <ConfirmButton
          danger
          label="Delete automation"
          disabled={props.readonly}
          question={`Delete the automation "${a.name}"? Its messages not yet sent are withdrawn.`}
          onConfirm={async () => {
            await post("/api/delete-automation", { automation_id: a.automation_id });
            navigate("/console/automations");
          }}
        />
      </section>
    </>
  );
}
