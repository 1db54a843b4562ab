/** Guests: search by name, e-mail, phone or MAC, a profile with login history, and the CSV export. */
import { Fragment } from "preact";
import { useState } from "preact/hooks";
import { get, post } from "../api";
import { type Location, daysAgo, formatBytes, formatDuration, navigate, today } from "../state";
import { ConfirmButton, Link, LocationSelect, Loading, Notice, Table, useLoad } from "../ui";
import { GuestMessages } from "./guest-messages";
import type { PageProps } from "./page";
import { RetentionSection } from "./retention";
import { LOGIN_TYPES } from "../../../src/modules/guests/login-types.js";
import type { GuestDetail, GuestEntry } from "../types";

/** A login type by its name ("E-mail", as the overview says), not the specification's code ("Muser"). */
function loginTypeName(code: string): string {
  return LOGIN_TYPES.find((t) => t.code === code)?.series ?? code;
}

/** A consent text as the guest read it, without its markup (terms are HTML). */
function plainText(html: string): string {
  return new DOMParser().parseFromString(html, "text/html").body.textContent?.trim() ?? "";
}

/** "the text of 2026-11-02", or the bare version when its text was replaced before texts were kept. */
function versionName(version: string, texts: GuestDetail["texts"]): string {
  const t = texts.find((x) => x.version === version);
  return t ? `the text saved on ${t.saved_at.slice(0, 10)}` : `a text no longer on record (version ${version})`;
}

export function GuestsPage(props: PageProps) {
  const m = /^(\d+)$/.exec(props.id ?? "");
  if (m) return <GuestProfile id={Number(m[1])} readonly={props.session.user.readonly} />;
  return (
    <>
      <GuestList />
      <RetentionSection user={props.session.user} />
    </>
  );
}

function GuestList() {
  const [text, setText] = useState("");
  const [search, setSearch] = useState("");
  const [pages, setPages] = useState<(number | null)[]>([null]);
  const before = pages[pages.length - 1];
  const list = useLoad(() => get<{ data: GuestEntry[]; next_before_id: number | null }>("/console/api/guests", { q: search, before_id: before }), [search, before]);
  return (
    <>
      <h1>Guests</h1>
      <search>
      <form
        class="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(text.trim());
          setPages([null]);
        }}
      >
        <label>
          Search{" "}
          <input type="search" value={text} placeholder="Name, e-mail, phone or MAC" onInput={(e) => setText((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit">Search</button>
      </form>
      </search>
      {!list.data ? (
        <Loading error={list.error} />
      ) : (
        <>
          <Table
            caption="Guests"
            head={["Name", "E-mail", "Phone", "MACs", "Login type", "Last seen"]}
            empty={search ? "No guest matches." : "No guest yet."}
            rows={list.data.data.map((g) => [
              <Link key="n" href={`/console/guests/${g.id}`}>
                {g.full_name || g.email || g.phone_number || `Guest ${g.id}`}
              </Link>,
              g.email,
              g.phone_number,
              g.macs.join(", "),
              loginTypeName(g.social_network),
              g.updated_at,
            ])}
          />
          <div class="pager">
            <button type="button" disabled={pages.length === 1} onClick={() => setPages(pages.slice(0, -1))}>
              Newer
            </button>
            <button type="button" disabled={list.data.next_before_id === null} onClick={() => setPages([...pages, list.data!.next_before_id])}>
              Older
            </button>
          </div>
        </>
      )}
      <Export />
    </>
  );
}

/** A download of the guests the chosen locations and days show, as social-user-export writes it. */
function Export() {
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  const end = today();
  const [from, setFrom] = useState(daysAgo(end, 29));
  const [to, setTo] = useState(end);
  const [loc, setLoc] = useState("0");
  const all = (locations.data?.data ?? []).map((l) => l.id).slice(0, 100);
  const ids = loc === "0" ? all : [Number(loc)];
  const href = `/api/social-user-export?${new URLSearchParams({ format: "csv", location_ids: ids.join(","), from_date: from, to_date: to })}`;
  return (
    <section aria-labelledby="export-h">
      <h2 id="export-h">Export</h2>
      <div class="toolbar">
        <LocationSelect locations={locations.data?.data ?? []} value={loc} onChange={setLoc} />
        <label>
          From <input type="date" value={from} onChange={(e) => setFrom((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          To <input type="date" value={to} onChange={(e) => setTo((e.target as HTMLInputElement).value)} />
        </label>
        {ids.length > 0 ? (
          <a class="button" href={href} download>
            Download CSV
          </a>
        ) : (
          <span class="muted">No location to export.</span>
        )}
      </div>
      <p class="muted">Guests who logged in at these locations on these days (at most 366 days), one row per guest and location.</p>
    </section>
  );
}

function GuestProfile(props: { id: number; readonly: boolean }) {
  const g = useLoad(() => get<{ data: GuestDetail }>("/console/api/guest", { id: props.id }), [props.id]);
  if (!g.data) return g.error ? <Notice kind="error">{g.error}</Notice> : <Loading />;
  const { guest, macs, logins, texts } = g.data.data;
  const marketing = texts.find((t) => t.version === guest.marketing_version);
  const shown = texts.filter((t) => logins.some((l) => l.terms_version === t.version || l.marketing_version === t.version) || t === marketing);
  return (
    <>
      <p>
        <Link href="/console/guests">← Guests</Link>
      </p>
      <h1>{guest.full_name || guest.email || guest.phone_number || `Guest ${guest.id}`}</h1>
      <dl class="facts">
        <dt>E-mail</dt>
        <dd>{guest.email || "—"}</dd>
        <dt>Phone</dt>
        <dd>{guest.phone_number || "—"}</dd>
        <dt>First login</dt>
        <dd>{guest.created_at}</dd>
        <dt>Time online</dt>
        <dd>{formatDuration(guest.radius_session_total_time)}</dd>
        <dt>Data used</dt>
        <dd>{formatBytes(guest.radius_total_bandwidth_input + guest.radius_total_bandwidth_output)}</dd>
        <dt>Marketing</dt>
        <dd>
          {guest.marketing_opt_in_at
            ? `${guest.marketing_opt_in === 1 ? "Opted in" : "Not opted in"} on ${guest.marketing_opt_in_at} UTC${guest.marketing_version ? `, to ${versionName(guest.marketing_version, texts)}` : ""}`
            : "Never asked"}
          {marketing && <blockquote class="consent-text">{plainText(marketing.text)}</blockquote>}
        </dd>
      </dl>
      <h2>Devices (MAC addresses)</h2>
      <Table caption="MAC addresses" head={["MAC", "Last login"]} rows={macs.map((m) => [m.client_mac, m.last_login_at])} empty="No MAC address known." />
      <h2>Login history</h2>
      <Table
        caption="Logins, newest first"
        head={["When (UTC)", "Location", "Login type", "MAC", "Device", "Terms", "Marketing"]}
        rows={logins.map((l) => [
          l.logged_at,
          l.location_name ?? "—",
          loginTypeName(l.login_type),
          l.client_mac,
          [l.device_type, l.os_name, l.browser_name].filter(Boolean).join(", "),
          l.terms_accepted === 1 ? (l.terms_version ? `Accepted ${versionName(l.terms_version, texts)}` : "Accepted") : "—",
          l.marketing_opt_in === 1 ? "Opted in" : "—",
        ])}
        empty="No login."
      />
      {shown.length > 0 && (
        <section aria-labelledby="texts-h">
          <h2 id="texts-h">Texts the guest was shown</h2>
          <dl class="consent-texts">
            {shown.map((t) => (
              <Fragment key={t.version}>
                <dt>{`${t.kind === "terms" ? "Terms" : "Marketing opt-in"}, saved on ${t.saved_at.slice(0, 10)}`}</dt>
                <dd>
                  <blockquote class="consent-text">{plainText(t.text)}</blockquote>
                </dd>
              </Fragment>
            ))}
          </dl>
        </section>
      )}
      <GuestMessages guestId={guest.id} />
      <section aria-labelledby="rights-h">
        <h2 id="rights-h">Data-subject rights</h2>
        <p>Everything held about this guest, as JSON (right of access); or erase their personal data everywhere (right to erasure: analytics totals stay).</p>
        <div class="toolbar">
          <a class="button" href={`/api/export-social-user?${new URLSearchParams({ user_id: String(guest.id) })}`} download={`guest-${guest.id}.json`}>
            Export data
          </a>
          {!props.readonly && (
            <ConfirmButton
              label="Erase guest"
              danger
              question={`Erase all personal data of ${guest.full_name || guest.email || `guest ${guest.id}`}? This cannot be undone.`}
              onConfirm={async () => {
                await post("/api/erase-social-user", { user_id: guest.id });
                navigate("/console/guests");
              }}
            />
          )}
        </div>
      </section>
    </>
  );
}
