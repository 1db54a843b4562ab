/**
 * A guest's marketing consent withdrawn outside a login: an unsubscribe link or the one-click
 * unsubscribe of an e-mail (RFC 8058), or STOP to a text. Honoured at once, in one transaction:
 * the guest's flag (the one every sender reads, docs/guest-data.md), a record of the change (in the
 * guest's export), guest.consent for the account's webhooks, and the marketing messages not yet
 * sent to the guest withdrawn.
 */
import { inTransaction } from "../../db/transaction.js";
import { toDbDatetime } from "../../db/time.js";
import type { Ctx } from "../context.js";
import { enqueueEvent } from "../webhooks/webhook-events.js";
import type { GuestRow } from "./guests.repository.js";

export type ConsentSource = "unsubscribe-link" | "one-click" | "sms-stop";

/**
 * Withdraws the guest's marketing consent (`messageId`: the message whose link was used). Returns
 * false when the guest had not opted in (nothing is recorded twice; pending messages go all the same).
 */
export async function withdrawMarketingConsent(ctx: Ctx, guest: GuestRow, source: ConsentSource, messageId: number | null, at: Date = new Date()): Promise<boolean> {
  const now = toDbDatetime(at);
  return inTransaction(ctx.db, async (trx) => {
    const changed = await ctx.repos.consent.withdraw(trx, guest.id, now);
    await ctx.repos.outbox.cancelMarketing(trx, guest.id, `consent withdrawn (${source})`, at.getTime());
    if (!changed) return false;
    await ctx.repos.consent.record(trx, { account_id: guest.account_id, guest_id: guest.id, marketing_opt_in: 0, source, message_id: messageId, changed_at: now });
    await enqueueEvent(trx, guest.account_id, "guest.consent", { guest_id: guest.id, marketing_opt_in: false, source, changed_at: now }, null, at);
    return true;
  });
}

/**
 * STOP (or another opt-out word) from a number: the number is never texted marketing again, and
 * every guest reached at it, in every account, withdraws. Returns how many guests withdrew.
 */
export async function stopTexts(ctx: Ctx, phone: string, at: Date = new Date()): Promise<number> {
  return inTransaction(ctx.db, async (trx) => {
    const tctx = { ...ctx, db: trx };
    await ctx.repos.consent.addSmsOptOut(trx, phone, toDbDatetime(at));
    let n = 0;
    for (const g of await ctx.repos.consent.guestsWithPhone(trx, phone)) if (await withdrawMarketingConsent(tctx, g, "sms-stop", null, at)) n++;
    return n;
  });
}

/** START (or UNSTOP): the number may be texted again; consent is not given back (it takes a new opt-in). */
export async function restartTexts(ctx: Ctx, phone: string): Promise<void> {
  await ctx.repos.consent.removeSmsOptOut(ctx.db, phone);
}
