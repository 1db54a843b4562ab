/** The URL as the access log writes it: every query value redacted but ids, dates and paging; a message link's token too. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { redactUrl } from "../../src/logger.js";

describe("redactUrl", () => {
  it("keeps ids, dates and paging, and redacts every other value", () => {
    assert.equal(
      redactUrl("/api/session-list?identifier=abc&location_ids=1,2&from_date=2026-11-01&to_date=2026-11-28&page=2&per_page=50&password=x"),
      "/api/session-list?identifier=[redacted]&location_ids=1,2&from_date=2026-11-01&to_date=2026-11-28&page=2&per_page=50&password=[redacted]",
    );
  });

  it("leaves a path without a query, and a parameter without a value, as they are", () => {
    assert.equal(redactUrl("/portal/l/k3x9"), "/portal/l/k3x9");
    assert.equal(redactUrl("/x?flag&ids=3&"), "/x?flag&ids=3&");
    assert.equal(redactUrl("/x?"), "/x?");
  });

  it("reads an encoded name as it decodes, and redacts the value of a name that does not decode", () => {
    assert.equal(redactUrl("/x?%69ds=7&a+b=1&%E0%A4%A=2"), "/x?%69ds=7&a+b=[redacted]&%E0%A4%A=[redacted]");
  });

  it("redacts a Coova gateway's values but its res", () => {
    assert.equal(
      redactUrl("/portal/l/k3x9?res=notyet&uamip=10.1.0.1&challenge=00ff&mac=02-C1-FF-00-00-01&md=ABCD"),
      "/portal/l/k3x9?res=notyet&uamip=[redacted]&challenge=[redacted]&mac=[redacted]&md=[redacted]",
    );
  });

  it("redacts the token of an unsubscribe or survey link, and only there", () => {
    assert.equal(redactUrl("/unsubscribe/tok.en?lang=de"), "/unsubscribe/[redacted]?lang=[redacted]");
    assert.equal(redactUrl("/survey/abc/answer"), "/survey/[redacted]/answer");
    assert.equal(redactUrl("/api/unsubscribe/tok"), "/api/unsubscribe/tok");
  });
});
