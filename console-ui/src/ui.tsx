/** Small building blocks every page uses: forms bound to API calls, tables, messages. */
import { type ComponentChildren, Fragment, type JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, type Messages } from "./api";

/** A link inside the console: the router (preact-iso's LocationProvider) follows it without a reload. */
export function Link(props: { href: string; children: ComponentChildren; class?: string; current?: boolean; onClick?: () => void }) {
  return (
    <a href={props.href} class={props.class} onClick={props.onClick} aria-current={props.current ? "page" : undefined}>
      {props.children}
    </a>
  );
}

export function Notice(props: { kind: "error" | "ok" | "warn" | "info"; children: ComponentChildren }) {
  return (
    <div class={`notice notice-${props.kind}`} role={props.kind === "error" ? "alert" : "status"}>
      {props.children}
    </div>
  );
}

/** Loads data for a page; `reload` fetches again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data?: T; error?: string; reload: () => void } {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  const [n, setN] = useState(0);
  const key = JSON.stringify(deps);
  const [loadedKey, setLoadedKey] = useState(key);
  useEffect(() => {
    let live = true;
    load().then(
      (data) => {
        if (!live) return;
        setState({ data });
        setLoadedKey(key);
      },
      (err: unknown) => {
        if (!live) return;
        setState({ error: err instanceof Error ? err.message : String(err) });
        setLoadedKey(key);
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, n]);
  // What was loaded for other deps (another record's id) is not shown as this one's; a reload of the
  // same deps keeps showing the previous data until the new arrives.
  const current = loadedKey === key ? state : {};
  return { ...current, reload: () => setN((x) => x + 1) };
}

export function Loading(props: { error?: string }) {
  return props.error ? <Notice kind="error">{props.error}</Notice> : <p class="muted">Loading…</p>;
}

export interface Field {
  name: string;
  label: string;
  type?: "text" | "email" | "password" | "number" | "url" | "tel" | "color" | "textarea" | "select" | "checkbox" | "date";
  required?: boolean;
  hint?: string;
  options?: { value: string; label: string }[];
  min?: number;
  max?: number;
  step?: string;
  maxLength?: number;
  autocomplete?: string;
}

export type Values = Record<string, string | boolean>;

/** The API's parameters that forms collect under other names (several checkboxes, MB instead of bytes), in words. */
const PARAM_WORDS: Record<string, string> = {
  location_ids: "choice of locations",
  location_id: "location",
  data_cap: "data allowance",
  bandwidth_down: "download limit",
  bandwidth_up: "upload limit",
  events: "choice of events",
  campaign_id: "campaign",
  sub_user_id: "sub-user",
  identifier: "account",
};

/**
 * An API sentence in the form's words: a parameter's code (retention_days) becomes its field's label
 * in quotes, or a known parameter's words, so an operator reads "The “Number of codes” must be at
 * least 1." beside the field, not "The count must be at least 1.".
 */
export function inWords(sentence: string, fields: Field[]): string {
  const labels = new Map(fields.map((f) => [f.name, `“${f.label}”`]));
  const words = (code: string) => labels.get(code) ?? PARAM_WORDS[code] ?? code.replace(/_/g, " ");
  // The parameter is the sentence's subject ("The selected x …"); any other code has an underscore.
  return sentence
    .replace(/^The (selected )?([a-z][a-z0-9_]*)\b/, (_m, selected: string | undefined, code: string) => `The ${selected ?? ""}${words(code)}`)
    .replace(/\b[a-z]+(?:_[a-z0-9]+)+\b/g, words);
}

/**
 * A form of fields posted with `submit`. The API's per-parameter error messages are shown beside
 * their fields; others above the form. Disabled entirely for read-only users.
 */
export function Form(props: {
  fields: Field[];
  initial?: Values;
  submitLabel: string;
  disabled?: boolean;
  submit: (values: Values) => Promise<string | undefined>;
  onChange?: (values: Values) => void;
  children?: ComponentChildren;
  /** Where the children go: after this field (default: after the last). */
  childrenAfter?: string;
  id?: string;
}) {
  const [values, setValues] = useState<Values>(props.initial ?? {});
  const [errors, setErrors] = useState<Messages>({});
  const [done, setDone] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  // Fields changed since the form last started or was saved: a new `initial` does not undo them.
  const touched = useRef(new Set<string>());
  // Start again from `initial` when its content changes (a record reloaded, a list it depends on
  // loaded), not on every render of the page and not on mount (the effect runs after the first
  // paint). What the user typed or chose meanwhile stays.
  const initialKey = JSON.stringify(props.initial ?? {});
  const seenKey = useRef(initialKey);
  useEffect(() => {
    if (seenKey.current === initialKey) return;
    seenKey.current = initialKey;
    setValues((current) => {
      const next: Values = { ...(props.initial ?? {}) };
      for (const name of touched.current) next[name] = current[name];
      return next;
    });
  }, [initialKey]);

  const set = (name: string, v: string | boolean) => {
    touched.current.add(name);
    const next = { ...values, [name]: v };
    setValues(next);
    props.onChange?.(next);
  };
  const onSubmit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setDone(undefined);
    try {
      const message = await props.submit(values);
      // Saved: the record's reloaded values may replace the form's again.
      touched.current.clear();
      setDone(message);
    } catch (err) {
      const messages: Messages = err instanceof ApiError ? err.messages : { form: [String(err)] };
      setErrors(Object.fromEntries(Object.entries(messages).map(([k, list]) => [k, list.map((m) => inWords(m, props.fields))])));
    } finally {
      setBusy(false);
    }
  };
  const known = new Set(props.fields.map((f) => f.name));
  const other = Object.entries(errors).filter(([k]) => !known.has(k));
  return (
    <form onSubmit={onSubmit} id={props.id} class="form" noValidate>
      {other.length > 0 && <Notice kind="error">{other.map(([, m]) => m.join(" ")).join(" ")}</Notice>}
      {props.fields.map((f) => (
        <Fragment key={f.name}>
          <FieldInput field={f} value={values[f.name]} error={errors[f.name]} disabled={props.disabled} onInput={(v) => set(f.name, v)} />
          {f.name === props.childrenAfter && props.children}
        </Fragment>
      ))}
      {!props.fields.some((f) => f.name === props.childrenAfter) && props.children}
      {done && <Notice kind="ok">{done}</Notice>}
      <div class="actions">
        <button type="submit" class="primary" disabled={props.disabled || busy}>
          {busy ? "Saving…" : props.submitLabel}
        </button>
      </div>
    </form>
  );
}

function FieldInput(props: { field: Field; value: string | boolean | undefined; error?: string[]; disabled?: boolean; onInput: (v: string | boolean) => void }) {
  const { field: f } = props;
  const id = `f-${f.name}`;
  const described = [f.hint ? `${id}-hint` : "", props.error ? `${id}-err` : ""].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    name: f.name,
    disabled: props.disabled,
    required: f.required,
    "aria-invalid": props.error ? true : undefined,
    "aria-describedby": described,
  };
  const text = typeof props.value === "string" ? props.value : "";
  let control: JSX.Element;
  if (f.type === "checkbox") {
    control = <input {...common} type="checkbox" checked={props.value === true} onChange={(e) => props.onInput((e.target as HTMLInputElement).checked)} />;
  } else if (f.type === "textarea") {
    control = <textarea {...common} value={text} maxLength={f.maxLength} rows={5} onInput={(e) => props.onInput((e.target as HTMLTextAreaElement).value)} />;
  } else if (f.type === "select") {
    control = (
      <select {...common} value={text} onChange={(e) => props.onInput((e.target as HTMLSelectElement).value)}>
        {(f.options ?? []).map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  } else {
    control = (
      <input
        {...common}
        type={(f.type ?? "text") as "text"}
        value={text}
        min={f.min}
        max={f.max}
        step={f.step}
        maxLength={f.maxLength}
        autoComplete={f.autocomplete}
        onInput={(e) => props.onInput((e.target as HTMLInputElement).value)}
      />
    );
  }
  return (
    <div class={`field${f.type === "checkbox" ? " field-check" : ""}`}>
      {f.type === "checkbox" ? (
        <>
          {control}
          <label for={id}>{f.label}</label>
        </>
      ) : (
        <>
          <label for={id}>
            {f.label}
            {f.required ? <span aria-hidden="true"> *</span> : null}
          </label>
          {control}
        </>
      )}
      {f.hint && (
        <small id={`${id}-hint`} class="hint">
          {f.hint}
        </small>
      )}
      {props.error && (
        <small id={`${id}-err`} class="field-error">
          {props.error.join(" ")}
        </small>
      )}
    </div>
  );
}

export function Table(props: { caption: string; head: string[]; rows: ComponentChildren[][]; empty?: string }) {
  if (props.rows.length === 0) return <p class="muted">{props.empty ?? "Nothing yet."}</p>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must take focus for the keyboard to scroll it
    <section class="table-wrap" aria-label={props.caption} tabIndex={0}>
      <table>
        <caption class="sr-only">{props.caption}</caption>
        <thead>
          <tr>
            {props.head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r, i) => (
            <tr key={i}>
              {r.map((c, j) => (
                <td key={j}>{c}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A button that asks before doing something that cannot be undone. */
export function ConfirmButton(props: { label: string; ariaLabel?: string; question: string; disabled?: boolean; onConfirm: () => Promise<void>; danger?: boolean }) {
  const [error, setError] = useState<string | undefined>();
  return (
    <>
      <button
        type="button"
        class={props.danger ? "danger" : undefined}
        aria-label={props.ariaLabel}
        disabled={props.disabled}
        onClick={async () => {
          if (!window.confirm(props.question)) return;
          setError(undefined);
          try {
            await props.onConfirm();
          } catch (err) {
            setError(err instanceof Error ? err.message : String(err));
          }
        }}
      >
        {props.label}
      </button>
      {error && <Notice kind="error">{error}</Notice>}
    </>
  );
}

export function ReadOnlyNote(props: { readonly: boolean }) {
  return props.readonly ? <Notice kind="info">You have read-only access: you can see everything of this account and change nothing.</Notice> : null;
}

/** A choice of "All locations" (value "0") or one of them. */
export function LocationSelect(props: { locations: { id: number; name: string }[]; value: string; onChange: (value: string) => void }) {
  return (
    <label>
      Location{" "}
      <select value={props.value} onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}>
        <option value="0">All locations</option>
        {props.locations.map((l) => (
          <option key={l.id} value={String(l.id)}>
            {l.name}
          </option>
        ))}
      </select>
    </label>
  );
}
