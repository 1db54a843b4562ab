/**
 * References: how a route says what an id parameter must name, e.g. "a live location of the caller's
 * account" or "up to 10 owned locations, deleted ones included". The modules define the references
 * of their records (locations.refs.ts, ...) with the builders below; the route pipeline
 * (api-route.ts) resolves them after the schema passed and hands the handler the records, not ids.
 * Every id that names nothing the caller may use there fails the same way ("The selected <param>
 * is invalid."), whether it does not exist, is deleted or belongs to another account.
 */
import type { DB } from "../db/database.js";
import type { RowLock } from "../db/transaction.js";
import { msg } from "../errors.js";
import type { Caller } from "./caller.js";
import { type Failures, parseIdList } from "./validation.js";

/** one: the record; optional-one: 0 names no record (null); list: "1,2,3", records in the order given. */
export type RefShape = "one" | "optional-one" | "list";

/** What a reference's look-up gets: the app's dependencies with the database (or the route's transaction). */
export interface RefLookup<D> {
  ctx: D & { db: DB };
  caller: Caller;
  /** Set when the route writes: lock what was found until the transaction ends (see db/transaction.ts). */
  lock: RowLock | undefined;
}

export interface Ref<D, Row, Shape extends RefShape = RefShape> {
  readonly shape: Shape;
  /** list: at most this many ids. */
  readonly max: number;
  /** The lock a writing route takes on the rows: share (it relies on them) or update (it changes them). */
  readonly lock: RowLock;
  /**
   * Resolution order within a route, lowest first, the same in every route, so that two writes
   * never wait for each other's locks in opposite orders.
   */
  readonly rank: number;
  /** Not resolved (the handler gets undefined) when the call gives this other parameter. */
  readonly skipWhenGiven?: string;
  /** The rows among `ids` the caller may name here, in any order; ids it may not name are left out. */
  find(lookup: RefLookup<D>, ids: number[]): Promise<Row[]>;
  idOf(row: Row): number;
}

export interface RefSource<D, Row> {
  rank: number;
  find: Ref<D, Row>["find"];
  idOf: Ref<D, Row>["idOf"];
}

/** The references one kind of record offers, each with a lock for writing routes. */
export function refsOf<D, Row>(source: RefSource<D, Row>) {
  const make = <S extends RefShape>(shape: S, max: number, lock: RowLock) => {
    const ref: Ref<D, Row, S> = { ...source, shape, max, lock };
    return Object.assign(ref, {
      /** The same reference, ignored when the call gives `param` (create-or-update: the template only matters on create). */
      unlessGiven: (param: string): Ref<D, Row, S> => ({ ...ref, skipWhenGiven: param }),
    });
  };
  return {
    one: (lock: RowLock = "share") => make("one", 1, lock),
    /** 0 names no record: the handler gets null. */
    optionalOne: (lock: RowLock = "share") => make("optional-one", 1, lock),
    list: (max: number, lock: RowLock = "share") => make("list", max, lock),
  };
}

/** A map of parameter names to references, as a route declares it. */
export type RefMap<D> = Record<string, Ref<D, any, RefShape>>;

type ValueOf<R> = R extends Ref<any, infer Row, infer S> ? (S extends "list" ? Row[] : S extends "optional-one" ? Row | null : Row) : never;

/** What the handler gets for each reference; undefined when the parameter is optional and was not given. */
export type Resolved<P, R> = {
  [K in keyof R]: ValueOf<R[K]> | (K extends keyof P ? (undefined extends P[K] ? undefined : never) : never);
};

/**
 * Resolves every reference whose parameter passed the schema; failures go to `failures`. `ordered`
 * is the route's references in rank order (the order of locks); failures are reported in the order
 * the route declares them.
 */
export async function resolveRefs<D extends { db: DB }>(
  ordered: [string, Ref<D, unknown>][],
  declared: string[],
  call: { ctx: D; caller: Caller },
  params: Record<string, unknown>,
  given: readonly string[],
  locking: boolean,
  failures: Failures,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const failed = new Map<string, string>();
  for (const [param, ref] of ordered) {
    const value = params[param];
    if (value === undefined || (ref.skipWhenGiven !== undefined && given.includes(ref.skipWhenGiven))) continue;
    let ids: number[];
    if (ref.shape === "list") {
      // An optional list given empty names no record (a required one never gets here empty: the schema refused it).
      if (typeof value === "string" && value.trim() === "") {
        out[param] = [];
        continue;
      }
      const parsed = parseIdList(value as string, param, ref.max);
      if ("sentence" in parsed) {
        failed.set(param, parsed.sentence);
        continue;
      }
      ids = parsed.ids;
    } else {
      if (ref.shape === "optional-one" && value === 0) {
        out[param] = null;
        continue;
      }
      ids = [value as number];
    }
    const rows = await ref.find({ ctx: call.ctx, caller: call.caller, lock: locking ? ref.lock : undefined }, ids);
    const found = inOrder(rows, ids, ref);
    if (found) out[param] = ref.shape === "list" ? found : found[0];
    else failed.set(param, msg.invalid(param));
  }
  if (failed.size > 0) {
    for (const param of declared) {
      const sentence = failed.get(param);
      if (sentence !== undefined) failures.add(param, sentence);
    }
  }
  return out;
}

/** The rows in the order of `ids`, or undefined when any id has none. */
function inOrder<Row>(rows: Row[], ids: number[], ref: Ref<unknown, Row>): Row[] | undefined {
  if (rows.length < ids.length) return undefined;
  if (ids.length === 1) return rows.length === 1 && ref.idOf(rows[0]) === ids[0] ? rows : undefined;
  // Rows read through a cache come in the order asked: no map to build.
  if (rows.length === ids.length && rows.every((row, i) => ref.idOf(row) === ids[i])) return rows;
  const byId = new Map(rows.map((r) => [ref.idOf(r), r]));
  const out: Row[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (row === undefined) return undefined;
    out.push(row);
  }
  return out;
}
