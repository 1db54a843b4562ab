/**
 * Consent texts by version: the terms and marketing texts that logins record only as a version (16
 * hex digits of the text's SHA-256), kept with the date a campaign first carried them, so that a
 * guest's record can show the text itself. Filled here from every campaign as it is now (templates
 * included); campaigns saved later add theirs. A version whose text was replaced before this
 * migration ran stays without its text.
 */
import { createHash } from "node:crypto";
import type { Kysely } from "kysely";

const version = (text: string) => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);

interface Texts {
  custom_terms?: string;
  marketing_text?: string;
  consent?: { marketing_text?: string };
  translations?: Record<string, { custom_terms?: string; marketing_text?: string }>;
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("consent_texts")
    .addColumn("version", "varchar(16)", (c) => c.primaryKey())
    // terms or marketing
    .addColumn("kind", "varchar(16)", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("saved_at", "varchar(19)", (c) => c.notNull())
    .execute();
  const campaigns: { payload: string; last_modified: string }[] = await db.selectFrom("campaigns").select(["payload", "last_modified"]).orderBy("id").execute();
  const rows = new Map<string, { version: string; kind: string; text: string; saved_at: string }>();
  const add = (kind: string, text: string | undefined, at: string) => {
    if (!text) return;
    const v = version(text);
    const seen = rows.get(v);
    if (!seen || at < seen.saved_at) rows.set(v, { version: v, kind, text, saved_at: at });
  };
  for (const c of campaigns) {
    let p: Texts;
    try {
      p = JSON.parse(c.payload) as Texts;
    } catch {
      continue;
    }
    add("terms", p.custom_terms, c.last_modified);
    add("marketing", p.consent?.marketing_text, c.last_modified);
    for (const t of Object.values(p.translations ?? {})) {
      add("terms", t.custom_terms, c.last_modified);
      add("marketing", t.marketing_text, c.last_modified);
    }
  }
  const all = [...rows.values()];
  for (let i = 0; i < all.length; i += 200) await db.insertInto("consent_texts").values(all.slice(i, i + 200)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("consent_texts").execute();
}
