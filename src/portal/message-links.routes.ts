/**
 * Where the links of our messages lead, for people who are not signed in to anything:
 * - `/unsubscribe/<token>`: GET shows a page with one button; POST unsubscribes at once. The POST is
 *   also RFC 8058's one-click (List-Unsubscribe-Post: List-Unsubscribe=One-Click), sent by mail
 *   software as application/x-www-form-urlencoded or multipart/form-data, never answered with a
 *   redirect. A GET changes nothing: mail scanners fetch links, and must not unsubscribe anyone.
 * - `/survey/<token>?score=N`: GET shows the question with the score ticked; POST records the score
 *   and comment, then thanks the guest (with the venue's review link when it has one). Again a
 *   GET records nothing, for the same scanners.
 * Tokens are signed (message-tokens.ts); an unknown one gets the same plain page as a gone message.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { html } from "../http/html.js";
import { translate, translator } from "../i18n/catalogue.js";
import { type MessageTexts, textsFor } from "../modules/messages/message-texts.js";
import { answerSurvey, messageOfToken, unsubscribe, unsubscribeSubject } from "../modules/messages/messages.service.js";
import type { PortalDeps } from "./portal-deps.js";
import { newNonce, setPortalHeaders } from "./portal-headers.js";
import { pageLanguage } from "./portal-language.js";
import { bodyOf } from "./portal-request.js";
import { layout } from "./views/layout.view.js";
import { DEFAULT_THEME } from "./views/message-page.view.js";

/** The largest body a one-click POST or a survey answer needs. */
const BODY_LIMIT = 16 * 1024;

/** The page's texts: in the language the message was written in, else the browser's. */
function textsOf(request: FastifyRequest, m?: { language?: string } | null): MessageTexts {
  return textsFor(m?.language || pageLanguage(request, undefined));
}

function page(reply: FastifyReply, texts: MessageTexts, title: string, body: ReturnType<typeof html>, status = 200) {
  const nonce = newNonce();
  setPortalHeaders(reply, nonce, []);
  reply.code(status).type("text/html; charset=utf-8");
  return layout({ tr: translator(texts.tag), title, theme: DEFAULT_THEME, nonce, footer: { text: "" }, body });
}

type TokenRequest = FastifyRequest<{ Params: { token: string }; Querystring: { score?: string } }>;

export async function messageLinkRoutes(app: FastifyInstance, deps: PortalDeps): Promise<void> {
  const { ctx } = deps;
  // One-click unsubscribes may come as multipart/form-data: only their arrival matters, so the body is read and dropped.
  app.addContentTypeParser("multipart/form-data", { parseAs: "string", bodyLimit: BODY_LIMIT }, (_req, _body, done) => done(null, {}));

  app.get("/unsubscribe/:token", { schema: { hide: true } }, async (request: TokenRequest, reply) => {
    const m = await messageOfToken(ctx, "u", request.params.token);
    const texts = textsOf(request, m);
    const u = texts.unsubscribePage;
    if (!m) return page(reply, texts, u.title, html`<h1>${u.title}</h1><p role="alert">${u.unknown}</p>`, 404);
    const venue = await unsubscribeSubject(ctx, m);
    return page(
      reply,
      texts,
      u.title,
      html`<h1>${u.title}</h1>
<p>${translate(texts.tag, "unsubscribePage.question", { venue })}</p>
<form method="post" action="/unsubscribe/${request.params.token}"><input type="hidden" name="List-Unsubscribe" value="Click">
<button type="submit" id="unsubscribe">${u.button}</button></form>`,
    );
  });

  app.post("/unsubscribe/:token", { schema: { hide: true }, bodyLimit: BODY_LIMIT }, async (request: TokenRequest, reply) => {
    const m = await messageOfToken(ctx, "u", request.params.token);
    const texts = textsOf(request, m);
    const u = texts.unsubscribePage;
    if (!m) return page(reply, texts, u.title, html`<h1>${u.title}</h1><p role="alert">${u.unknown}</p>`, 404);
    const oneClick = bodyOf(request)["List-Unsubscribe"] !== "Click";
    await unsubscribe(ctx, m, oneClick);
    request.log.info({ event: "message.unsubscribed", message: m.id, oneClick }, "unsubscribed");
    return page(reply, texts, u.title, html`<h1>${u.title}</h1><p role="status">${translate(texts.tag, "unsubscribePage.done", { venue: await unsubscribeSubject(ctx, m) })}</p>`);
  });

  const form = (texts: MessageTexts, token: string, question: string, score: number | undefined, error?: string) =>
    html`<h1>${texts.surveyPage.title}</h1>
<form method="post" action="/survey/${token}">
<fieldset><legend>${question}</legend>
<p class="scores">${Array.from({ length: 11 }, (_, n) => html`<label><input type="radio" name="score" value="${n}"${n === score ? html` checked` : ""} required> ${n}</label> `)}</p>
<p class="muted">${texts.survey.low} · ${texts.survey.high}</p>
${error ? html`<p class="error" role="alert">${error}</p>` : ""}
</fieldset>
<label for="comment">${texts.surveyPage.commentLabel}</label>
<textarea id="comment" name="comment" maxlength="2000" rows="4"></textarea>
<button type="submit" id="send">${texts.surveyPage.button}</button></form>`;

  const questionOf = async (texts: MessageTexts, automationId: number | null, locationId: number | null) => {
    const a = automationId === null ? undefined : await ctx.repos.automations.findById(ctx.db, automationId);
    const loc = locationId === null ? undefined : await ctx.repos.locations.findById(ctx.db, locationId);
    const q = a?.survey_question || texts.survey.question;
    return { question: q.replace(/\{\{\s*location_name\s*(\|[^}]*)?\}\}/g, loc?.name ?? ""), reviewUrl: a?.review_url ?? "" };
  };

  app.get("/survey/:token", { schema: { hide: true } }, async (request: TokenRequest, reply) => {
    const m = await messageOfToken(ctx, "s", request.params.token);
    const texts = textsOf(request, m);
    const s = texts.surveyPage;
    if (!m) return page(reply, texts, s.title, html`<h1>${s.title}</h1><p role="alert">${s.unknown}</p>`, 404);
    const { question } = await questionOf(texts, m.automation_id, m.location_id);
    const raw = request.query.score;
    const score = raw !== undefined && /^(10|[0-9])$/.test(raw) ? Number(raw) : undefined;
    return page(reply, texts, s.title, form(texts, request.params.token, question, score));
  });

  app.post("/survey/:token", { schema: { hide: true }, bodyLimit: BODY_LIMIT }, async (request: TokenRequest, reply) => {
    const m = await messageOfToken(ctx, "s", request.params.token);
    const texts = textsOf(request, m);
    const s = texts.surveyPage;
    if (!m) return page(reply, texts, s.title, html`<h1>${s.title}</h1><p role="alert">${s.unknown}</p>`, 404);
    const body = bodyOf(request);
    const raw = typeof body.score === "string" ? body.score : "";
    const comment = typeof body.comment === "string" ? body.comment.split(String.fromCharCode(0)).join("").trim() : "";
    const { question, reviewUrl } = await questionOf(texts, m.automation_id, m.location_id);
    if (!/^(10|[0-9])$/.test(raw)) return page(reply, texts, s.title, form(texts, request.params.token, question, undefined, s.scoreLabel), 400);
    if (!(await answerSurvey(ctx, m, Number(raw), comment))) return page(reply, texts, s.title, html`<h1>${s.title}</h1><p role="alert">${s.unknown}</p>`, 404);
    return page(
      reply,
      texts,
      s.title,
      html`<h1>${s.title}</h1><p role="status">${s.thanks}</p>
${reviewUrl ? html`<p>${s.reviewInvite} <a href="${reviewUrl}">${reviewUrl}</a></p>` : ""}`,
    );
  });
}
