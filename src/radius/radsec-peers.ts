/**
 * The RadSec connections open on this instance, made per app (createAppDeps): which certificate
 * each presented, and which access points' requests came over it, so that a CoA or Disconnect for
 * a session goes back over the connection its gateway keeps open (RFC 6614 section 2.5; no UDP
 * through the venue's NAT), and a revoked certificate's connections end at once.
 */
import type { RadsecPeerControl } from "../modules/context.js";

export interface RadsecConnection {
  readonly serial: string;
  readonly remoteAddress: string;
  readonly remotePort: number;
  /** Sends a request of ours (CoA, Disconnect) built with a free Identifier; the answer with that Identifier, or undefined by the deadline. */
  exchange(build: (identifier: number) => Buffer, timeoutMs: number): Promise<Buffer | undefined>;
  close(reason: string): void;
}

export class RadsecPeers implements RadsecPeerControl {
  private readonly bySerial = new Map<string, Set<RadsecConnection>>();
  private readonly byDevice = new Map<number, RadsecConnection>();
  private readonly devicesOf = new Map<RadsecConnection, Set<number>>();
  private readonly revokedListeners = new Set<(serials: string[]) => void>();

  /** Told of certificates revoked on this instance (a listener's cache of valid certificates forgets them); returns the unsubscribe. */
  onRevoked(listener: (serials: string[]) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  add(c: RadsecConnection): void {
    let set = this.bySerial.get(c.serial);
    if (!set) {
      set = new Set();
      this.bySerial.set(c.serial, set);
    }
    set.add(c);
    this.devicesOf.set(c, new Set());
  }

  remove(c: RadsecConnection): void {
    const set = this.bySerial.get(c.serial);
    set?.delete(c);
    if (set?.size === 0) this.bySerial.delete(c.serial);
    for (const id of this.devicesOf.get(c) ?? []) if (this.byDevice.get(id) === c) this.byDevice.delete(id);
    this.devicesOf.delete(c);
  }

  /** A verified request for this access point came over `c`: the latest connection wins. */
  heard(c: RadsecConnection, deviceId: number): void {
    const devices = this.devicesOf.get(c);
    if (!devices) return; // already closed
    if (this.byDevice.get(deviceId) === c) return;
    this.byDevice.set(deviceId, c);
    devices.add(deviceId);
  }

  /** The open connection the access point's requests last came over. */
  connectionFor(deviceId: number): RadsecConnection | undefined {
    return this.byDevice.get(deviceId);
  }

  closeCertificates(serials: string[]): number {
    // First, so that a client reconnecting at once (FreeRADIUS does) is not let in from a cache.
    for (const listener of this.revokedListeners) listener(serials);
    let closed = 0;
    for (const serial of serials) {
      for (const c of [...(this.bySerial.get(serial) ?? [])]) {
        c.close("certificate revoked");
        closed++;
      }
    }
    return closed;
  }

  get size(): number {
    return this.devicesOf.size;
  }
}
