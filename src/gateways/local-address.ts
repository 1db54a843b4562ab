/** Whether an address is a gateway's own LAN address: where captive gateways serve their login pages. */
import { BlockList, isIP } from "node:net";
import { memoize } from "./memo.js";

const LOCAL = new BlockList();
for (const [net, bits] of [
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
] as const) {
  LOCAL.addSubnet(net, bits, "ipv4");
}
LOCAL.addAddress("::1", "ipv6");
LOCAL.addSubnet("fc00::", 7, "ipv6");
LOCAL.addSubnet("fe80::", 10, "ipv6");

/**
 * Private, carrier-grade NAT, loopback or link-local: where a captive gateway's own web server lives.
 * Memoized: BlockList.check builds an address object per call; gateways repeat a few LAN addresses.
 */
export const isLocalAddress: (ip: string) => boolean = memoize(checkLocal);

function checkLocal(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) return LOCAL.check(ip, "ipv4");
  if (v === 6) return LOCAL.check(ip, "ipv6");
  return false;
}

