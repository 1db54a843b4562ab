/** Chart.js (bundled, tree-shaken) behind a canvas, always with a table of the same numbers for screen readers. */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartDataset,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  PointElement,
  Tooltip,
} from "chart.js";
import { useEffect, useRef } from "preact/hooks";
import { byteTickLabel, byteTicks } from "./periods";

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Tooltip, Legend);

export const PALETTE = ["#2563eb", "#16a34a", "#d97706", "#dc2626", "#7c3aed", "#0891b2", "#db2777", "#4b5563"];

export interface Series {
  label: string;
  data: number[];
}

export function ChartBlock(props: {
  title: string;
  kind: "bar" | "line";
  labels: string[];
  series: Series[];
  stacked?: boolean;
  format?: (n: number) => string;
  /** The y axis counts bytes: ticks at round figures of one unit. Otherwise it counts things: whole ticks only. */
  bytes?: boolean;
  /** The previous period's totals per bucket, drawn as a dashed line beside the current period. */
  previous?: { label: string; data: number[] };
  /** The table's first column ("Day", "Week", "Month"). */
  labelHead?: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const datasets: ChartDataset<"bar" | "line">[] = props.series.map((s, i) => ({
      label: s.label,
      data: s.data,
      backgroundColor: PALETTE[i % PALETTE.length],
      borderColor: PALETTE[i % PALETTE.length],
      pointRadius: props.labels.length > 60 ? 0 : 2,
      borderWidth: props.kind === "line" ? 2 : 0,
    }));
    const prev = props.previous;
    if (prev) {
      datasets.push({
        type: "line",
        label: prev.label,
        data: prev.data,
        borderColor: "#6b7280",
        backgroundColor: "#6b7280",
        borderDash: [6, 4],
        borderWidth: 2,
        pointRadius: 0,
        stack: "previous",
      } as ChartDataset<"line">);
    }
    const fmt = props.format;
    const highest = Math.max(
      0,
      ...(props.stacked ? props.labels.map((_, i) => props.series.reduce((a, s) => a + (s.data[i] ?? 0), 0)) : props.series.flatMap((s) => s.data)),
      ...(prev?.data ?? []),
    );
    const bytes = props.bytes ? byteTicks(highest) : null;
    const chart = new Chart(canvas.current, {
      type: props.kind,
      // The y axis' tick values on the canvas (data-y-ticks), for the browser tests to read.
      plugins: [
        {
          id: "ticksOut",
          afterUpdate: (c: Chart) => {
            c.canvas.dataset.yTicks = c.scales.y.ticks.map((t) => t.value).join(",");
          },
        },
      ],
      data: { labels: props.labels, datasets: datasets as ChartDataset<"bar">[] },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        interaction: { mode: "index", intersect: false },
        scales: {
          x: { stacked: props.stacked, ticks: { maxTicksLimit: 12 } },
          y: bytes
            ? { stacked: props.stacked, beginAtZero: true, max: bytes.max, ticks: { stepSize: bytes.step, callback: (v) => byteTickLabel(Number(v), bytes) } }
            : { stacked: props.stacked, beginAtZero: true, ticks: { precision: 0 } },
        },
        plugins: {
          legend: { display: datasets.length > 1, position: "bottom" },
          tooltip: fmt ? { callbacks: { label: (c) => `${c.dataset.label}: ${fmt(Number(c.raw))}` } } : {},
        },
      },
    });
    return () => chart.destroy();
  }, [props.labels, props.series, props.kind, props.stacked, props.format, props.bytes, props.previous]);
  const fmt = props.format ?? ((n: number) => n.toLocaleString());
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      <div class="chart-box">
        <canvas ref={canvas} role="img" aria-label={`${props.title}: chart; the table view below has the numbers.`} />
      </div>
      <details>
        <summary>Table view: {props.title}</summary>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take focus for the keyboard to scroll it */}
        <section class="table-wrap" aria-label={`${props.title}: table`} tabIndex={0}>
          <table>
            <caption class="sr-only">{props.title}</caption>
            <thead>
              <tr>
                <th scope="col">{props.labelHead ?? "Day"}</th>
                {props.series.map((s) => (
                  <th key={s.label} scope="col">
                    {s.label}
                  </th>
                ))}
                {props.previous && <th scope="col">{props.previous.label}</th>}
              </tr>
            </thead>
            <tbody>
              {props.labels.map((l, i) => (
                <tr key={l}>
                  <th scope="row">{l}</th>
                  {props.series.map((s) => (
                    <td key={s.label}>{fmt(s.data[i] ?? 0)}</td>
                  ))}
                  {props.previous && <td>{fmt(props.previous.data[i] ?? 0)}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </details>
    </figure>
  );
}

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** Busiest hours of the week: a 7 x 24 grid shaded by logins, itself a table (readable as one). */
export function HoursGrid(props: { hours: number[] }) {
  const max = Math.max(1, ...props.hours);
  return (
    <figure class="chart">
      <figcaption>Busiest hours of the week (logins, local time)</figcaption>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take focus for the keyboard to scroll it */}
      <section class="table-wrap" aria-label="Busiest hours: table" tabIndex={0}>
        <table class="hours">
          <caption class="sr-only">Logins by weekday and hour, in each location's local time</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {Array.from({ length: 24 }, (_, h) => (
                <th key={h} scope="col">
                  {String(h).padStart(2, "0")}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {WEEKDAYS.map((day, d) => (
              <tr key={day}>
                <th scope="row">{day.slice(0, 3)}</th>
                {Array.from({ length: 24 }, (_, h) => {
                  const n = props.hours[d * 24 + h] ?? 0;
                  const level = n === 0 ? 0 : Math.min(5, 1 + Math.floor((n / max) * 4.999));
                  return (
                    <td key={h} class={`heat heat-${level}`} title={`${day} ${String(h).padStart(2, "0")}:00: ${n} logins`}>
                      {n}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </figure>
  );
}
