import type { Session } from "../state";

/** What the router gives each page: the session, and the record id of the address (/console/locations/12), if any. */
export interface PageProps {
  session: Session;
  id?: string;
}
