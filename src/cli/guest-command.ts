/**
 * `guestwifi guest export --id N` prints everything held about a guest as JSON (what
 * export-social-user answers); `guestwifi guest erase --id N --yes` erases the guest as
 * erase-social-user does (and queues guest.erased). For the operator of the service: any account.
 */
import { transaction } from "../db/transaction.js";
import { createRadiusRepository } from "../radius/radius.repository.js";
import { eraseGuest, exportGuest } from "../modules/guests/guest-rights.service.js";
import type { GuestRow } from "../modules/guests/guests.repository.js";
import { recordCliAudit } from "../modules/audit/audit.service.js";
import type { Ctx } from "../modules/context.js";
import { type Command, type CommandSpec, type Flags, UsageError, commandHelp } from "./command-line.js";
import { withDb } from "./with-db.js";

const exportSpec: CommandSpec = {
  name: "guest export",
  summary: "print everything held about a guest as JSON (right of access)",
  description: "Prints the guest's record, logins, MACs, visits, sessions, usage, credentials, codes and grants as JSON\n(the answer of GET /api/export-social-user).",
  options: { id: { value: "N", required: true, help: "the guest's social_user_id" } },
};

const eraseSpec: CommandSpec = {
  name: "guest erase",
  summary: "erase a guest's personal data everywhere (right to erasure)",
  description:
    "Erases the guest as POST /api/erase-social-user does: personal data deleted, counts kept anonymously\n" +
    "(analytics totals do not change), guest.erased queued for the account's webhooks. Cannot be undone:\n" +
    "--yes is required.",
  options: {
    id: { value: "N", required: true, help: "the guest's social_user_id" },
    yes: { help: "confirm the erasure" },
  },
};

function guestId(spec: CommandSpec, flags: Flags): number {
  const raw = flags.id;
  const id = typeof raw === "string" && /^\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw new UsageError("--id must be a guest id (a whole number from 1)", commandHelp(spec), spec.name);
  return id;
}

async function findGuest(ctx: Ctx, id: number): Promise<GuestRow> {
  const g = await ctx.db.selectFrom("guests").selectAll().where("id", "=", id).executeTakeFirst();
  if (!g) throw new Error(`there is no guest with id ${id}`);
  return g;
}

export const guestExportCommand: Command = {
  spec: exportSpec,
  async run(flags) {
    const id = guestId(exportSpec, flags);
    const data = await withDb(async (ctx) => exportGuest(ctx, await findGuest(ctx, id)));
    process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
  },
};

export const guestEraseCommand: Command = {
  spec: eraseSpec,
  async run(flags) {
    const id = guestId(eraseSpec, flags);
    if (flags.yes !== true) throw new UsageError("erasing cannot be undone: add --yes to confirm", commandHelp(eraseSpec), eraseSpec.name);
    const erased = await withDb((ctx) =>
      transaction(ctx.db, async (trx) => {
        const tctx = { ...ctx, db: trx };
        const [g] = await ctx.repos.guests.findOwnedForUpdate(trx, (await findGuest(tctx, id)).account_id, [id]);
        if (!g) throw new Error(`there is no guest with id ${id}`);
        const done = await eraseGuest({ ...tctx, radius: createRadiusRepository() }, g);
        if (done) await recordCliAudit(tctx, g.account_id, "guest erase", { user_id: [id] }, {});
        return done;
      }),
    );
    process.stdout.write(erased ? `guest ${id} erased\n` : `guest ${id} is the anonymous remainder of an erased guest: nothing to erase\n`);
  },
};
