/**
 * An owner's e-mail is one mailbox whatever its case, as a sub-user's already is: stored trimmed and
 * in lower case, and unique in lower case on both databases (a unique index on lower(email)), so
 * that `Owner@Example.com` and `owner@example.com` can be neither two accounts nor two different
 * sign-ins. Two accounts whose e-mails differ only in case stop the migration, naming them: which
 * one keeps the address is for the operator to decide, not for a migration.
 */
import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  const rows: { id: number; email: string }[] = await db.selectFrom("accounts").select(["id", "email"]).orderBy("id").execute();
  const owners = new Map<string, number[]>();
  for (const r of rows) {
    const key = r.email.trim().toLowerCase();
    owners.set(key, [...(owners.get(key) ?? []), r.id]);
  }
  const clashes = [...owners].filter(([, ids]) => ids.length > 1);
  if (clashes.length > 0) {
    const list = clashes.map(([key, ids]) => `${key} (accounts ${ids.join(", ")})`).join("; ");
    throw new Error(`accounts whose e-mails differ only in case: ${list}. Give all but one another e-mail, then migrate again.`);
  }
  for (const r of rows) {
    const key = r.email.trim().toLowerCase();
    if (key !== r.email) await db.updateTable("accounts").set({ email: key }).where("id", "=", r.id).execute();
  }
  await db.schema.createIndex("accounts_email_lower").on("accounts").unique().expression(sql`lower(email)`).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("accounts_email_lower").execute();
}
