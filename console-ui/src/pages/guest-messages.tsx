/** On a guest's page: the messages automations sent them and their survey answers. */
import { get } from "../api";
import { Loading, Table, useLoad } from "../ui";
import { MessageLog } from "./message-log";
import type { SurveyAnswer as Answer } from "../types";

export function GuestMessages(props: { guestId: number }) {
  const answers = useLoad(() => get<{ data: Answer[] }>("/api/survey-answer-list", { user_id: props.guestId, per_page: 1000 }), [props.guestId]);
  return (
    <>
      <section aria-labelledby="survey-h">
        <h2 id="survey-h">Survey answers</h2>
        {!answers.data ? (
          <Loading error={answers.error} />
        ) : (
          <Table caption="Survey answers" head={["When (UTC)", "Score", "Comment"]} empty="No answer." rows={answers.data.data.map((a) => [a.answered_at, String(a.score), a.comment || "—"])} />
        )}
      </section>
      <MessageLog id="guest-log" caption="Messages to this guest" filter={{ user_id: props.guestId }} />
    </>
  );
}
