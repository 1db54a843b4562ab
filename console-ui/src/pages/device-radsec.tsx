/** A device's RadSec certificates: state and expiry, issue (key shown once), revoke, and the steps per gateway family. */
import { useState } from "preact/hooks";
import { get, post } from "../api";
import type { Settings } from "../state";
import { Notice, Table, useLoad } from "../ui";
import type { Certificate, Issued } from "../types";

/** Where each family enters RadSec, as its own screens name it (docs/radius.md has the sources). */
export function radsecSteps(family: string, host: string, port: number): string[] {
  const server = `Server ${host}, port ${port} (TCP, TLS). Shared secret: radsec (RFC 6614).`;
  const upload = "Install the three files below: the device certificate with its private key (or the PKCS#12 file), and the CA certificate as the trusted server CA.";
  switch (family) {
    case "meraki":
      return [
        "Meraki presents its own device certificates: the service operator adds Meraki's RadSec device CA (Organization > Certificates) to RADSEC_CLIENT_CA_FILE.",
        "Organization > Certificates: upload this service's CA certificate (below) as a RadSec AAA server trusted CA.",
        `Wireless > Access control: RADIUS servers: ${host}, port ${port}, and tick RadSec.`,
      ];
    case "aruba":
      return [
        upload,
        `Configuration > Security > Authentication servers: a RADIUS server ${host} with RadSec enabled, port ${port}, and the certificates chosen under RadSec trusted CA / client certificate.`,
        "Shared secret: radsec.",
      ];
    case "ruckus":
      return [
        upload,
        `RUCKUS One: Network Control > Policies & Profiles > RADIUS Server: ${host}, port ${port}, with TLS encryption (RadSec) enabled and the certificates above; the network's authentication in proxy mode.`,
        "Shared secret: radsec.",
      ];
    case "mikrotik":
      return [
        "System > Certificates: import the PKCS#12 file (with its password) and the CA certificate.",
        `RADIUS > New: Address ${host}, Protocol radsec, Certificate: the imported one, Secret: radsec (RouterOS 7).`,
      ];
    default:
      return [upload, server, "If the gateway cannot speak RadSec, run radsecproxy on a box at the venue: it takes UDP RADIUS and relays it over TLS."];
  }
}

/** An object URL of a text to download (the key never leaves the page otherwise). */
function download(text: string, type = "application/x-pem-file"): string {
  return URL.createObjectURL(new Blob([text], { type }));
}

export function RadsecSection(props: { device: { id: number }; family: string; settings: Settings; readonly: boolean }) {
  const { device, settings, readonly } = props;
  const list = useLoad(() => get<{ data: Certificate[] }>("/api/device-certificate-list", { device_id: device.id }), [device.id]);
  const [issued, setIssued] = useState<Issued | undefined>();
  const [error, setError] = useState<string | undefined>();
  const host = new URL(settings.public_url).hostname;
  const port = settings.radsec?.port ?? 2083;
  return (
    <section aria-labelledby="radsec-h">
      <h2 id="radsec-h">RadSec (RADIUS over TLS)</h2>
      {!settings.radsec?.enabled && <Notice kind="info">RadSec is off on this service (RADSEC_ENABLED). Certificates can be issued ahead.</Notice>}
      {error && <Notice kind="error">{error}</Notice>}
      {!list.data ? (
        <p class="muted">Loading certificates…</p>
      ) : (
        <Table
          caption="Certificates"
          head={["Serial", "State", "Valid until", "Issued", "Revoked"]}
          empty="No certificate yet."
          rows={list.data.data.map((c) => [
            <code key="s">{c.serial.slice(0, 16)}…</code>,
            <span key="st" class={`status status-${c.state}`}>
              {c.state}
            </span>,
            c.not_after,
            c.issued_at,
            c.revoked_at ?? "—",
          ])}
        />
      )}
      {!readonly && (
        <p>
          <button
            type="button"
            onClick={async () => {
              setError(undefined);
              try {
                setIssued((await post<{ data: Issued }>("/api/issue-device-certificate", { device_id: device.id })).data);
                list.reload();
              } catch (e) {
                setError((e as Error).message);
              }
            }}
          >
            Issue certificate
          </button>{" "}
          <button
            type="button"
            disabled={!list.data?.data.some((c) => c.state === "valid")}
            onClick={async () => {
              if (!window.confirm("Revoke this device's certificates? Its RadSec connections close and it cannot connect again until it has a new one.")) return;
              await post("/api/revoke-device-certificate", { device_id: device.id });
              setIssued(undefined);
              list.reload();
            }}
          >
            Revoke certificates
          </button>
        </p>
      )}
      {issued && (
        <Notice kind="warn">
          <p>
            Certificate {issued.serial.slice(0, 16)}… issued, valid until {issued.not_after}. Download the private key now: it is not kept and cannot be
            shown again.
          </p>
          <ul>
            <li>
              <a href={download(issued.certificate)} download={`device-${device.id}.crt.pem`}>
                Device certificate (PEM)
              </a>
            </li>
            <li>
              <a href={download(issued.private_key)} download={`device-${device.id}.key.pem`}>
                Private key (PEM)
              </a>
            </li>
            <li>
              <a href={download(issued.ca_certificate)} download="radsec-ca.pem">
                CA certificate (PEM)
              </a>
            </li>
            <li>
              <a
                href={URL.createObjectURL(new Blob([Uint8Array.from(atob(issued.pkcs12), (ch) => ch.charCodeAt(0))], { type: "application/x-pkcs12" }))}
                download={`device-${device.id}.p12`}
              >
                PKCS#12 bundle
              </a>{" "}
              — password <code class="secret">{issued.pkcs12_password}</code>
            </li>
          </ul>
        </Notice>
      )}
      <h3>Steps on the gateway</h3>
      <ol>
        {radsecSteps(props.family, host, port).map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ol>
    </section>
  );
}
