/** Built-in campaign templates, inserted by the first migration, owned by no account. */
import { type CampaignPayload, noLogins } from "./campaign-payload.js";

export interface BuiltinTemplate {
  name: string;
  filename: string;
  payload: CampaignPayload;
}

const base = {
  version: 1 as const,
  ssid: "GuestWiFi",
  footer_text: "Free WiFi for our guests",
  text_color: "1f2933",
  background: "f5f7fa",
  custom_terms:
    "<p>By connecting you agree to use this network lawfully and accept that we record your login " +
    "details to operate the service.</p>",
  redirect_url: "",
  custom_fields: { name: true, email: true, phone: false },
};

export const BUILTIN_TEMPLATES: BuiltinTemplate[] = [
  {
    name: "CustomFormLogin",
    filename: "template-custom-form.html",
    payload: { ...base, title_text: "Welcome! Tell us who you are", login_options: { ...noLogins(), custom: true } },
  },
  {
    name: "SocialLogin",
    filename: "template-social-login.html",
    payload: {
      ...base,
      title_text: "Welcome! Log in to get online",
      login_options: { ...noLogins(), facebook: true, twitter: true, instagram: true, linkedin: true, email: true },
    },
  },
  {
    name: "ClickThrough",
    filename: "template-click-through.html",
    payload: { ...base, title_text: "Free WiFi", login_options: { ...noLogins(), clickthrough: true } },
  },
];
