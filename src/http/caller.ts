/**
 * Who is calling the API: the identifier of a request (query, body, `identifier` header or
 * `Authorization: Bearer`) turned into a Caller. How an identifier is looked up is given by the app
 * (the accounts module); this layer only reads it from the request and keeps recent answers.
 */
import type { FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import { httpErrors } from "../errors.js";

export interface Caller {
  accountId: number;
  /** The sub-user behind the identifier, or null for the account's own identifier. */
  subUserId: number | null;
  readonly: boolean;
  /**
   * A sub-user's scope: the only locations it may see and change (and what hangs off them), or null
   * for every location of the account (owners always).
   */
  locationScope: number[] | null;
}

/** Whether the caller may see and change this location (its account's own is checked elsewhere). */
export function inScope(caller: Caller, locationId: number): boolean {
  return caller.locationScope === null || caller.locationScope.includes(locationId);
}

/** The caller behind a (trimmed, non-empty) identifier, or undefined when it is unknown, revoked or orphaned. */
export type CallerLookup = (identifier: string) => Promise<Caller | undefined>;

/** The identifier from the body, the query, the `identifier` header, or `Authorization: Bearer`. */
export function identifierOf(req: FastifyRequest): string | undefined {
  const q = req.query as Record<string, unknown> | undefined;
  const b = req.body as Record<string, unknown> | undefined;
  const fromBody = b && typeof b === "object" ? b.identifier : undefined;
  if (typeof fromBody === "string" && fromBody !== "") return fromBody;
  if (q && typeof q.identifier === "string" && q.identifier !== "") return q.identifier;
  const h = req.headers.identifier;
  if (typeof h === "string" && h !== "") return h;
  const auth = req.headers.authorization;
  if (typeof auth === "string") {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1];
  }
  return undefined;
}

export interface CallerResolverOptions {
  /**
   * How long a resolved identifier is trusted without asking again, when the database cannot say
   * whether identifiers changed (revocation waits at most this).
   */
  ttlMs?: number;
  maxEntries?: number;
  /**
   * A token that changes when identifiers or sub-users may have changed, on any instance (the
   * catalogue's change generation, src/db/database.ts); undefined when unknown. A change empties
   * the cache, so a revoked identifier, a disabled or deleted sub-user and a new scope take effect
   * at the next call.
   */
  generation?: () => string | undefined;
}

/**
 * Resolves identifiers, keeping hits briefly in memory: every API call authenticates, and identifiers
 * are never edited in place. Unknown identifiers are not kept (the rate limit bounds how often one
 * client may try them). One per app.
 */
export class CallerResolver {
  /** Each resolved caller with the catalogue generation it was read at. */
  private readonly cache: LRUCache<string, { caller: Caller; generation: string | undefined }>;
  private readonly generation: () => string | undefined;

  constructor(
    private readonly lookup: CallerLookup,
    opts: CallerResolverOptions = {},
  ) {
    this.cache = new LRUCache({ max: opts.maxEntries ?? 10_000, ttl: opts.ttlMs ?? 10_000 });
    this.generation = opts.generation ?? (() => undefined);
  }

  /**
   * The caller of an identifier resolved lately, without asking the database, possibly from before
   * the last change of the catalogue: good for choosing whose count a call is (the rate limit),
   * never for deciding what it may do (resolve does that).
   */
  cached(identifier: string | undefined): Caller | undefined {
    return identifier === undefined ? undefined : this.cache.get(identifier.trim())?.caller;
  }

  /** Drops the cached identifiers of an account's owner (its identifier was rotated). */
  forgetOwner(accountId: number): void {
    for (const [key, held] of this.cache.entries()) {
      if (held.caller.accountId === accountId && held.caller.subUserId === null) this.cache.delete(key);
    }
  }

  async resolve(identifier: string | undefined): Promise<Caller> {
    if (identifier === undefined || identifier.trim() === "") throw httpErrors.identifierRequired();
    if (identifier.length > 255) throw httpErrors.identifierInvalid();
    // Keyed by the identifier itself: hashing on every call cost more than the rest of a cached look-up.
    const key = identifier.trim();
    // A hit counts while the catalogue has not changed since it was read; when the generation is
    // unknown (PostgreSQL while its change watch reconnects) the TTL bounds it.
    const generation = this.generation();
    const hit = this.cache.get(key);
    if (hit && (generation === undefined || hit.generation === generation)) return hit.caller;
    const caller = await this.lookup(key);
    if (!caller) {
      this.cache.delete(key);
      throw httpErrors.identifierInvalid();
    }
    this.cache.set(key, { caller, generation });
    return caller;
  }
}
