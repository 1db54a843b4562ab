/** API access: the owner's identifier, recovered by rotating it after the password is entered again. */
import { useState } from "preact/hooks";
import { post } from "../api";
import { Form, Notice } from "../ui";
import type { PageProps } from "./page";

export function AccessPage(props: PageProps) {
  const { user, settings } = props.session;
  const [identifier, setIdentifier] = useState<string | undefined>();
  return (
    <>
      <h1>API access</h1>
      <p>
        Scripts and integrations call the management API with an identifier (header <code>identifier</code> or <code>Authorization: Bearer</code>). The
        reference is at{" "}
        <a href="/docs" target="_blank" rel="noreferrer">
          /docs
        </a>
        ; the service's address is <code>{settings.public_url}</code>.
      </p>
      {user.role !== "owner" ? (
        <Notice kind="info">Sub-users get their identifier when the owner creates them; only the owner can issue a new one.</Notice>
      ) : (
        <>
          <p>
            The service keeps only a hash of the identifier, so it cannot show the current one again. Enter your password to get a new identifier: it is shown
            once, and the old one stops working at once.
          </p>
          {identifier && (
            <Notice kind="ok">
              Your new identifier (store it now, it is not shown again): <code class="secret">{identifier}</code>
            </Notice>
          )}
          <Form
            fields={[{ name: "password", label: "Your password", type: "password", required: true, autocomplete: "current-password" }]}
            submitLabel="Issue a new identifier"
            submit={async (v) => {
              const r = await post<{ identifier: string }>("/console/api/rotate-identifier", { password: String(v.password ?? "") });
              setIdentifier(r.identifier);
              return undefined;
            }}
          />
        </>
      )}
    </>
  );
}
