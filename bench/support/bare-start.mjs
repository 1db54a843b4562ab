// The baseline of `npm run bench -- start`: a bare Fastify process with one /healthz route, started
// the way bin/guestwifi.js starts the service (plain node, compiled JavaScript, HOST and PORT from the
// environment), stopping on SIGTERM like it.
import Fastify from "fastify";

const app = Fastify();
app.get("/healthz", async () => ({ status: "ok" }));
await app.listen({ host: process.env.HOST ?? "127.0.0.1", port: Number(process.env.PORT ?? 0) });
process.once("SIGTERM", () => {
  app.close().then(() => process.exit(0));
});
