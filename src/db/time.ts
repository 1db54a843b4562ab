/** Time is UTC inside: datetimes are stored and returned as `YYYY-MM-DD HH:MM:SS`. */
export function toDbDatetime(d: Date): string {
  return d.toISOString().slice(0, 19).replace("T", " ");
}

export function nowDatetime(): string {
  return toDbDatetime(new Date());
}

export function fromDbDatetime(s: string): Date {
  return new Date(`${s.replace(" ", "T")}Z`);
}
