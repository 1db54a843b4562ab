/** The console's page: sign-in, then the layout with its navigation and one page per object. */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ApiError, get, post, setCsrfToken } from "./api";
import { AccessPage } from "./pages/access";
import { AuditPage } from "./pages/audit";
import { AutomationsPage } from "./pages/automations";
import { CampaignsPage } from "./pages/campaigns";
import { ControllersPage } from "./pages/controllers";
import { DevicesPage } from "./pages/devices";
import { GuestsPage } from "./pages/guests";
import { LocationsPage } from "./pages/locations";
import { MessagesPage } from "./pages/messages";
import { OverviewPage } from "./pages/overview";
import { SessionsPage } from "./pages/sessions";
import { SubUsersPage } from "./pages/subusers";
import { SurveysPage } from "./pages/surveys";
import { VouchersPage } from "./pages/vouchers";
import { WebhooksPage } from "./pages/webhooks";
import { type Session, navigate } from "./state";
import { Form, Link, Notice } from "./ui";

const PAGES = [
  { path: "/console", title: "Overview", page: OverviewPage },
  { path: "/console/sessions", title: "Live sessions", page: SessionsPage },
  { path: "/console/locations", title: "Locations", page: LocationsPage },
  { path: "/console/campaigns", title: "Campaigns", page: CampaignsPage },
  { path: "/console/devices", title: "Devices", page: DevicesPage },
  { path: "/console/guests", title: "Guests", page: GuestsPage },
  { path: "/console/vouchers", title: "Vouchers", page: VouchersPage },
  { path: "/console/controllers", title: "Controllers", page: ControllersPage },
  { path: "/console/automations", title: "Automations", page: AutomationsPage },
  { path: "/console/messages", title: "Messages", page: MessagesPage },
  { path: "/console/surveys", title: "Surveys", page: SurveysPage },
  { path: "/console/webhooks", title: "Webhooks", page: WebhooksPage },
  { path: "/console/sub-users", title: "Sub-users", page: SubUsersPage },
  { path: "/console/audit-log", title: "Audit log", page: AuditPage },
  { path: "/console/api-access", title: "API access", page: AccessPage },
] as const;

function pageOf(path: string) {
  const clean = path.replace(/\/+$/, "") || "/console";
  return [...PAGES].reverse().find((p) => clean === p.path || clean.startsWith(`${p.path}/`)) ?? PAGES[0];
}

function SignIn(props: { onSignedIn: (s: Session) => void }) {
  return (
    <main class="sign-in" id="main">
      <h1>Guest WiFi console</h1>
      <p class="muted">Sign in with your e-mail address and password.</p>
      <Form
        submitLabel="Sign in"
        fields={[
          { name: "email", label: "E-mail address", type: "email", required: true, autocomplete: "username" },
          { name: "password", label: "Password", type: "password", required: true, autocomplete: "current-password" },
        ]}
        submit={async (v) => {
          await post("/console/api/sign-in", { email: String(v.email ?? ""), password: String(v.password ?? "") });
          const me = await get<Session>("/console/api/me");
          setCsrfToken(me.user.csrf_token);
          props.onSignedIn(me);
          return undefined;
        }}
      />
    </main>
  );
}

function Layout(props: { session: Session; path: string; onSignOut: () => void }) {
  const current = pageOf(props.path);
  const Page = current.page;
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    document.title = `${current.title} · Guest WiFi console`;
  }, [current.title]);
  // Following any link closes the phone layout's menu (the current page's link too).
  useEffect(() => {
    const close = () => setMenuOpen(false);
    window.addEventListener("console:navigate", close);
    return () => window.removeEventListener("console:navigate", close);
  }, []);
  const { user } = props.session;
  return (
    <div class="layout">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Guest WiFi</span>
        <button type="button" class="menu-toggle" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <span class="who">
          {user.email}
          {user.readonly ? " (read-only)" : user.role === "sub-user" ? " (sub-user)" : ""}
        </span>
        <button
          type="button"
          onClick={async () => {
            await post("/console/api/sign-out").catch(() => undefined);
            props.onSignOut();
          }}
        >
          Sign out
        </button>
      </header>
      <nav id="nav" aria-label="Console" class={menuOpen ? "open" : undefined}>
        <ul>
          {PAGES.map((p) => (
            <li key={p.path}>
              <Link href={p.path} current={p === current}>
                {p.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {props.session.settings.public_url_warning && <Notice kind="warn">{props.session.settings.public_url_warning}</Notice>}
        <Page session={props.session} path={props.path} />
      </main>
    </div>
  );
}

function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [path, setPath] = useState(location.pathname + location.search);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    get<Session>("/console/api/me").then(
      (me) => {
        setCsrfToken(me.user.csrf_token);
        setSession(me);
      },
      (err) => {
        if (err instanceof ApiError && err.status === 401) setSession(null);
        else setError(err instanceof Error ? err.message : String(err));
      },
    );
    const onNav = () => setPath(location.pathname + location.search);
    const onOut = () => setSession(null);
    window.addEventListener("popstate", onNav);
    window.addEventListener("console:navigate", onNav);
    window.addEventListener("console:signed-out", onOut);
    return () => {
      window.removeEventListener("popstate", onNav);
      window.removeEventListener("console:navigate", onNav);
      window.removeEventListener("console:signed-out", onOut);
    };
  }, []);
  if (error) return <Notice kind="error">{error}</Notice>;
  if (session === undefined) return <p class="muted">Loading…</p>;
  if (session === null) return <SignIn onSignedIn={(s) => setSession(s)} />;
  return (
    <Layout
      session={session}
      path={path}
      onSignOut={() => {
        setSession(null);
        navigate("/console");
      }}
    />
  );
}

render(<App />, document.getElementById("app")!);
