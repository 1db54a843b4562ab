/** Campaigns: the login page's texts, colours, logo and login methods, with a live preview at phone width. */
import { useEffect, useRef, useState } from "preact/hooks";
import { csrf, get, post } from "../api";
import type { Settings } from "../state";
import { navigate } from "../state";
import { ConfirmButton, type Field, Form, Link, Loading, Notice, ReadOnlyNote, Table, type Values, useLoad } from "../ui";
import type { PageProps } from "./page";
import { LANGUAGES } from "../../../src/i18n/languages.js";
import type { Campaign } from "../types";

/** As the API takes it (docs/campaign-payload.md): decoded size and types. */
const LOGO_MAX_BYTES = 200 * 1024;
const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp"];

const METHODS = [
  { key: "clickthrough", label: "Click-through (accept the terms)" },
  { key: "custom", label: "Form (name, e-mail, phone)" },
  { key: "email", label: "E-mail address" },
  { key: "voucher", label: "Voucher code (printed vouchers)" },
  { key: "sms", label: "SMS code", provider: "sms", env: "TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM" },
  { key: "facebook", label: "Facebook", provider: "facebook", env: "FACEBOOK_CLIENT_ID, FACEBOOK_CLIENT_SECRET" },
  { key: "twitter", label: "Twitter / X", provider: "twitter", env: "TWITTER_CLIENT_ID, TWITTER_CLIENT_SECRET" },
  { key: "instagram", label: "Instagram", provider: "instagram", env: "INSTAGRAM_CLIENT_ID, INSTAGRAM_CLIENT_SECRET" },
  { key: "linkedin", label: "LinkedIn", provider: "linkedin", env: "LINKEDIN_CLIENT_ID, LINKEDIN_CLIENT_SECRET" },
] as const;

const TEXT_FIELDS: Field[] = [
  { name: "name", label: "Name", required: true, maxLength: 100, hint: "Any script, spaces and punctuation." },
  { name: "ssid", label: "WiFi network name shown", maxLength: 32 },
  {
    name: "default_language",
    label: "Language of these texts",
    type: "select",
    options: LANGUAGES.map((l) => ({ value: l.tag, label: l.autonym })),
    hint: "Guests whose browser asks for none of the campaign's languages see the page in it.",
  },
  { name: "title_text", label: "Title", maxLength: 255 },
  { name: "footer_text", label: "Footer", type: "textarea", maxLength: 1000 },
  { name: "custom_terms", label: "Terms", type: "textarea", maxLength: 20000, hint: "HTML allowed; sanitised when shown." },
  { name: "button_text", label: "Connect button label", maxLength: 60, hint: "Empty: the built-in label, in the guest's language." },
  { name: "text_color", label: "Text colour", type: "color" },
  { name: "background", label: "Background colour", type: "color" },
  { name: "redirect_url", label: "After login, send guests to", type: "url", hint: "Absolute http(s) URL; empty: where they were going." },
  { name: "terms_required", label: "Guests must tick “I accept the terms” to connect", type: "checkbox" },
  { name: "marketing_opt_in", label: "Offer a marketing opt-in (never ticked in advance)", type: "checkbox" },
  {
    name: "marketing_text",
    label: "Marketing opt-in text",
    type: "textarea",
    maxLength: 1000,
    hint: "What guests agree to when they tick it. Each login records the version of this text they saw.",
  },
  ...METHODS.map((m) => ({ name: `login_${m.key}`, label: m.label, type: "checkbox" as const })),
];

function campaignValues(c: Campaign): Values {
  const v: Values = {
    name: c.name,
    ssid: c.ssid,
    title_text: c.title_text,
    footer_text: c.footer_text,
    custom_terms: c.custom_terms,
    text_color: `#${c.text_color || "222222"}`,
    background: `#${c.background || "ffffff"}`,
    redirect_url: c.redirect_url,
    terms_required: c.terms_required === 1,
    marketing_opt_in: c.marketing_opt_in === 1,
    marketing_text: c.marketing_text ?? "",
    default_language: c.default_language || "en",
    button_text: c.button_text ?? "",
  };
  for (const m of METHODS) v[`login_${m.key}`] = c.login_options[m.key] === true;
  return v;
}

function campaignBody(v: Values) {
  const str = (k: string) => (typeof v[k] === "string" ? (v[k] as string) : "");
  const options: Record<string, boolean> = {};
  for (const m of METHODS) options[m.key] = v[`login_${m.key}`] === true;
  return {
    name: str("name"),
    ssid: str("ssid"),
    title_text: str("title_text"),
    footer_text: str("footer_text"),
    custom_terms: str("custom_terms"),
    text_color: str("text_color").replace(/^#/, ""),
    background: str("background").replace(/^#/, ""),
    redirect_url: str("redirect_url"),
    terms_required: v.terms_required === true ? "1" : "0",
    marketing_opt_in: v.marketing_opt_in === true ? "1" : "0",
    marketing_text: str("marketing_text"),
    default_language: str("default_language") || "en",
    button_text: str("button_text"),
    login_options: options,
  };
}

/** The translated texts, as the API's `translations` takes them: language tag to field to text. */
type Translations = Record<string, Record<string, string>>;

const TRANSLATED: { name: string; label: string; maxLength: number; area?: boolean }[] = [
  { name: "title_text", label: "Title", maxLength: 255 },
  { name: "footer_text", label: "Footer", maxLength: 1000, area: true },
  { name: "custom_terms", label: "Terms (HTML)", maxLength: 20000, area: true },
  { name: "marketing_text", label: "Marketing opt-in text", maxLength: 1000, area: true },
  { name: "button_text", label: "Connect button label", maxLength: 60 },
];

const autonym = (tag: string) => LANGUAGES.find((l) => l.tag === tag)?.autonym ?? tag;

/**
 * The campaign's texts in its other languages, each beside the default language's: add or remove a
 * language, type its texts; a text left empty shows in the default language.
 */
function TranslationsEditor(props: { values: Values; translations: Translations; disabled: boolean; onChange: (t: Translations) => void }) {
  const def = (typeof props.values.default_language === "string" && props.values.default_language) || "en";
  const offered = Object.keys(props.translations).filter((t) => t !== def);
  const addable = LANGUAGES.filter((l) => l.tag !== def && !offered.includes(l.tag));
  const set = (lang: string, field: string, text: string) => props.onChange({ ...props.translations, [lang]: { ...props.translations[lang], [field]: text } });
  return (
    <section aria-labelledby="tr-h" class="translations">
      <h2 id="tr-h">Other languages</h2>
      <p class="muted">Each text beside the {autonym(def)} one; a text left empty shows in {autonym(def)}.</p>
      {offered.map((lang) => (
        <fieldset key={lang} class="translation">
          <legend>{autonym(lang)}</legend>
          {TRANSLATED.map((f) => {
            const id = `tr-${lang}-${f.name}`;
            const original = String(props.values[f.name] ?? "");
            return (
              <div key={f.name} class="side-by-side">
                <div class="original" lang={def}>
                  <span class="muted">
                    {f.label} ({autonym(def)})
                  </span>
                  <p>{original || "—"}</p>
                </div>
                <div class="field">
                  <label for={id}>
                    {f.label} ({autonym(lang)})
                  </label>
                  {f.area ? (
                    <textarea id={id} lang={lang} maxLength={f.maxLength} disabled={props.disabled} value={props.translations[lang]?.[f.name] ?? ""} onInput={(e) => set(lang, f.name, (e.target as HTMLTextAreaElement).value)} />
                  ) : (
                    <input id={id} lang={lang} maxLength={f.maxLength} disabled={props.disabled} value={props.translations[lang]?.[f.name] ?? ""} onInput={(e) => set(lang, f.name, (e.target as HTMLInputElement).value)} />
                  )}
                </div>
              </div>
            );
          })}
          <button
            type="button"
            class="secondary"
            disabled={props.disabled}
            onClick={() => {
              const { [lang]: _gone, ...rest } = props.translations;
              props.onChange(rest);
            }}
          >
            Remove {autonym(lang)}
          </button>
        </fieldset>
      ))}
      {addable.length > 0 && (
        <div class="field">
          <label for="tr-add">Add a language</label>
          <select
            id="tr-add"
            disabled={props.disabled}
            value=""
            onChange={(e) => {
              const lang = (e.target as HTMLSelectElement).value;
              if (lang) props.onChange({ ...props.translations, [lang]: {} });
            }}
          >
            <option value="">Choose…</option>
            {addable.map((l) => (
              <option key={l.tag} value={l.tag}>
                {l.autonym}
              </option>
            ))}
          </select>
        </div>
      )}
    </section>
  );
}

/** The built-in templates by what they offer (their records are named in code: CustomFormLogin). */
const TEMPLATE_NAMES: Record<string, string> = {
  CustomFormLogin: "Form: name and e-mail",
  SocialLogin: "Social networks and e-mail",
  ClickThrough: "Click-through: accept the terms",
};

/** A template's name in words: the built-ins by what they offer, another split at its capitals. */
function templateName(name: string): string {
  return TEMPLATE_NAMES[name] ?? name.replace(/([a-z])([A-Z])/g, "$1 $2");
}

export function CampaignsPage(props: PageProps) {
  const m = /^(new|\d+)$/.exec(props.id ?? "");
  const ro = props.session.user.readonly;
  if (m) return <CampaignDetail id={m[1] === "new" ? null : Number(m[1])} readonly={ro} settings={props.session.settings} />;
  return <CampaignList readonly={ro} />;
}

function CampaignList(props: { readonly: boolean }) {
  const list = useLoad(() => get<{ data: Campaign[] }>("/api/campaign-list"), []);
  const own = (list.data?.data ?? []).filter((c) => c.template !== 1);
  return (
    <>
      <h1>Campaigns</h1>
      <ReadOnlyNote readonly={props.readonly} />
      {!props.readonly && (
        <p>
          <Link href="/console/campaigns/new" class="button primary">
            New campaign
          </Link>
        </p>
      )}
      {!list.data ? (
        <Loading error={list.error} />
      ) : (
        <Table
          caption="Campaigns"
          head={["Name", "Network name", "Login methods", "Changed"]}
          empty="No campaign yet: locations show the built-in page."
          rows={own.map((c) => [
            <Link key="n" href={`/console/campaigns/${c.campaign_id}`}>
              {c.name}
            </Link>,
            c.ssid,
            METHODS.filter((m) => c.login_options[m.key])
              .map((m) => m.label.split(" (")[0])
              .join(", "),
            c.last_modified,
          ])}
        />
      )}
    </>
  );
}

function CampaignDetail(props: { id: number | null; readonly: boolean; settings: Settings }) {
  const { id, readonly, settings } = props;
  const all = useLoad(() => get<{ data: Campaign[] }>("/api/campaign-list"), [id]);
  const campaign = id === null ? undefined : all.data?.data.find((c) => c.campaign_id === id);
  const templates = (all.data?.data ?? []).filter((c) => c.template === 1);
  const [template, setTemplate] = useState<string>("");
  const [draft, setDraft] = useState<Values | undefined>();
  // The logo chosen in this editor: undefined keeps the saved one, "" removes it, else a data URL.
  const [logo, setLogo] = useState<string | undefined>();
  const [translations, setTranslations] = useState<Translations | undefined>();
  const [warnings, setWarnings] = useState<string[]>([]);
  useEffect(() => {
    setLogo(undefined);
    setTranslations(undefined);
  }, [id]);
  if (!all.data) return <Loading error={all.error} />;
  if (id !== null && !campaign) return <Notice kind="error">No such campaign.</Notice>;
  const base = campaign ?? templates.find((t) => String(t.campaign_id) === template) ?? templates[0];
  const initial: Values = base ? { ...campaignValues(base), name: campaign ? base.name : "" } : {};
  const current = draft ?? initial;
  const texts = translations ?? base?.translations ?? {};
  const missing = METHODS.filter((m) => "provider" in m && current[`login_${m.key}`] === true && !settings.providers[m.provider]);
  return (
    <>
      <p>
        <Link href="/console/campaigns">← Campaigns</Link>
      </p>
      <h1>{campaign ? campaign.name : "New campaign"}</h1>
      <ReadOnlyNote readonly={readonly} />
      <div class="split">
        <div>
          {!campaign && (
            <div class="field">
              <label for="template">Start from template</label>
              <select
                id="template"
                value={template || String(templates[0]?.campaign_id ?? "")}
                onChange={(e) => {
                  setTemplate((e.target as HTMLSelectElement).value);
                  setDraft(undefined);
                }}
              >
                {templates.map((t) => (
                  <option key={t.campaign_id} value={String(t.campaign_id)}>
                    {templateName(t.name)}
                  </option>
                ))}
              </select>
            </div>
          )}
          {missing.map((m) => (
            <Notice key={m.key} kind="warn">
              {m.label} is on, but the service has no keys for it ({"env" in m ? m.env : ""}): guests will not be offered it until they are set.
            </Notice>
          ))}
          <Form
            fields={TEXT_FIELDS}
            initial={initial}
            submitLabel={campaign ? "Save campaign" : "Create campaign"}
            disabled={readonly}
            onChange={setDraft}
            childrenAfter="background"
            submit={async (v) => {
              const body = {
                ...campaignBody(v),
                translations: JSON.stringify(texts),
                logo,
                campaign_id: campaign?.campaign_id,
                template_campaign_id: campaign ? undefined : base?.campaign_id,
              };
              const r = await post<{ campaign_id: number; warnings?: string[] }>("/api/create-or-update-campaign", body);
              setLogo(undefined);
              setWarnings(r.warnings ?? []);
              if (!campaign) navigate(`/console/campaigns/${r.campaign_id}`);
              else all.reload();
              return "Saved.";
            }}
          >
            <LogoField saved={campaign?.logo_url ?? ""} value={logo} disabled={readonly} onChange={setLogo} />
          </Form>
          {warnings.map((w) => (
            <Notice key={w} kind="warn">
              {w}
            </Notice>
          ))}
          <TranslationsEditor values={current} translations={texts} disabled={readonly} onChange={setTranslations} />
          {campaign && (
            <section aria-labelledby="del-h">
              <h2 id="del-h">Delete</h2>
              <ConfirmButton
                danger
                label="Delete campaign"
                disabled={readonly}
                question={`Delete ${campaign.name}? Locations showing it go back to the built-in page.`}
                onConfirm={async () => {
                  await post("/api/delete-campaign", { campaign_id: campaign.campaign_id });
                  navigate("/console/campaigns");
                }}
              />
            </section>
          )}
        </div>
        <Preview campaignId={base?.campaign_id} values={current} logo={logo} translations={texts} />
      </div>
    </>
  );
}

/**
 * The logo: a PNG, JPEG or WebP file read into a data URL here (nothing is sent before Save), its
 * size and type checked before it is offered to the API, which checks them again.
 */
function LogoField(props: { saved: string; value: string | undefined; disabled: boolean; onChange: (v: string | undefined) => void }) {
  const [error, setError] = useState<string | undefined>();
  // The saved logo from this host, whatever PUBLIC_URL's host is.
  const savedSrc = props.saved ? new URL(props.saved, location.href).pathname : "";
  const shown = props.value === undefined ? savedSrc : props.value;
  const pick = (e: Event) => {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    setError(undefined);
    if (!file) return;
    if (!LOGO_TYPES.includes(file.type)) {
      setError(`This file is ${file.type || "of an unknown type"}: choose a PNG, JPEG or WebP image.`);
      input.value = "";
      return;
    }
    if (file.size > LOGO_MAX_BYTES) {
      setError(`This image is ${Math.ceil(file.size / 1024)} KB: a logo may be at most ${LOGO_MAX_BYTES / 1024} KB. Make it smaller and choose it again.`);
      input.value = "";
      return;
    }
    const reader = new FileReader();
    reader.onload = () => props.onChange(String(reader.result));
    reader.onerror = () => setError("The file could not be read.");
    reader.readAsDataURL(file);
  };
  const described = ["f-logo-hint", error ? "f-logo-err" : ""].filter(Boolean).join(" ");
  return (
    <div class="field logo-field">
      <label for="f-logo">Logo</label>
      <input
        id="f-logo"
        type="file"
        accept="image/png,image/jpeg,image/webp"
        disabled={props.disabled}
        aria-describedby={described}
        aria-invalid={error ? true : undefined}
        onChange={pick}
      />
      <small id="f-logo-hint" class="hint">
        PNG, JPEG or WebP, at most {LOGO_MAX_BYTES / 1024} KB. Shown above the title; saved with the campaign.
      </small>
      {error && (
        <small id="f-logo-err" class="field-error" role="alert">
          {error}
        </small>
      )}
      {shown ? (
        <div class="logo-current">
          <img src={shown} alt="The campaign's logo" />
          <button
            type="button"
            disabled={props.disabled}
            onClick={() => {
              setError(undefined);
              props.onChange(props.saved ? "" : undefined);
            }}
          >
            Remove logo
          </button>
          {props.value !== undefined && <span class="muted">Not saved yet.</span>}
        </div>
      ) : (
        <p class="muted">{props.value === "" ? "No logo (removed; not saved yet)." : "No logo."}</p>
      )}
    </div>
  );
}

/** The portal's own page with the form's values, posted into a phone-sized frame as the form changes. */
function Preview(props: { campaignId?: number; values: Values; logo?: string; translations: Translations }) {
  const form = useRef<HTMLFormElement>(null);
  const body = campaignBody(props.values);
  const languages = [body.default_language, ...Object.keys(props.translations).filter((t) => t !== body.default_language)];
  const [lang, setLang] = useState(body.default_language);
  const shown = languages.includes(lang) ? lang : body.default_language;
  const translations = JSON.stringify(props.translations);
  useEffect(() => {
    const t = setTimeout(() => form.current?.submit(), 300);
    return () => clearTimeout(t);
  }, [JSON.stringify(body), props.campaignId, props.logo, translations, shown]);
  return (
    <aside class="preview" aria-label="Preview of the login page at phone width">
      <h2>Preview (390 px wide)</h2>
      {languages.length > 1 && (
        <div class="field">
          <label for="preview-lang">Preview in</label>
          <select id="preview-lang" value={shown} onChange={(e) => setLang((e.target as HTMLSelectElement).value)}>
            {languages.map((l) => (
              <option key={l} value={l}>
                {autonym(l)}
              </option>
            ))}
          </select>
        </div>
      )}
      <form ref={form} method="post" action="/console/preview" target="campaign-preview" class="sr-only" aria-hidden="true">
        <input type="hidden" name="csrf_token" value={csrf()} />
        <input type="hidden" name="campaign_id" value={String(props.campaignId ?? "")} />
        <input type="hidden" name="translations" value={translations} />
        <input type="hidden" name="preview_language" value={shown} />
        {(["title_text", "footer_text", "ssid", "custom_terms", "text_color", "background", "terms_required", "marketing_opt_in", "marketing_text", "default_language", "button_text"] as const).map((k) => (
          <input key={k} type="hidden" name={k} value={body[k]} />
        ))}
        {props.logo !== undefined && <input type="hidden" name="logo" value={props.logo} />}
        {Object.entries(body.login_options).map(([k, on]) => (
          <input key={k} type="hidden" name={`login_${k}`} value={on ? "1" : "0"} />
        ))}
      </form>
      <iframe name="campaign-preview" title="Login page preview" class="phone" />
    </aside>
  );
}
