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

export const PASSWORD_MIN = 5;

export const CreateSubUserParams = Type.Object({
  identifier: F.identifier(),
  first_name: F.text(100, "First name (no control characters).", { format: "name" }),
  last_name: F.text(100, "Last name (no control characters).", { format: "name" }),
  // Both optional here: one of the two is required, which the service checks.
  email_address: Type.Optional(F.text(254, "E-mail address, unique across the service.", { format: "email" })),
  email: Type.Optional(F.text(254, "Alias of email_address.", { format: "email" })),
  password: F.text(200, `Password, at least ${PASSWORD_MIN} characters; stored only as a salted scrypt hash.`, {
    minLength: PASSWORD_MIN,
  }),
  quickreport: YesNo("Send the quick report (1/true) or not (0/false)."),
  readonly: YesNo("Read-only sub-user (1/true): may call reading endpoints only."),
  quickreport_location_id: F.id("A location of the account that the quick report covers."),
  phone_number: Type.Optional(F.text(32, "Phone number, +CC(YYY)ZZZ-XXXX or international as written (+44 117 496 0123).", { format: "phone-intl" })),
  mobile_phone: Type.Optional(F.text(32, "Alias of phone_number.", { format: "phone-intl" })),
});

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
  date_created: Type.String(),
  last_modified: Type.String(),
});

export const SubUserListParams = Type.Object({ identifier: F.identifier() });

export const SubUsersResponse = Type.Object({ status: Success, data: Type.Array(SubUserRecord) });
