/** SQL of the one-question survey after a visit (survey_answers). */
import type { Selectable } from "kysely";
import type { DB } from "../../db/database.js";
import type { SurveyAnswersTable } from "../../db/schema.js";

export type SurveyAnswerRow = Selectable<SurveyAnswersTable>;

export function createSurveyRepository() {
  return {
    /** The answer to a message: a second answer to the same message replaces the first. */
    async save(db: DB, a: Omit<SurveyAnswerRow, "id">): Promise<void> {
      await db
        .insertInto("survey_answers")
        .values(a)
        .onConflict((oc) => oc.column("message_id").doUpdateSet({ score: a.score, comment: a.comment, answered_at: a.answered_at, local_day: a.local_day }))
        .execute();
    },

    async findByMessage(db: DB, messageId: number): Promise<SurveyAnswerRow | undefined> {
      return db.selectFrom("survey_answers").selectAll().where("message_id", "=", messageId).executeTakeFirst();
    },

    async list(db: DB, f: { accountId: number; guestId?: number; locationId?: number }, page: number, perPage: number): Promise<{ rows: SurveyAnswerRow[]; total: number }> {
      let q = db.selectFrom("survey_answers").where("account_id", "=", f.accountId);
      if (f.guestId !== undefined) q = q.where("guest_id", "=", f.guestId);
      if (f.locationId !== undefined) q = q.where("location_id", "=", f.locationId);
      const [rows, count] = await Promise.all([
        q.selectAll().orderBy("id").limit(perPage).offset((page - 1) * perPage).execute(),
        q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    /** Scores per local day at a location: how many, their sum, promoters (9-10) and detractors (0-6). */
    async scoresByDay(db: DB, locationId: number, fromDay: string, toDay: string) {
      const rows = await db
        .selectFrom("survey_answers")
        .select((eb) => [
          "local_day",
          eb.fn.countAll<number>().as("n"),
          eb.fn.sum<number>("score").as("total"),
          eb.fn.sum<number>(eb.case().when("score", ">=", 9).then(1).else(0).end()).as("promoters"),
          eb.fn.sum<number>(eb.case().when("score", "<=", 6).then(1).else(0).end()).as("detractors"),
        ])
        .where("location_id", "=", locationId)
        .where("local_day", ">=", fromDay)
        .where("local_day", "<=", toDay)
        .groupBy("local_day")
        .execute();
      return rows.map((r) => ({ day: r.local_day, n: Number(r.n), total: Number(r.total), promoters: Number(r.promoters), detractors: Number(r.detractors) }));
    },
  };
}

export type SurveyRepository = ReturnType<typeof createSurveyRepository>;
