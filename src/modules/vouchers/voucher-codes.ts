/**
 * Voucher codes: 10 characters from an alphabet without look-alikes, printed as two groups of five
 * (4K7MP-XRT9C). What a guest types is read leniently: case, spaces and dashes do not matter.
 */
import { randomString } from "../../random-text.js";

/**
 * Upper-case letters and digits that cannot be mistaken for one another when printed or read
 * aloud: no 0/O/Q/D, 1/I/L, 2/Z, 5/S, 8/B, U/V. 21 symbols, 10 of them: about 44 bits per code.
 */
export const VOUCHER_ALPHABET = "ACEFGHJKMNPRTWXY34679";
export const VOUCHER_CODE_LENGTH = 10;

export function newVoucherCode(): string {
  return randomString(VOUCHER_ALPHABET, VOUCHER_CODE_LENGTH);
}

/** The code as printed: 4K7MP-XRT9C. */
export function formatVoucherCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What a guest typed as a stored code, or "" when it cannot be one. */
export function normalizeVoucherCode(typed: string): string {
  const compact = typed.replace(/[\s-]/g, "").toUpperCase();
  if (compact.length !== VOUCHER_CODE_LENGTH) return "";
  for (const ch of compact) if (!VOUCHER_ALPHABET.includes(ch)) return "";
  return compact;
}
