/** Surveys: a location's score over time (average and net promoter score per day) and the latest answers. */
import { useState } from "preact/hooks";
import { get } from "../api";
import { ChartBlock } from "../charts";
import { type Location, daysAgo, today } from "../state";
import { Link, Loading, Notice, Table, useLoad } from "../ui";
import type { PageProps } from "./page";
import type { Scores, SurveyAnswer as Answer } from "../types";

export function SurveysPage(_props: PageProps) {
  const locations = useLoad(() => get<{ data: Location[] }>("/api/location-list"), []);
  const [chosen, setChosen] = useState("");
  const [days, setDays] = useState("30");
  if (!locations.data) return <Loading error={locations.error} />;
  const locs = locations.data.data;
  const id = chosen || String(locs[0]?.id ?? "");
  return (
    <>
      <h1>Surveys</h1>
      <p class="muted">Answers to the question after a visit (an automation "Visit ended" with a survey): 0 to 10, and a comment.</p>
      {locs.length === 0 ? (
        <Notice kind="info">No location yet.</Notice>
      ) : (
        <>
          <div class="toolbar">
            <label>
              Location{" "}
              <select value={id} onChange={(e) => setChosen((e.target as HTMLSelectElement).value)}>
                {locs.map((l) => (
                  <option key={l.id} value={String(l.id)}>
                    {l.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Period{" "}
              <select value={days} onChange={(e) => setDays((e.target as HTMLSelectElement).value)}>
                {["7", "30", "90", "365"].map((d) => (
                  <option key={d} value={d}>
                    Last {d} days
                  </option>
                ))}
              </select>
            </label>
          </div>
          <ScoresOf locationId={Number(id)} days={Number(days)} />
        </>
      )}
    </>
  );
}

function ScoresOf(props: { locationId: number; days: number }) {
  const to = today();
  const from = daysAgo(to, props.days - 1);
  const scores = useLoad(() => get<Scores>("/api/survey-scores", { location_id: props.locationId, from_date: from, to_date: to }), [props.locationId, from, to]);
  const answers = useLoad(() => get<{ data: Answer[]; total: number }>("/api/survey-answer-list", { location_id: props.locationId, per_page: 1000 }), [props.locationId]);
  if (!scores.data || !answers.data) return <Loading error={scores.error ?? answers.error} />;
  const s = scores.data;
  const latest = [...answers.data.data].reverse().slice(0, 20);
  return (
    <>
      <dl class="facts">
        <dt>Answers</dt>
        <dd>{s.totals.answers}</dd>
        <dt>Average score</dt>
        <dd>{s.totals.average ?? "—"}</dd>
        <dt>Net promoter score</dt>
        <dd>{s.totals.nps ?? "—"}</dd>
      </dl>
      <ChartBlock
        title="Average score per day (0-10)"
        kind="line"
        labels={s.categories}
        series={[{ label: "Average score", data: s.average.map((v) => v ?? Number.NaN) }]}
      />
      <ChartBlock title="Answers per day" kind="bar" labels={s.categories} series={[{ label: "Answers", data: s.answers }]} />
      <Table
        caption="Latest answers"
        head={["When (UTC)", "Guest", "Score", "Comment"]}
        empty="No answer yet."
        rows={latest.map((a) => [a.answered_at, <Link key="g" href={`/console/guests/${a.user_id}`}>{`Guest ${a.user_id}`}</Link>, String(a.score), a.comment || "—"])}
      />
    </>
  );
}
