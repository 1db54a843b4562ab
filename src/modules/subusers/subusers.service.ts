/** Sub-users: people who act inside a parent account with an identifier of their own. */
import type { Static } from "@sinclair/typebox";
import type { DB } from "../../db/database.js";
import { nowDatetime } from "../../db/time.js";
import { type ErrorBag, msg, validationError } from "../../errors.js";
import { accountRepository } from "../accounts/accounts.repository.js";
import { hashIdentifier, newIdentifier } from "../accounts/identifier.js";
import { locationRepository } from "../locations/locations.repository.js";
import { hashPassword } from "./password.js";
import type { CreateSubUserParams, SubUserRecord } from "./subusers.schemas.js";
import { type SubUserRow, subUserRepository } from "./subusers.repository.js";

type CreateSubUser = Static<typeof CreateSubUserParams>;

const yes = (v: string) => (v === "1" || v === "true" ? 1 : 0);

export function toSubUserRecord(row: SubUserRow): Static<typeof SubUserRecord> {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone_number: row.phone_number ?? "",
    quickreport: row.quickreport,
    readonly: row.readonly,
    quickreport_location_id: row.quickreport_location_id,
    date_created: row.date_created,
    last_modified: row.last_modified,
  };
}

/**
 * The parameter under which a value arrived: the specification's name, or the alias the published
 * client sends (email, mobile_phone). Errors are reported under the name the client used.
 */
function pick(p: CreateSubUser, name: "email_address" | "phone_number", alias: "email" | "mobile_phone") {
  if (p[name] !== undefined) return { param: name, value: p[name] };
  if (p[alias] !== undefined) return { param: alias, value: p[alias] };
  return { param: name, value: undefined };
}

/** Creates the sub-user and its own identifier, which is returned here and never again. */
export async function createSubUser(
  db: DB,
  accountId: number,
  p: CreateSubUser,
  bag: ErrorBag,
): Promise<{ subUserId: number; identifier: string }> {
  const email = pick(p, "email_address", "email");
  const phone = pick(p, "phone_number", "mobile_phone");
  // Lower case: one mailbox, one sub-user, whatever case it is typed in.
  const address = bag.has(email.param) ? undefined : email.value?.trim().toLowerCase();
  if (email.value === undefined) {
    if (!bag.has("email_address") && !bag.has("email")) bag.add("email_address", msg.required("email_address"));
  } else if (address && (await subUserRepository.findByEmail(db, address))) {
    bag.add(email.param, msg.taken(email.param));
  }
  if (!bag.has("quickreport_location_id") && p.quickreport_location_id !== undefined) {
    const live = await locationRepository.findLiveIds(db, accountId, [p.quickreport_location_id]);
    if (live.length === 0) bag.add("quickreport_location_id", msg.invalid("quickreport_location_id"));
  }
  bag.throwIfAny();

  const passwordHash = await hashPassword(p.password);
  const identifier = newIdentifier();
  const now = nowDatetime();
  try {
    const subUserId = await db.transaction().execute(async (trx) => {
      const id = await subUserRepository.insert(trx, {
        account_id: accountId,
        first_name: p.first_name.trim(),
        last_name: p.last_name.trim(),
        email: address!,
        phone_number: phone.value ?? null,
        password_hash: passwordHash,
        quickreport: yes(p.quickreport),
        readonly: yes(p.readonly),
        quickreport_location_id: p.quickreport_location_id,
        date_created: now,
        last_modified: now,
      });
      await accountRepository.insertIdentifier(trx, accountId, id, hashIdentifier(identifier), now);
      return id;
    });
    return { subUserId, identifier };
  } catch (err) {
    // Two creates of one address at once: the unique index lets one through; the other hears "taken".
    if (await subUserRepository.findByEmail(db, address!)) throw validationError(email.param, msg.taken(email.param));
    throw err;
  }
}
