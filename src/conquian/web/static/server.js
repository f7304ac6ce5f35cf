// The page's requests to the server (a module that holds no DOM: tests/js/server.test.js).

import { t } from "./words.js";

/**
 * The first `GET /api/me` of this page while it is under way.  A browser the server does
 * not know yet is given a new (guest) player by the first request that needs one, named in
 * that answer's cookie; two such requests at once would make two players, and the browser
 * would keep whichever cookie came last: seated at a table as one, reporting or rated as the
 * other.  So the page's first request asks who it is, alone, and every other waits for it.
 * @type {Promise<any> | null}
 */
let firstVisit = null;
/** Whether the server has answered who this browser is (its cookie is set). */
let known = false;

/**
 * The server's answer to a GET (or, with a body, a POST of it as JSON), once the server
 * knows who this browser is (see firstVisit).
 * @template T  the answer's type, as the caller names it (protocol.js): not checked here
 * @param {string} path
 * @param {object} [body]
 * @returns {Promise<T>} the answer's JSON
 * @throws {Error} with the server's words for an answer that is not OK
 */
export async function api(path, body) {
  const askingWho = path === "/api/me" && body === undefined;
  if (!known) {
    const first = firstVisit === null;
    if (first) firstVisit = request("/api/me");
    try {
      const me = await firstVisit;
      known = true;
      if (first && askingWho) return me;
    } catch (err) {
      firstVisit = null; // the next request asks again
      if (first && askingWho) throw err;
    }
  }
  return request(path, body);
}

/**
 * The browser's cookie names nobody now (signed out, or the account erased): the next
 * request asks who it is first and alone again, as the page's first did (see firstVisit).
 */
export function forgetWho() {
  known = false;
  firstVisit = null;
}

/**
 * One request to the server, as api() describes it.
 * @param {string} path
 * @param {object} [body]
 * @returns {Promise<any>}
 */
async function request(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || t("The server answered {status}.", { status: response.status }));
  return data;
}
