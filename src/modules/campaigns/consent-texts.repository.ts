/** SQL of the consent texts by version (consent-texts.ts). */
import type { DB } from "../../db/database.js";
import type { ConsentText } from "./consent-texts.js";

export interface StoredConsentText extends ConsentText {
  /** When a campaign first carried the text (UTC, YYYY-MM-DD HH:MM:SS). */
  saved_at: string;
}

export function createConsentTextRepository() {
  return {
    /** Keeps texts not kept yet; a text already there keeps its first date. */
    async keep(db: DB, texts: ConsentText[], now: string): Promise<void> {
      if (texts.length === 0) return;
      await db
        .insertInto("consent_texts")
        .values(texts.map((t) => ({ version: t.version, kind: t.kind, text: t.text, saved_at: now })))
        .onConflict((oc) => oc.column("version").doNothing())
        .execute();
    },

    async find(db: DB, versions: string[]): Promise<StoredConsentText[]> {
      const wanted = [...new Set(versions.filter(Boolean))];
      if (wanted.length === 0) return [];
      return (await db.selectFrom("consent_texts").select(["version", "kind", "text", "saved_at"]).where("version", "in", wanted).execute()) as StoredConsentText[];
    },
  };
}

export type ConsentTextRepository = ReturnType<typeof createConsentTextRepository>;
