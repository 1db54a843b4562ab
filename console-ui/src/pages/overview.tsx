/** How the venues are doing: the account or one location, over a range the operator picks. */
import { useMemo, useState } from "preact/hooks";
import { get } from "../api";
import { ChartBlock, HoursGrid } from "../charts";
import { type Location, daysAgo, formatBytes, today } from "../state";
import { Loading, useLoad , LocationSelect } from "../ui";
import type { PageProps } from "./page";

interface Overview {
  days: string[];
  logins: { type: string; name: string; data: number[] }[];
  visits: number[];
  newGuests: number[];
  returningGuests: number[];
  usageBytes: number[];
  hours?: number[];
  totals: { logins: number; visits: number; newGuests: number; returningGuests: number; usageBytes: number };
}

const PRESETS = [7, 30, 90, 365];

export function OverviewPage(_props: PageProps) {
  const end = today();
  const [range, setRange] = useState({ from: daysAgo(end, 29), to: end, preset: 30 as number | null });
  const [locationId, setLocationId] = useState("0");
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  const data = useLoad(
    () => get<{ data: Overview }>("/console/api/overview", { location_id: locationId, from_date: range.from, to_date: range.to }),
    [locationId, range.from, range.to],
  );
  const o = data.data?.data;
  const loginSeries = useMemo(() => (o ? o.logins.filter((s) => s.data.some((n) => n > 0)).map((s) => ({ label: s.name, data: s.data })) : []), [o]);
  const visitSeries = useMemo(() => (o ? [{ label: "Visits", data: o.visits }] : []), [o]);
  const guestSeries = useMemo(
    () => (o ? [{ label: "New guests", data: o.newGuests }, { label: "Returning guests", data: o.returningGuests }] : []),
    [o],
  );
  const usageSeries = useMemo(() => (o ? [{ label: "Data used", data: o.usageBytes }] : []), [o]);

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
      {!o ? (
        <Loading error={data.error} />
      ) : (
        <>
          <ul class="cards" aria-label="Totals">
            <li>
              <span class="n">{o.totals.logins.toLocaleString()}</span> logins
            </li>
            <li>
              <span class="n">{o.totals.visits.toLocaleString()}</span> visits
            </li>
            <li>
              <span class="n">{o.totals.newGuests.toLocaleString()}</span> new guests
            </li>
            <li>
              <span class="n">{o.totals.returningGuests.toLocaleString()}</span> returning visits
            </li>
            <li>
              <span class="n">{formatBytes(o.totals.usageBytes)}</span> data used
            </li>
          </ul>
          <div class="charts">
            <ChartBlock title="Logins per day by login type" kind="bar" stacked labels={o.days} series={loginSeries} />
            <ChartBlock title="Visits per day" kind="line" labels={o.days} series={visitSeries} />
            <ChartBlock title="New and returning guests per day" kind="bar" stacked labels={o.days} series={guestSeries} />
            <ChartBlock title="Data used per day" kind="bar" labels={o.days} series={usageSeries} format={formatBytes} />
            {o.hours && <HoursGrid hours={o.hours} />}
          </div>
        </>
      )}
    </>
  );
}
