// Opens many RadSec connections that then stay silent (a child process, so that the server's
// memory is measured alone). The first full handshake gives a session that the others resume:
// thousands of RSA handshakes would measure the CPU, not the listener's memory.
// argv: port certFile keyFile caFile count. Prints "open <n>" when done, then waits for stdin to end.
import { readFileSync } from "node:fs";
import { connect } from "node:tls";

const [port, certFile, keyFile, caFile, countText] = process.argv.slice(2);
const cert = readFileSync(certFile, "utf8");
const key = readFileSync(keyFile, "utf8");
const ca = readFileSync(caFile, "utf8");
const count = Number(countText);
const sockets = [];
let session;

function open() {
  return new Promise((resolve) => {
    const s = connect({ host: "127.0.0.1", port: Number(port), cert, key, ca: [ca], servername: "localhost", session });
    s.on("session", (x) => {
      session ??= x;
    });
    s.once("secureConnect", () => resolve(true));
    s.once("error", () => resolve(false));
    s.on("error", () => {});
    sockets.push(s);
  });
}

let open_ = 0;
await open(); // the full handshake, whose session the rest resume
await new Promise((r) => setTimeout(r, 50));
open_ = 1;
const BATCH = 200;
for (let i = 1; i < count; i += BATCH) {
  const results = await Promise.all(Array.from({ length: Math.min(BATCH, count - i) }, open));
  open_ += results.filter(Boolean).length;
}
process.stdout.write(`open ${open_}\n`);
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
