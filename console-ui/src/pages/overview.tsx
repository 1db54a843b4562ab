/** How the venues are doing: the account or one location, over a range the operator picks. */
import { useMemo, useState } from "preact/hooks";
import { get } from "../api";
import { ChartBlock, HoursGrid } from "../charts";
import { bucketsOf, grainOf, previousRange, sumInto } from "../periods";
import { type Location, daysAgo, formatBytes, today } from "../state";
import { Link, LocationSelect, Loading, useLoad } from "../ui";
import type { PageProps } from "./page";
import type { Overview } from "../types";

const PRESETS = [7, 30, 90, 365];

/** Per day totals of several series (the previous period's line). */
function totalPerDay(series: number[][]): number[] {
  return (series[0] ?? []).map((_, i) => series.reduce((a, s) => a + (s[i] ?? 0), 0));
}

/** "+12% on the previous period", or nothing when there is nothing to compare with. */
function change(now: number, before: number | undefined): string {
  if (before === undefined || before === 0) return "";
  const pct = Math.round(((now - before) / before) * 100);
  return `${pct > 0 ? "+" : pct < 0 ? "−" : "±"}${Math.abs(pct)}% on the previous period`;
}

/** What a first-time operator does next, on an account with no location yet. */
function FirstSteps(props: { readonly: boolean }) {
  return (
    <section class="first-steps" aria-labelledby="first-steps-h">
      <h2 id="first-steps-h">Get started</h2>
      <p>This account has no location yet, so there is nothing to chart. Four steps put a venue online:</p>
      <ol>
        <li>
          <Link href="/console/locations/new">Add a location</Link>: the venue, its address and time zone.
        </li>
        <li>
          <Link href="/console/campaigns/new">Create a campaign</Link>: the login page guests see, its network name and login methods.
        </li>
        <li>
          <Link href="/console/devices">Add a device</Link>: each access point or gateway by its MAC address, with the RADIUS settings to copy into it.
        </li>
        <li>Connect a phone to the network: the login shows here within a minute.</li>
      </ol>
      <p class="muted">
        To look around first, fill a test account with 90 days of sample venues, guests and logins: run <code>guestwifi demo --email you@example.com</code> on
        the server{props.readonly ? " (ask the account's owner)" : ""}.
      </p>
    </section>
  );
}
export function OverviewPage(props: PageProps) {
  const end = today();
  const [range, setRange] = useState({ from: daysAgo(end, 29), to: end, preset: 30 as number | null });
  const [locationId, setLocationId] = useState("0");
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  const data = useLoad(
    () => get<{ data: Overview }>("/console/api/overview", { location_id: locationId, from_date: range.from, to_date: range.to }),
    [locationId, range.from, range.to],
  );
  const before = previousRange(range.from, range.to);
  const previous = useLoad(
    () => get<{ data: Overview }>("/console/api/overview", { location_id: locationId, from_date: before.from, to_date: before.to }),
    [locationId, before.from, before.to],
  );
  const o = data.data?.data;
  const p = previous.data?.data;
  const grain = grainOf(o?.days.length ?? 0);
  const per = grain === "day" ? "per day" : grain === "week" ? "per week" : "per month";
  const charts = useMemo(() => {
    if (!o) return null;
    const b = bucketsOf(o.days, grain);
    const sum = (d: number[]) => sumInto(b, d);
    const prevLabel = `Previous ${o.days.length} days`;
    const prev = (d: number[][]) => (p ? { label: prevLabel, data: sum(totalPerDay(d)) } : undefined);
    return {
      labels: b.labels,
      logins: o.logins.filter((s) => s.data.some((n) => n > 0)).map((s) => ({ label: s.name, data: sum(s.data) })),
      loginsBefore: prev(p ? p.logins.map((s) => s.data) : []),
      visits: [{ label: "Visits", data: sum(o.visits) }],
      visitsBefore: prev(p ? [p.visits] : []),
      guests: [
        { label: "New guests", data: sum(o.newGuests) },
        { label: "Returning guests", data: sum(o.returningGuests) },
      ],
      guestsBefore: prev(p ? [p.newGuests, p.returningGuests] : []),
      usage: [{ label: "Data used", data: sum(o.usageBytes) }],
      usageBefore: prev(p ? [p.usageBytes] : []),
    };
  }, [o, p, grain]);
  const head = grain === "day" ? "Day" : grain === "week" ? "Week" : "Month";
  if (locations.data && locations.data.data.length === 0) {
    return (
      <>
        <h1>Overview</h1>
        <FirstSteps readonly={props.session.user.readonly} />
      </>
    );
  }

  return (
    <>
      <h1>Overview</h1>
      <fieldset class="toolbar">
        <legend class="sr-only">What to show</legend>
        <LocationSelect locations={locations.data?.data ?? []} value={locationId} onChange={setLocationId} />
        <span class="presets">
          {PRESETS.map((n) => (
            <button key={n} type="button" aria-pressed={range.preset === n} onClick={() => setRange({ from: daysAgo(end, n - 1), to: end, preset: n })}>
              {n} days
            </button>
          ))}
        </span>
        <label>
          From{" "}
          <input type="date" value={range.from} max={range.to} onChange={(e) => setRange({ ...range, from: (e.target as HTMLInputElement).value, preset: null })} />
        </label>
        <label>
          To{" "}
          <input type="date" value={range.to} min={range.from} onChange={(e) => setRange({ ...range, to: (e.target as HTMLInputElement).value, preset: null })} />
        </label>
      </fieldset>
      {!o || !charts ? (
        <Loading error={data.error} />
      ) : (
        <>
          <ul class="cards" aria-label="Totals">
            {(
              [
                ["logins", "logins"],
                ["visits", "visits"],
                ["newGuests", "new guests"],
                ["returningGuests", "returning visits"],
                ["usageBytes", "data used"],
              ] as const
            ).map(([key, label]) => (
              <li key={key}>
                <span class="n">{key === "usageBytes" ? formatBytes(o.totals[key]) : o.totals[key].toLocaleString()}</span> {label}
                {p && change(o.totals[key], p.totals[key]) && <span class="change">{change(o.totals[key], p.totals[key])}</span>}
              </li>
            ))}
          </ul>
          <div class="charts">
            <ChartBlock title={`Logins ${per} by login type`} kind="bar" stacked labels={charts.labels} labelHead={head} series={charts.logins} previous={charts.loginsBefore} />
            <ChartBlock title={`Visits ${per}`} kind="line" labels={charts.labels} labelHead={head} series={charts.visits} previous={charts.visitsBefore} />
            <ChartBlock
              title={`New and returning guests ${per}`}
              kind="bar"
              stacked
              labels={charts.labels}
              labelHead={head}
              series={charts.guests}
              previous={charts.guestsBefore}
            />
            <ChartBlock title={`Data used ${per}`} kind="bar" labels={charts.labels} labelHead={head} series={charts.usage} previous={charts.usageBefore} format={formatBytes} bytes />
            {o.hours && <HoursGrid hours={o.hours} />}
          </div>
        </>
      )}
    </>
  );
}
