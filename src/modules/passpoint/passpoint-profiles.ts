/**
 * The files a guest's device installs to join the Passpoint SSID by itself, one per platform
 * (docs/passpoint.md, with the sources):
 *  - Apple: a configuration profile (.mobileconfig): a com.apple.wifi.managed payload with the
 *    Hotspot 2.0 keys (IsHotspot, DomainName, RoamingConsortiumOIs, NAIRealmNames) and its
 *    EAPClientConfiguration, the CA to trust as com.apple.security.root, and for EAP-TLS the
 *    guest's identity as com.apple.security.pkcs12
 *    (https://developer.apple.com/documentation/devicemanagement/wifi).
 *  - Android: application/x-wifi-config, base64 of a MIME multipart/mixed with the PerProviderSubscription
 *    management object (HomeSP, Credential), the CA certificate and for EAP-TLS a PKCS#12
 *    (https://source.android.com/docs/core/connect/wifi-passpoint).
 *  - Windows: a WLAN profile with the Hotspot2 element (DomainName, NAIRealm, RoamingConsortium)
 *    and an EAP-TTLS/PAP configuration (https://learn.microsoft.com/en-us/windows/win32/nativewifi/wlan-profileschema-hotspot2-wlanprofile-element);
 *    Windows keeps no password in a profile: the guest types the one the page shows at the first connection.
 * Pure: the caller issues the credential and says which CA the device must trust.
 */
import { X509Certificate, createHash, randomBytes, randomUUID } from "node:crypto";
import type { PasspointConfigRow } from "./passpoint.repository.js";

export type ProfilePlatform = "apple" | "android" | "windows";

export type ProfileCredential =
  | { kind: "ttls"; username: string; password: string }
  | { kind: "tls"; username: string; pkcs12: string; pkcs12Password: string; fingerprintSha256: string };

export interface ProfileInput {
  config: Pick<PasspointConfigRow, "ssid" | "domain" | "realm" | "roaming_consortium" | "friendly_name">;
  credential: ProfileCredential;
  /** PEM of the CA that issued the EAP server's certificate: the device trusts the server through it. */
  caCertificate: string;
  /** The server's name in its certificate, which the device checks (Apple, Windows). */
  serverName: string;
  /** Identifies the profile (Apple's PayloadIdentifier prefix): a reversed DNS name. */
  identifierBase: string;
}

export interface ProfileFile {
  contentType: string;
  filename: string;
  body: string;
}

function ois(config: ProfileInput["config"]): string[] {
  return config.roaming_consortium === "" ? [] : config.roaming_consortium.split(",");
}

function derOf(pem: string): Buffer {
  return new X509Certificate(pem).raw;
}

function xmlEscape(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);
}

// ---- Apple: an XML property list (https://developer.apple.com/documentation/devicemanagement/toplevel)

type PlistValue = string | number | boolean | Buffer | PlistValue[] | { [key: string]: PlistValue };

function plistValue(v: PlistValue, indent: string): string {
  if (typeof v === "string") return `${indent}<string>${xmlEscape(v)}</string>`;
  if (typeof v === "number") return `${indent}<integer>${Math.trunc(v)}</integer>`;
  if (typeof v === "boolean") return `${indent}<${v}/>`;
  if (Buffer.isBuffer(v)) return `${indent}<data>${v.toString("base64")}</data>`;
  if (Array.isArray(v)) return `${indent}<array>\n${v.map((x) => plistValue(x, `${indent}\t`)).join("\n")}\n${indent}</array>`;
  const entries = Object.entries(v).map(([k, x]) => `${indent}\t<key>${xmlEscape(k)}</key>\n${plistValue(x, `${indent}\t`)}`);
  return `${indent}<dict>\n${entries.join("\n")}\n${indent}</dict>`;
}

export function plistXml(root: PlistValue): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n${plistValue(root, "")}\n</plist>\n`;
}

/** The unsigned .mobileconfig (signProfile signs it when a signing certificate is configured). */
export function appleProfile(p: ProfileInput): ProfileFile {
  const { config, credential } = p;
  const caUuid = randomUUID().toUpperCase();
  const idUuid = randomUUID().toUpperCase();
  const wifiUuid = randomUUID().toUpperCase();
  const eap: Record<string, PlistValue> = {
    TLSTrustedServerNames: [p.serverName],
    OuterIdentity: `anonymous@${config.realm}`,
  };
  const payloads: Record<string, PlistValue>[] = [
    {
      PayloadType: "com.apple.security.root",
      PayloadVersion: 1,
      PayloadIdentifier: `${p.identifierBase}.ca`,
      PayloadUUID: caUuid,
      PayloadDisplayName: "Certificate authority of the Wi-Fi sign-in server",
      PayloadCertificateFileName: "ca.cer",
      PayloadContent: derOf(p.caCertificate),
    },
  ];
  if (credential.kind === "ttls") {
    Object.assign(eap, { AcceptEAPTypes: [21], TTLSInnerAuthentication: "PAP", UserName: credential.username, UserPassword: credential.password });
  } else {
    Object.assign(eap, { AcceptEAPTypes: [13], UserName: credential.username });
    payloads.push({
      PayloadType: "com.apple.security.pkcs12",
      PayloadVersion: 1,
      PayloadIdentifier: `${p.identifierBase}.identity`,
      PayloadUUID: idUuid,
      PayloadDisplayName: "Your Wi-Fi certificate",
      PayloadCertificateFileName: "identity.p12",
      Password: credential.pkcs12Password,
      PayloadContent: Buffer.from(credential.pkcs12, "base64"),
    });
  }
  const wifi: Record<string, PlistValue> = {
    PayloadType: "com.apple.wifi.managed",
    PayloadVersion: 1,
    PayloadIdentifier: `${p.identifierBase}.wifi`,
    PayloadUUID: wifiUuid,
    PayloadDisplayName: config.friendly_name,
    SSID_STR: config.ssid,
    IsHotspot: true,
    DomainName: config.domain,
    DisplayedOperatorName: config.friendly_name,
    ServiceProviderRoamingEnabled: true,
    NAIRealmNames: [config.realm],
    AutoJoin: true,
    EncryptionType: "WPA2",
    PayloadCertificateAnchorUUID: [caUuid],
    EAPClientConfiguration: { ...eap, PayloadCertificateAnchorUUID: [caUuid] },
  };
  if (ois(config).length > 0) wifi.RoamingConsortiumOIs = ois(config);
  if (credential.kind === "tls") wifi.PayloadCertificateUUID = idUuid;
  payloads.push(wifi);
  const root: Record<string, PlistValue> = {
    PayloadType: "Configuration",
    PayloadVersion: 1,
    PayloadIdentifier: p.identifierBase,
    PayloadUUID: randomUUID().toUpperCase(),
    PayloadDisplayName: `${config.friendly_name} Wi-Fi`,
    PayloadDescription: `Joins ${config.ssid} by itself at every venue of ${config.friendly_name}, encrypted.`,
    PayloadRemovalDisallowed: false,
    PayloadContent: payloads,
  };
  return { contentType: "application/x-apple-aspen-config", filename: "passpoint.mobileconfig", body: plistXml(root) };
}

// ---- Android: the PerProviderSubscription MO inside a base64 MIME multipart

type MoNode = [name: string, value: string | MoNode[]];

function moXml(node: MoNode, indent: string): string {
  const [name, value] = node;
  if (typeof value === "string") return `${indent}<Node><NodeName>${xmlEscape(name)}</NodeName><Value>${xmlEscape(value)}</Value></Node>`;
  return `${indent}<Node>\n${indent}  <NodeName>${xmlEscape(name)}</NodeName>\n${value.map((n) => moXml(n, `${indent}  `)).join("\n")}\n${indent}</Node>`;
}

/** The PerProviderSubscription management object (Hotspot 2.0 PPS MO), as Android's installer reads it. */
export function ppsMo(p: ProfileInput): string {
  const { config, credential } = p;
  const homeSp: MoNode[] = [
    ["FriendlyName", config.friendly_name],
    ["FQDN", config.domain],
  ];
  if (ois(config).length > 0) homeSp.push(["RoamingConsortiumOI", ois(config).join(",")]);
  const cred: MoNode[] = [["Realm", config.realm]];
  if (credential.kind === "ttls") {
    cred.push([
      "UsernamePassword",
      [
        ["Username", credential.username],
        ["Password", Buffer.from(credential.password, "utf8").toString("base64")],
        ["EAPMethod", [["EAPType", "21"], ["InnerMethod", "PAP"]]],
      ],
    ]);
  } else {
    cred.push(["DigitalCertificate", [["CertificateType", "x509v3"], ["CertSHA256Fingerprint", credential.fingerprintSha256]]]);
  }
  const tree: MoNode = ["PerProviderSubscription", [["i001", [["HomeSP", homeSp], ["Credential", cred]]]]];
  const body = moXml(tree, "  ").replace(
    "<NodeName>PerProviderSubscription</NodeName>",
    "<NodeName>PerProviderSubscription</NodeName>\n    <RTProperties><Type><DDFName>urn:wfa:mo:hotspot2dot0-perprovidersubscription:1.0</DDFName></Type></RTProperties>",
  );
  return `<MgmtTree xmlns="syncml:dmddf1.2">\n  <VerDTD>1.2</VerDTD>\n${body}\n</MgmtTree>\n`;
}

/** RFC 2045 section 6.8: base64 in lines of at most 76 characters. */
function base64Lines(data: Buffer): string {
  return (data.toString("base64").match(/.{1,76}/g) ?? []).join("\r\n");
}

export function androidProfile(p: ProfileInput): ProfileFile {
  const boundary = `passpoint-${randomBytes(12).toString("hex")}`;
  const parts: [string, Buffer][] = [
    ["application/x-passpoint-profile", Buffer.from(ppsMo(p), "utf8")],
    ["application/x-x509-ca-cert", derOf(p.caCertificate)],
  ];
  if (p.credential.kind === "tls") parts.push(["application/x-pkcs12", Buffer.from(p.credential.pkcs12, "base64")]);
  const mime = [
    `Content-Type: multipart/mixed; boundary=${boundary}`,
    "Content-Transfer-Encoding: base64",
    "",
    ...parts.flatMap(([type, data]) => [`--${boundary}`, `Content-Type: ${type}`, "Content-Transfer-Encoding: base64", "", base64Lines(data)]),
    `--${boundary}--`,
    "",
  ].join("\r\n");
  return { contentType: "application/x-wifi-config", filename: "passpoint.config", body: base64Lines(Buffer.from(mime, "utf8")) };
}

// ---- Windows: a WLAN profile with Hotspot2 and EAP-TTLS/PAP

/** SHA-1 of the CA certificate as Windows writes TrustedRootCAHash: hex octets separated by spaces. */
function windowsCaHash(pem: string): string {
  return (createHash("sha1").update(derOf(pem)).digest("hex").match(/../g) ?? []).join(" ");
}

export function windowsProfile(p: ProfileInput): ProfileFile {
  const { config } = p;
  const oiXml = ois(config).length > 0 ? `\n\t\t<RoamingConsortium>\n${ois(config).map((o) => `\t\t\t<OUI>${o}</OUI>`).join("\n")}\n\t\t</RoamingConsortium>` : "";
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<WLANProfile xmlns="http://www.microsoft.com/networking/WLAN/profile/v1">
\t<name>${xmlEscape(config.friendly_name)}</name>
\t<SSIDConfig>
\t\t<SSID>
\t\t\t<name>${xmlEscape(config.ssid)}</name>
\t\t</SSID>
\t</SSIDConfig>
\t<Hotspot2>
\t\t<DomainName>${xmlEscape(config.domain)}</DomainName>
\t\t<NAIRealm>
\t\t\t<name>${xmlEscape(config.realm)}</name>
\t\t</NAIRealm>${oiXml}
\t</Hotspot2>
\t<connectionType>ESS</connectionType>
\t<connectionMode>auto</connectionMode>
\t<MSM>
\t\t<security>
\t\t\t<authEncryption>
\t\t\t\t<authentication>WPA2</authentication>
\t\t\t\t<encryption>AES</encryption>
\t\t\t\t<useOneX>true</useOneX>
\t\t\t</authEncryption>
\t\t\t<OneX xmlns="http://www.microsoft.com/networking/OneX/v1">
\t\t\t\t<authMode>user</authMode>
\t\t\t\t<EAPConfig>
\t\t\t\t\t<EapHostConfig xmlns="http://www.microsoft.com/provisioning/EapHostConfig">
\t\t\t\t\t\t<EapMethod>
\t\t\t\t\t\t\t<Type xmlns="http://www.microsoft.com/provisioning/EapCommon">21</Type>
\t\t\t\t\t\t\t<VendorId xmlns="http://www.microsoft.com/provisioning/EapCommon">0</VendorId>
\t\t\t\t\t\t\t<VendorType xmlns="http://www.microsoft.com/provisioning/EapCommon">0</VendorType>
\t\t\t\t\t\t\t<AuthorId xmlns="http://www.microsoft.com/provisioning/EapCommon">311</AuthorId>
\t\t\t\t\t\t</EapMethod>
\t\t\t\t\t\t<Config>
\t\t\t\t\t\t\t<EapTtls xmlns="http://www.microsoft.com/provisioning/EapTtlsConnectionPropertiesV1">
\t\t\t\t\t\t\t\t<ServerValidation>
\t\t\t\t\t\t\t\t\t<ServerNames>${xmlEscape(p.serverName)}</ServerNames>
\t\t\t\t\t\t\t\t\t<TrustedRootCAHash>${windowsCaHash(p.caCertificate)}</TrustedRootCAHash>
\t\t\t\t\t\t\t\t\t<DisablePrompt>false</DisablePrompt>
\t\t\t\t\t\t\t\t</ServerValidation>
\t\t\t\t\t\t\t\t<Phase2Authentication>
\t\t\t\t\t\t\t\t\t<PAPAuthentication/>
\t\t\t\t\t\t\t\t</Phase2Authentication>
\t\t\t\t\t\t\t\t<Phase1Identity>
\t\t\t\t\t\t\t\t\t<IdentityPrivacy>true</IdentityPrivacy>
\t\t\t\t\t\t\t\t\t<AnonymousIdentity>anonymous@${xmlEscape(config.realm)}</AnonymousIdentity>
\t\t\t\t\t\t\t\t</Phase1Identity>
\t\t\t\t\t\t\t</EapTtls>
\t\t\t\t\t\t</Config>
\t\t\t\t\t</EapHostConfig>
\t\t\t\t</EAPConfig>
\t\t\t</OneX>
\t\t</security>
\t</MSM>
</WLANProfile>
`;
  return { contentType: "application/xml; charset=utf-8", filename: "passpoint-wlan-profile.xml", body };
}

/** The platform a device's browser runs on, from its User-Agent; undefined: none of the three (a desktop Linux, ...). */
export function platformOf(userAgent: string): ProfilePlatform | undefined {
  if (/iPhone|iPad|iPod|Macintosh|Mac OS X/.test(userAgent) && !/Android/.test(userAgent)) return "apple";
  if (/Android/.test(userAgent)) return "android";
  if (/Windows NT/.test(userAgent)) return "windows";
  return undefined;
}
