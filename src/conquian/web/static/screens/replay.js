// The replay of a finished deal (#/replay/ID/DEAL): every position, both hands shown, step
// by step with the buttons, the slider or the keys.

import { card, chip, melds, words } from "../html.js";
import { api, app, byId, deck, element, errorText } from "../page.js";
import { versus } from "../seats.js";
import { escapeHTML as esc, t } from "../words.js";

/** @import { Screen } from "../page.js" */
/** @import { ReplayAnswer } from "../protocol.js" */

/**
 * @param {string} id
 * @param {string} deal
 * @returns {Screen}
 */
export function showReplay(id, deal) {
  /** @type {ReplayAnswer | null} */
  let replay = null;
  let at = 0;
  let shown = true;
  const listening = new AbortController();
  app.innerHTML = `<p class="loading">${esc(t("Loading the replay…"))}</p>`;

  /** @param {number} n */
  const go = (n) => {
    if (!replay) return;
    at = Math.max(0, Math.min(replay.frames.length - 1, n));
    draw(replay);
  };

  /** @param {ReplayAnswer} r */
  const draw = (r) => {
    const d = deck();
    const f = r.frames[at];
    const last = r.frames.length - 1;
    const seats = r.players.length;
    /** @param {number} p */
    const side = (p) => `<div class="player" data-seat="${p}">
      <div class="who"><span class="name">${esc(r.players[p])}</span> <span class="count">${esc(t("{count} in hand", { count: f.hands[p].length }))}</span></div>
      <div class="chips hand-chips">${f.hands[p].map((c) => chip(c, d)).join(" ")}</div>
      <div class="table">${melds(f.tables[p], d)}</div></div>`;
    // the first seat below, the others above in play order (as the table draws them)
    const others = Array.from({ length: seats - 1 }, (_, k) => side(k + 1)).join("");
    /** @param {string} bid @param {string} label @param {string} text */
    const button = (bid, label, text) => `<button id="${bid}" aria-label="${esc(label)}">${esc(text)}</button>`;
    const slider = esc(t("Move"));
    app.innerHTML = `<section class="replay panel">
    <h2>${esc(t("Replay of deal {number}: {players}", { number: r.deal, players: versus(r.players) }))} <span class="small">(${esc(r.result)})</span></h2>
    <div class="replay-controls">
      ${button("rp-first", t("First position"), t("« First"))}
      ${button("rp-prev", t("Previous move"), t("‹ Back"))}
      <input id="rp-slider" type="range" min="0" max="${last}" value="${at}" aria-label="${slider}">
      ${button("rp-next", t("Next move"), t("Next ›"))}
      ${button("rp-last", t("Last position"), t("Last »"))}
      <span id="rp-step">${at} / ${last}</span>
    </div>
    <p class="prompt" id="rp-words">${at ? words(f.words, d) : esc(t("The deal, before the first move."))}</p>
    ${seats > 2 ? `<div class="others">${others}</div>` : others}
    <div class="middle"><div class="stock"><div class="label">${esc(t("{count} in stock", { count: f.stock_count }))}</div></div>
      <div class="centre">${f.centre ? card(f.centre, d, "big") : `<div class="slot"></div>`}</div>
      <div class="dead"><div class="label">${esc(t("Dead cards"))}</div><div class="chips">${f.dead.map((c) => chip(c, d)).join(" ")}</div></div></div>
    ${side(0)}
    <p class="small">${esc(t("Keys: ← → step, Home / End."))} <a href="/api/games/${id}/records/${r.deal}" download>${esc(t("Download the record"))}</a></p>
  </section>`;
    byId("rp-first").onclick = () => go(0);
    byId("rp-prev").onclick = () => go(at - 1);
    byId("rp-next").onclick = () => go(at + 1);
    byId("rp-last").onclick = () => go(last);
    const range = element("rp-slider", HTMLInputElement);
    range.oninput = () => go(Number(range.value));
  };

  document.addEventListener(
    "keydown",
    (event) => {
      if (!replay) return;
      if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
      /** @type {Record<string, number>} */
      const moves = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: replay.frames.length - 1 };
      if (event.key in moves) {
        event.preventDefault();
        go(moves[event.key]);
      }
    },
    { signal: listening.signal },
  );

  (async () => {
    try {
      /** @type {ReplayAnswer} */
      const data = await api(`/api/games/${encodeURIComponent(id)}/replay/${encodeURIComponent(deal)}`);
      if (!shown) return;
      replay = data;
      draw(data);
    } catch (err) {
      if (shown) app.innerHTML = `<section class="panel narrow"><h2>${esc(t("No replay"))}</h2><p class="error">${esc(errorText(err))}</p><a href="#/">${esc(t("Back"))}</a></section>`;
    }
  })();

  return {
    close: () => {
      shown = false;
      listening.abort();
    },
    redraw: () => {
      if (replay) draw(replay);
    },
  };
}
