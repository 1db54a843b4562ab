/**
 * One mailbox whatever case it is typed in: owners' and sub-users' e-mails are stored, looked up
 * and counted (sign-in limits) trimmed and in lower case. The databases back it with unique indexes
 * on the lower-cased column (accounts, sub_users).
 */
export function mailbox(email: string): string {
  return email.trim().toLowerCase();
}
