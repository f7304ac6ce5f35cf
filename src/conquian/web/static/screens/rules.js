// How to play (#/rules[/SPEC]).  Every rule fact on this page comes from the server
// (/api/rules), for the game's own rules, in the page's language; only how this page is used
// (keys and buttons) is written here.

import { moveKeys } from "../game/dock.js";
import { api, app, byId, errorText } from "../page.js";
import { escapeHTML as esc, language, t, th } from "../words.js";

/** @import { Screen } from "../page.js" */
/** @import { HowSection, MarkedLine, RulesAnswer } from "../protocol.js" */

/** @param {MarkedLine} segments */
function marked(segments) {
  return (segments || [])
    .map((s) => (typeof s === "string" ? esc(s) : "strong" in s ? `<strong>${esc(s.strong)}</strong>` : `<em>${esc(s.em)}</em>`))
    .join("");
}

/** @param {HowSection} section */
function howSection(section) {
  const heading = section.heading ? `<h2>${esc(section.heading)}</h2>` : "";
  if (section.steps) return `${heading}<ol>${section.steps.map((l) => `<li>${marked(l)}</li>`).join("")}</ol>`;
  return heading + (section.paragraphs || []).map((l) => `<p>${marked(l)}</p>`).join("");
}

/**
 * @param {string} spec  the rules (a preset or a spec)
 * @returns {Screen}
 */
export function showRules(spec) {
  let shown = true;
  document.title = t("Conquian — rules");
  const key = moveKeys(); // the language's keys, as the buttons show them
  const keys = Object.fromEntries(
    Object.entries({ take: key.take, pass: key.pass, discard: key.discard, force: key.force, noforce: key.noforce, hint: key.hint, first: "1", last: "9" }).map(([k, v]) => [
      k,
      `<kbd>${esc(v)}</kbd>`,
    ]),
  );
  app.innerHTML = `<section class="panel rules">
    <h1>${esc(t("How to play Conquian"))}</h1>
    <div id="rules-how"><p class="small">${esc(t("Loading…"))}</p></div>
    <h2>${esc(t("In this game"))}</h2>
    <p>${th("Pick cards from your hand (click, or arrow keys and Space), then press {take} Take, {pass} Decline / Pass, {discard} Discard, {force} Force, {noforce} Let it go, or {hint} for a hint. When a card can be laid in several ways, you choose one from a list (keys {first}–{last}).", keys)}</p>
    <h2 id="rules-heading">${esc(t("Every rule"))}</h2>
    <pre id="rules-text">${esc(t("Loading…"))}</pre>
    <details id="rules-flags-box"><summary>${esc(t("To set up a game of your own: the options of these rules"))}</summary><pre id="rules-flags"></pre></details>
  </section>`;
  (async () => {
    try {
      /** @type {RulesAnswer} */
      const data = await api(`/api/rules?rules=${encodeURIComponent(spec)}&lang=${encodeURIComponent(language())}`);
      if (!shown) return;
      byId("rules-how").innerHTML = data.how.map(howSection).join("");
      byId("rules-heading").textContent = data.heading;
      byId("rules-text").textContent = data.text;
      byId("rules-flags").textContent = data.flags;
    } catch (err) {
      if (!shown) return;
      byId("rules-how").innerHTML = "";
      byId("rules-text").textContent = errorText(err);
    }
  })();
  return { close: () => (shown = false) };
}
