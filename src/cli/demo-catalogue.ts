/**
 * What the demo generator draws from: four venues in four time zones with their own daily and
 * weekly rhythm, access point vendors, guest names, phones and user agents. E-mail addresses use
 * the reserved example.* domains and phone numbers the ranges set aside for fiction.
 */
import type { LoginMethod } from "../modules/campaigns/campaign-payload.js";

export interface DemoSite {
  name: string;
  address1: string;
  town: string;
  state: string;
  zipcode: string;
  country: string;
  phone_number: string;
  timezone: string;
  latitude: number;
  longitude: number;
  website: string;
  /** Mean logins on an ordinary weekday. */
  dailyLogins: number;
  /** Relative traffic per local hour, 0 to 23. */
  hourly: number[];
  /** Multiplier per day of the week, Sunday first. */
  weekly: number[];
  locale: string;
  names: "en" | "ja";
  /** Guests' phone numbers: this prefix, then digits up to phoneLength characters in all (E.164). */
  phonePrefix: string;
  phoneLength: number;
  campaign: {
    name: string;
    template: "CustomFormLogin" | "SocialLogin" | "ClickThrough";
    ssid: string;
    title_text: string;
    footer_text: string;
    text_color: string;
    background: string;
    redirect_url: string;
    /** Login methods offered, with how often guests choose each. */
    methods: Partial<Record<LoginMethod, number>>;
  };
  /** How recently each access point was heard from, relative to the end of the period. */
  devices: { model: string; name: string; heard: "online" | "offline" | "never" }[];
  options: { session_time_limit: number; max_bandwidth_down: number; max_bandwidth_up: number; daily_bandwidth_cap: number };
}

//                 0  1  2  3  4  5  6  7  8   9  10  11  12  13  14  15  16  17  18  19  20  21  22  23
const CAFE = [0, 0, 0, 0, 0, 0, 2, 6, 9, 8, 6, 7, 14, 13, 6, 5, 5, 8, 9, 7, 4, 2, 1, 0];
const PUB = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 7, 8, 4, 3, 4, 8, 12, 14, 13, 10, 6, 3];
const COWORK = [0, 0, 0, 0, 0, 0, 0, 3, 10, 12, 9, 7, 8, 9, 8, 7, 6, 4, 2, 1, 1, 0, 0, 0];
const BEACH = [0, 0, 0, 0, 0, 1, 3, 6, 7, 8, 9, 11, 13, 12, 11, 10, 8, 6, 4, 2, 1, 0, 0, 0];

export const DEMO_SITES: DemoSite[] = [
  {
    name: "Hudson Street Cafe", address1: "212 Hudson Street", town: "New York", state: "NY", zipcode: "10013",
    country: "US", phone_number: "(212)555-0147", timezone: "America/New_York", latitude: 40.7252, longitude: -74.0079,
    website: "https://hudson-cafe.example.com", dailyLogins: 95, hourly: CAFE, weekly: [1.35, 0.9, 0.9, 0.95, 1.0, 1.15, 1.5],
    locale: "en_US", names: "en", phonePrefix: "+1212555", phoneLength: 12,
    campaign: {
      name: "HudsonSocial", template: "SocialLogin", ssid: "HudsonCafe", title_text: "Welcome to Hudson Street Cafe",
      footer_text: "Free WiFi while you enjoy your coffee", text_color: "3b2417", background: "fdf6ec",
      redirect_url: "https://hudson-cafe.example.com/menu",
      methods: { facebook: 38, instagram: 22, email: 22, twitter: 10, linkedin: 8 },
    },
    devices: [
      { model: "meraki-mr36", name: "Counter AP", heard: "online" },
      { model: "meraki-mr36", name: "Patio AP", heard: "online" },
    ],
    options: { session_time_limit: 7200, max_bandwidth_down: 1_250_000, max_bandwidth_up: 250_000, daily_bandwidth_cap: 1_000_000_000 },
  },
  {
    name: "The Crown and Anchor", address1: "22 Neal Street", town: "London", state: "England", zipcode: "WC2H 9PS",
    country: "GB", phone_number: "(020)794-6018", timezone: "Europe/London", latitude: 51.5136, longitude: -0.1256,
    website: "https://crown-anchor.example.co.uk", dailyLogins: 75, hourly: PUB, weekly: [1.2, 0.7, 0.75, 0.85, 1.0, 1.55, 1.65],
    locale: "en_GB", names: "en", phonePrefix: "+447700900", phoneLength: 13,
    campaign: {
      name: "CrownGuestForm", template: "CustomFormLogin", ssid: "CrownGuest", title_text: "Cheers! Tell us who you are",
      footer_text: "Please drink responsibly", text_color: "f5f0e1", background: "1c3b2a", redirect_url: "",
      methods: { custom: 1 },
    },
    devices: [
      { model: "ubiquiti-u6-lite", name: "Bar AP", heard: "online" },
      { model: "ubiquiti-u6-lite", name: "Beer Garden AP", heard: "offline" },
      { model: "ubiquiti-uap-ac-lite", name: "Function Room AP", heard: "never" },
    ],
    options: { session_time_limit: 14400, max_bandwidth_down: 2_500_000, max_bandwidth_up: 500_000, daily_bandwidth_cap: 0 },
  },
  {
    name: "Shibuya Co-Working Loft", address1: "2-21-1 Shibuya", town: "Tokyo", state: "Tokyo", zipcode: "150-0002",
    country: "JP", phone_number: "(033)555-0192", timezone: "Asia/Tokyo", latitude: 35.6591, longitude: 139.7037,
    website: "https://shibuya-loft.example.jp", dailyLogins: 60, hourly: COWORK, weekly: [0.25, 1.1, 1.15, 1.15, 1.1, 0.95, 0.3],
    locale: "ja_JP", names: "ja", phonePrefix: "+8180555", phoneLength: 13,
    campaign: {
      name: "LoftAccess", template: "ClickThrough", ssid: "LoftGuest", title_text: "Shibuya Loft guest network",
      footer_text: "Members use the staff network", text_color: "111827", background: "e5e7eb", redirect_url: "",
      methods: { clickthrough: 70, email: 30 },
    },
    devices: [
      { model: "tplink-eap650", name: "Open Desk AP", heard: "online" },
      { model: "tplink-eap225", name: "Meeting Rooms AP", heard: "online" },
    ],
    options: { session_time_limit: 0, max_bandwidth_down: 0, max_bandwidth_up: 0, daily_bandwidth_cap: 0 },
  },
  {
    name: "Bondi Beach Kiosk", address1: "1 Queen Elizabeth Drive", town: "Sydney", state: "NSW", zipcode: "2026",
    country: "AU", phone_number: "(029)555-0110", timezone: "Australia/Sydney", latitude: -33.8915, longitude: 151.2767,
    website: "https://bondi-kiosk.example.com.au", dailyLogins: 50, hourly: BEACH, weekly: [1.8, 0.8, 0.8, 0.85, 0.9, 1.1, 1.9],
    locale: "en_AU", names: "en", phonePrefix: "+614915", phoneLength: 12,
    campaign: {
      name: "BondiWiFi", template: "SocialLogin", ssid: "BondiFree", title_text: "G'day! Free WiFi at Bondi",
      footer_text: "Slip, slop, slap", text_color: "083344", background: "ecfeff", redirect_url: "https://bondi-kiosk.example.com.au/",
      methods: { facebook: 35, instagram: 35, sms: 30 },
    },
    devices: [{ model: "glinet-gl-mt3000", name: "Kiosk Gateway", heard: "online" }],
    options: { session_time_limit: 3600, max_bandwidth_down: 625_000, max_bandwidth_up: 125_000, daily_bandwidth_cap: 500_000_000 },
  },
];

/** Organizationally unique identifiers of each access point vendor (first three MAC octets). */
export const AP_OUIS: Record<string, string[]> = {
  meraki: ["0C:8D:DB", "E0:55:3D", "88:15:44"],
  ubiquiti: ["24:5A:4C", "74:83:C2", "F4:92:BF"],
  tplink: ["50:C7:BF", "98:DA:C4", "60:32:B1"],
  glinet: ["94:83:C4", "E4:95:6E"],
};

/** Phones and laptops that keep their vendor MAC; the rest use a randomized (locally administered) one. */
export const CLIENT_OUIS = ["F0:18:98", "3C:22:FB", "A4:83:E7", "8C:F5:A3", "5C:3C:27", "3C:28:6D", "DC:A6:32"];

export const USER_AGENTS: { weight: number; value: string }[] = [
  { weight: 26, value: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1" },
  { weight: 14, value: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1" },
  { weight: 5, value: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1" },
  { weight: 14, value: "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile Safari/537.36" },
  { weight: 6, value: "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36" },
  { weight: 7, value: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile Safari/537.36" },
  { weight: 3, value: "Mozilla/5.0 (Linux; Android 13; 2201117TG) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.6422.165 Mobile Safari/537.36" },
  { weight: 2, value: "Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0" },
  { weight: 5, value: "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1" },
  { weight: 7, value: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15" },
  { weight: 7, value: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36" },
  { weight: 4, value: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.68" },
];

export const NAMES = {
  en: {
    female: ["Olivia", "Emma", "Amelia", "Sophia", "Charlotte", "Mia", "Isla", "Grace", "Chloe", "Ava", "Ruby", "Zoe", "Hannah", "Priya", "Maria"],
    male: ["Liam", "Noah", "Oliver", "James", "Jack", "William", "Lucas", "Henry", "Leo", "Ethan", "Samuel", "Daniel", "Arjun", "Mateo", "Tom"],
    last: ["Smith", "Jones", "Brown", "Taylor", "Wilson", "Johnson", "Williams", "Martin", "Lee", "Walker", "Patel", "Nguyen", "Garcia", "Kelly", "Murphy", "Clarke", "Evans", "Khan"],
  },
  ja: {
    female: ["Yui", "Aoi", "Hina", "Sakura", "Yuna", "Mei", "Rin", "Haruka", "Misaki", "Nanami"],
    male: ["Haruto", "Sota", "Ren", "Yuto", "Hinata", "Riku", "Kaito", "Takumi", "Daiki", "Kenta"],
    last: ["Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito", "Yamamoto", "Nakamura", "Kobayashi", "Kato"],
  },
};

export const EMAIL_DOMAINS = ["example.com", "example.net", "example.org", "mail.example.com"];

export const AGE_RANGES = [
  { weight: 18, value: "18-24" },
  { weight: 34, value: "25-34" },
  { weight: 24, value: "35-44" },
  { weight: 14, value: "45-54" },
  { weight: 10, value: "55+" },
];
