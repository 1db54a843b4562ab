/**
 * Where a webhook may point: http or https, no user name or password in the URL, and the
 * service's outbound address rule (src/outbound-address.ts), private addresses allowed by
 * WEBHOOK_ALLOW_PRIVATE. Checked when the webhook is saved and again at every connection.
 */
import type { Config } from "../../config.js";
import type { OutboundRule } from "../../outbound-address.js";

export function webhookRule(cfg: Pick<Config["webhooks"], "allowPrivate">): OutboundRule {
  return { allowPrivate: cfg.allowPrivate, variable: "WEBHOOK_ALLOW_PRIVATE" };
}
