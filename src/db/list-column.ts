/**
 * A short list kept in one text column as ",a,b," ("" for none), so that a row matches an item with
 * `column like '%,item,%'` on either database (webhooks' events and locations, automations' locations).
 */

export function listText(items: readonly (string | number)[]): string {
  return items.length === 0 ? "" : `,${items.join(",")},`;
}

export function listOf(text: string): string[] {
  return text.split(",").filter((s) => s !== "");
}
