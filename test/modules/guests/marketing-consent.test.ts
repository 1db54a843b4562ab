/**
 * The one rule of a guest's marketing opt-in (src/modules/guests/marketing-consent.ts), and what the
 * login plan makes of it for both databases: the login's and the guest's columns, and whether
 * guest.login carries personal fields. Pure: no database.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type LoginInput, planLogin } from "../../../src/modules/guests/login-input.js";
import { type LoginConsent, marketingDecision } from "../../../src/modules/guests/marketing-consent.js";

const consent = (c: Partial<LoginConsent>): LoginConsent => ({
  termsAccepted: true,
  termsVersion: "t1",
  marketingOffered: false,
  marketingTicked: false,
  marketingVersion: "",
  ...c,
});

describe("marketing decision", () => {
  it("opts in only a guest who ticked the box the page offered", () => {
    assert.deepEqual(marketingDecision(consent({ marketingOffered: true, marketingTicked: true, marketingVersion: "m1" })), {
      decided: true,
      optedIn: true,
      version: "m1",
    });
  });

  it("records a withdrawal when the page offered the box and it was left empty", () => {
    assert.deepEqual(marketingDecision(consent({ marketingOffered: true, marketingTicked: false, marketingVersion: "m1" })), {
      decided: true,
      optedIn: false,
      version: "m1",
    });
  });

  it("ignores a tick posted to a page that did not offer the box, and leaves the earlier choice", () => {
    assert.deepEqual(marketingDecision(consent({ marketingOffered: false, marketingTicked: true, marketingVersion: "m1" })), {
      decided: false,
      optedIn: false,
      version: "",
    });
  });

  it("decides nothing for a login without a consent step", () => {
    assert.deepEqual(marketingDecision(undefined), { decided: false, optedIn: false, version: "" });
  });

  it("keeps a version to its column's 64 characters", () => {
    assert.equal(marketingDecision(consent({ marketingOffered: true, marketingVersion: "v".repeat(100) })).version.length, 64);
  });
});

describe("login plan", () => {
  const input = (c?: LoginConsent): LoginInput => ({
    accountId: 7,
    locationId: 3,
    timezone: "Europe/Paris",
    campaignId: 2,
    deviceId: null,
    loginType: "Cuser",
    identity: " Ann@Example.com ",
    profile: { email: "ann@example.com", full_name: "  Ann  ", phone_number: "" },
    clientMac: "02:00:00:00:00:01",
    userAgent: "test",
    at: new Date("2026-05-01T22:30:00Z"),
    consent: c,
  });

  it("writes the decision to the login, the guest and the event alike", () => {
    const yes = planLogin(input(consent({ marketingOffered: true, marketingTicked: true, marketingVersion: "m1" })));
    assert.equal(yes.login.marketing_opt_in, 1);
    assert.equal(yes.login.marketing_version, "m1");
    assert.deepEqual([yes.guestSet.marketing_opt_in, yes.guestSet.marketing_opt_in_at, yes.guestSet.marketing_version], [1, "2026-05-01 22:30:00", "m1"]);
    assert.equal(yes.event.marketing_opt_in, true);
    assert.equal(yes.event.email, "ann@example.com");
    assert.equal(yes.event.client_mac, "02:00:00:00:00:01");

    const no = planLogin(input(consent({ marketingOffered: true, marketingTicked: false, marketingVersion: "m1" })));
    assert.equal(no.login.marketing_opt_in, 0);
    assert.equal(no.guestSet.marketing_opt_in, 0, "a withdrawal replaces the guest's latest choice");
    assert.equal(no.event.marketing_opt_in, false);
    assert.equal("email" in no.event, false, "no personal fields without an opt-in");
  });

  it("leaves the guest's choice alone when the page asked nothing, and sets only the profile fields given", () => {
    const p = planLogin(input(consent({ marketingOffered: false, marketingTicked: true })));
    assert.equal(p.login.marketing_opt_in, 0);
    assert.deepEqual(Object.keys(p.guestSet).sort(), ["email", "full_name", "updated_at"]);
    assert.equal(p.guestSet.full_name, "Ann");
    assert.equal(p.guestKey.network_user_id, "ann@example.com");
  });

  it("counts the login on the location's local day and hour", () => {
    const p = planLogin(input());
    assert.deepEqual(p.counterKeys, { location_id: 3, day: "2026-05-02", login_type: "Cuser", hour: 0 });
    assert.equal(p.login.local_day, "2026-05-02");
    assert.equal(p.login.terms_accepted, 0);
  });
});
