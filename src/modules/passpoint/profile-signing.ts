/**
 * Signing an Apple configuration profile: CMS SignedData with the profile inside (Apple's devices
 * show a signed profile as "Verified" when the signer chains to a trusted root), made by OpenSSL,
 * as Apple's documentation does it (`openssl smime -sign -nodetach -outform der`,
 * https://developer.apple.com/documentation/devicemanagement/signing-a-profile-with-openssl-or-a-signing-certificate - see docs/passpoint.md).
 * OpenSSL signs in native code; node-forge's PKCS#7 would sign in JavaScript, seconds per signature on a busy machine.
 */
import { execFile } from "node:child_process";

export interface SigningFiles {
  certFile: string;
  keyFile: string;
  chainFile: string | undefined;
}

const SIGN_TIMEOUT_MS = 10_000;

/** The DER of the signed profile. Rejects when OpenSSL fails (its message, without the key). */
export function signProfile(profile: string, files: SigningFiles): Promise<Buffer> {
  const args = ["smime", "-sign", "-binary", "-nodetach", "-outform", "der", "-signer", files.certFile, "-inkey", files.keyFile];
  if (files.chainFile) args.push("-certfile", files.chainFile);
  return new Promise((resolve, reject) => {
    const child = execFile("openssl", args, { encoding: "buffer", timeout: SIGN_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`openssl could not sign the profile: ${stderr.toString("utf8").trim().slice(0, 300) || err.message}`));
      else resolve(stdout);
    });
    child.stdin?.end(profile, "utf8");
  });
}
