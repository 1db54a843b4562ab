/**
 * The console's page: sign-in, then the layout with its navigation and one page per object. Routing
 * is preact-iso's: links under /console, back and forward are the router's, and each page gets the
 * record id of its address (/console/locations/12) as `id`.
 */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { LocationProvider, Route, Router, useLocation } from "preact-iso/router";
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
import { PasspointPage } from "./pages/passpoint";
import { SessionsPage } from "./pages/sessions";
import { SubUsersPage } from "./pages/subusers";
import { SurveysPage } from "./pages/surveys";
import { VouchersPage } from "./pages/vouchers";
import { WebhooksPage } from "./pages/webhooks";
import { type Session, navigate, useNavigate } from "./state";
import { Form, Link, Notice } from "./ui";

/** The pages in the navigation's order; `records`: the page shows one record at /path/<id> (or /path/new). */
const PAGES = [
  { path: "/console", title: "Overview", page: OverviewPage, records: false },
  { path: "/console/sessions", title: "Live sessions", page: SessionsPage, records: false },
  { path: "/console/locations", title: "Locations", page: LocationsPage, records: true },
  { path: "/console/campaigns", title: "Campaigns", page: CampaignsPage, records: true },
  { path: "/console/devices", title: "Devices", page: DevicesPage, records: true },
  { path: "/console/guests", title: "Guests", page: GuestsPage, records: true },
  { path: "/console/vouchers", title: "Vouchers", page: VouchersPage, records: true },
  { path: "/console/controllers", title: "Controllers", page: ControllersPage, records: true },
  { path: "/console/passpoint", title: "Passpoint", page: PasspointPage, records: false },
  { path: "/console/automations", title: "Automations", page: AutomationsPage, records: true },
  { path: "/console/messages", title: "Messages", page: MessagesPage, records: false },
  { path: "/console/surveys", title: "Surveys", page: SurveysPage, records: false },
  { path: "/console/webhooks", title: "Webhooks", page: WebhooksPage, records: true },
  { path: "/console/sub-users", title: "Sub-users", page: SubUsersPage, records: false },
  { path: "/console/audit-log", title: "Audit log", page: AuditPage, records: false },
  { path: "/console/api-access", title: "API access", page: AccessPage, records: false },
] as const;

/** The navigation entry an address belongs to (for its title and the current link). */
function pageOf(path: string) {
  return [...PAGES].reverse().find((p) => path === p.path || path.startsWith(`${p.path}/`)) ?? PAGES[0];
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

function Layout(props: { session: Session; onSignOut: () => void }) {
  useNavigate();
  const { url, path } = useLocation();
  const current = pageOf(path);
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    document.title = `${current.title} · Guest WiFi console`;
  }, [current.title]);
  // Going anywhere closes the phone layout's menu (following the current page's link too: onClick below).
  useEffect(() => setMenuOpen(false), [url]);
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
              <Link href={p.path} current={p === current} onClick={() => setMenuOpen(false)}>
                {p.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {props.session.settings.public_url_warning && <Notice kind="warn">{props.session.settings.public_url_warning}</Notice>}
        <Router>
          {PAGES.map((p) => (
            <Route key={p.path} path={p.records ? `${p.path}/:id?` : p.path} component={p.page} session={props.session} />
          ))}
          {/* An address the console does not know shows the overview, as /console does. */}
          <Route default component={OverviewPage} session={props.session} />
        </Router>
      </main>
    </div>
  );
}

function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
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
    // Any call answered 401 (the session ended elsewhere) shows the sign-in form (api.ts).
    const onOut = () => setSession(null);
    window.addEventListener("console:signed-out", onOut);
    return () => window.removeEventListener("console:signed-out", onOut);
  }, []);
  if (error) return <Notice kind="error">{error}</Notice>;
  if (session === undefined) return <p class="muted">Loading…</p>;
  if (session === null) return <SignIn onSignedIn={(s) => setSession(s)} />;
  return (
    <Layout
      session={session}
      onSignOut={() => {
        setSession(null);
        navigate("/console");
      }}
    />
  );
}

render(
  <LocationProvider scope="/console">
    <App />
  </LocationProvider>,
  document.getElementById("app")!,
);
