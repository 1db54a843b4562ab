/**
 * A TCP proxy in front of a server that can stop forwarding: connections stay open but nothing
 * passes either way, which is how a database looks when its host hangs or a network path drops
 * packets (the hardest fault to notice: no error, no reset, just silence).
 */
import { type Server, type Socket, connect, createServer } from "node:net";

export interface SilentProxy {
  port: number;
  /** Stop forwarding: bytes in either direction are swallowed. */
  silence(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startProxy(targetPort: number): Promise<SilentProxy> {
  let forwarding = true;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, "127.0.0.1");
    sockets.add(client);
    sockets.add(upstream);
    client.on("data", (d) => {
      if (forwarding) upstream.write(d);
    });
    upstream.on("data", (d) => {
      if (forwarding) client.write(d);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", end);
    upstream.on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    silence() {
      forwarding = false;
    },
    resume() {
      forwarding = true;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
