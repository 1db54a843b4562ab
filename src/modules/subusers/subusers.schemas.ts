import { Type } from "@sinclair/typebox";
import { F } from "../../http/validation.js";

const Success = Type.Literal("success");

/** 1/0 as the specification has them, and true/false as the published client sends them. */
const YesNo = (description: string) =>
  Type.Union([Type.Literal("0"), Type.Literal("1"), Type.Literal("true"), Type.Literal("false")], {
    description,
    "x-error": "oneOf",
    "x-values": ["0", "1", "true", "false"],
  });

import { PASSWORD_MAX, PASSWORD_MIN } from "../accounts/password.js";

const LOCATION_SCOPE = "The locations the sub-user may see and change, comma-separated ids of live locations; empty or absent for every location of the account. Outside them its calls are refused like another account's.";
const password = (what: string) =>
  F.text(PASSWORD_MAX, `${what}, at least ${PASSWORD_MIN} characters (the rule of owners' passwords too); stored only as a salted scrypt hash.`, {
    minLength: PASSWORD_MIN,
  });

export const CreateSubUserParams = Type.Object({
  identifier: F.identifier(),
  first_name: F.text(100, "First name (no control characters).", { format: "name" }),
  last_name: F.text(100, "Last name (no control characters).", { format: "name" }),
  // Both optional here: one of the two is required, which the service checks.
  email_address: Type.Optional(F.text(254, "E-mail address, unique across the service.", { format: "email" })),
  email: Type.Optional(F.text(254, "Alias of email_address.", { format: "email" })),
  password: password("Password"),
  quickreport: YesNo("Send the quick report (1/true) or not (0/false)."),
  readonly: YesNo("Read-only sub-user (1/true): may call reading endpoints only."),
  quickreport_location_id: F.id("A location of the account that the quick report covers."),
  phone_number: Type.Optional(F.text(32, "Phone number, +CC(YYY)ZZZ-XXXX or international as written (+44 117 496 0123).", { format: "phone-intl" })),
  mobile_phone: Type.Optional(F.text(32, "Alias of phone_number.", { format: "phone-intl" })),
  location_ids: Type.Optional(F.idList(LOCATION_SCOPE)),
});

export const UpdateSubUserParams = Type.Object({
  identifier: F.identifier(),
  sub_user_id: F.id("A sub-user of the calling account."),
  first_name: Type.Optional(F.text(100, "First name (no control characters).", { format: "name" })),
  last_name: Type.Optional(F.text(100, "Last name (no control characters).", { format: "name" })),
  email_address: Type.Optional(F.text(254, "E-mail address, unique across the service.", { format: "email" })),
  email: Type.Optional(F.text(254, "Alias of email_address.", { format: "email" })),
  password: Type.Optional(password("A new password; its console sessions end")),
  quickreport: Type.Optional(YesNo("Send the quick report (1/true) or not (0/false).")),
  readonly: Type.Optional(YesNo("Read-only sub-user (1/true): may call reading endpoints only.")),
  quickreport_location_id: Type.Optional(F.id("A location of the account that the quick report covers.")),
  phone_number: Type.Optional(F.text(32, "Phone number as for create-sub-user; empty removes it.", { format: "phone-intl-or-empty" })),
  mobile_phone: Type.Optional(F.text(32, "Alias of phone_number.", { format: "phone-intl-or-empty" })),
  location_ids: Type.Optional(F.idList(LOCATION_SCOPE)),
});

export const SubUserIdParams = Type.Object({
  identifier: F.identifier(),
  sub_user_id: F.id("A sub-user of the calling account."),
});

export const SubUserWriteResponse = Type.Object({ status: Success, message: Type.String() });

export const CreateSubUserResponse = Type.Object({
  status: Success,
  message: Type.String(),
  sub_user_id: Type.Integer(),
  identifier: Type.String({ description: "The sub-user's own API identifier. Shown once: store it." }),
  device_id: Type.Integer({ description: "The same id as sub_user_id (the specification's documented key)." }),
});

export const SubUserRecord = Type.Object({
  id: Type.Integer(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
  phone_number: Type.String({ description: "Empty when none was given." }),
  quickreport: Type.Integer(),
  readonly: Type.Integer(),
  quickreport_location_id: Type.Integer(),
  disabled: Type.Integer({ description: "1 while the sub-user is disabled (no sign-in, no API call, no quick report)." }),
  location_ids: Type.Array(Type.Integer(), { description: "The locations it may see and change; empty for every location of the account." }),
  date_created: Type.String(),
  last_modified: Type.String(),
});

export const SubUserListParams = Type.Object({ identifier: F.identifier() });

export const SubUsersResponse = Type.Object({ status: Success, data: Type.Array(SubUserRecord) });
