import type { Session } from "../state";

export interface PageProps {
  session: Session;
  path: string;
}
